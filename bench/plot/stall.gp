# bench/plot/stall.gp: seed 004's stall (stall.csv: impl, arm, runs,
# stalled, gap median ms, gap max ms, ...; a row per implementation and
# arm).  The longest gap of the pinned loop in each arm, log scale: the
# loop is stalled when a suspension keeps it from running for hundreds of
# milliseconds, as a tracer's slow signal return makes Go's do.
set title "Seed 004: the pinned loop's longest gap under a slow signal return (bench/stall)"
set ylabel "longest gap, ms (log scale)"
set logscale y
set yrange [1:*]
set style data boxes
set boxwidth 0.7
set xtics rotate by -30 left scale 0 font "sans,10"
set key off
set bmargin 9
set rmargin 16
rgb(impl) = impl eq "go" ? 0x00add8 : 0x3465a4
plot csv using 0:6:(rgb(strcol(1))):xtic(strcol(1).": ".strcol(2)) lc rgb variable, \
     ''  using 0:6:(sprintf("%.0f", column(6))) with labels offset 0,0.7 font "sans,9"
