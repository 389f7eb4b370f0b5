# bench/plot/pingpong.gp: what one hand-off costs, by mode and Ps, gl's
# bar beside Go's (pingpong.csv: mode, Ps, CPUs, gl ns, Go ns, ...).
set title "One hand-off between two goroutines or threads (bench/pingpong)"
set ylabel "ns per hand-off (log scale)"
set xlabel "mode; GOMAXPROCS; CPUs (all, or pinned to cpu0)" offset 0,-1
set logscale y
set yrange [10:*]
set style data histograms
set style histogram clustered gap 1
set xtics scale 0
set bmargin 5
plot csv using 4:xtic(sprintf("%s\n%s P, %s", strcol(1), strcol(2), strcol(3))) title "gl" lc rgb glcolor, \
     ''  using 5 title "Go 1.19" lc rgb gocolor
