# bench/plot/stackstart.gp: what the stack a goroutine starts with saves
# (stackstart.csv: adaptivestackstart, gl copies per goroutine, gl cpu µs,
# Go cpu µs, gl/Go).  Go has no per-statement mode: its bar is missing.
set title "10,000 goroutines recursing to 64 KiB: CPU per goroutine by start size (bench/stacks -start)"
set ylabel "CPU µs per goroutine"
set xlabel "GLDEBUG / GODEBUG adaptivestackstart"
set yrange [0:*]
set style data histograms
set style histogram clustered gap 1
set xtics scale 0
# the mode alone under each pair (the CSV says more: "0: every goroutine at 2 KiB")
mode(s) = substr(s, 1, strstrt(s, ":") - 1)
plot csv using 3:xtic(mode(strcol(1))) title "gl" lc rgb glcolor, \
     ''  using 4 title "Go 1.19" lc rgb gocolor
