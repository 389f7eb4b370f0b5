# bench/plot/preempt.gp: how long main's 10 ms sleep took while another
# goroutine spins without calls (preempt.csv: one row per kind of sleep,
# gl's median, min and max, then Go's).  A point is the median, its bar
# runs from the shortest sleep to the longest.
set title "main's 10 ms sleep beside a goroutine spinning, GOMAXPROCS=1 (bench/preempt)"
set ylabel "time the sleep took, ms"
set xrange [-0.5:2.5]
set yrange [0:*]
set xtics scale 0
set key top center horizontal maxrows 1 samplen 2
set offsets 0, 0, graph 0.2, 0
plot csv using ($0-0.1):2:3:4:xtic(1) with yerrorbars lw 2 pt 7 ps 1.2 lc rgb glcolor title "gl: median, min to max", \
     ''  using ($0+0.1):5:6:7 with yerrorbars lw 2 pt 5 ps 1.2 lc rgb gocolor title "Go 1.19", \
     10 with lines dt 2 lc "grey50" title "the 10 ms asked for"
