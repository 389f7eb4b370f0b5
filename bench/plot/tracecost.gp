# bench/plot/tracecost.gp: what the execution trace costs a goroutine
# hand-off (tracecost.csv: mode, trace off ns, trace on ns, on/off, events
# per hand-off).  gl only: the two bars are gl with the trace off and on.
set title "A goroutine hand-off with GLDEBUG=trace off and on (bench/pingpong/tracecost, 1 P)"
set ylabel "ns per hand-off"
set xlabel "pingpong mode"
set yrange [0:*]
set style data histograms
set style histogram clustered gap 1
set xtics scale 0
plot csv using 2:xtic(1) title "gl, trace off" lc rgb glcolor, \
     ''  using 3 title "gl, trace on" lc rgb "#729fcf"
