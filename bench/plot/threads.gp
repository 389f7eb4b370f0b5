# bench/plot/threads.gp: the OS threads 200 goroutines cost, by how they
# block (threads.csv: mode, gl before/after/peak, Go before/after/peak).
set title "Threads while 200 goroutines block, GOMAXPROCS=2 (bench/threads)"
set ylabel "OS threads at the peak"
set xlabel "how the goroutines block"
set yrange [0:*]
set style data histograms
set style histogram clustered gap 1
set xtics scale 0
set key top right
plot csv using 4:xtic(1) title "gl" lc rgb glcolor, \
     ''  using 7 title "Go 1.19" lc rgb gocolor, \
     ''  using ($0-1./6):4:4 with labels offset 0,0.6 notitle, \
     ''  using ($0+1./6):7:7 with labels offset 0,0.6 notitle
