# bench/plot/gc.gp: the collector's longest pause and the peak RSS of each
# program, on each side (gc.csv: program, measure, then a column per side:
# gl stop-the-world, gl concurrent, gl on Boehm, Go; a row per program and
# measure).  Two panels; each takes its measure's rows into a datablock
# first (as strings, so that an empty cell stays one), and plots that as
# bars.
set multiplot layout 1, 2 title "The collector on three programs, GOMAXPROCS=2 (bench/gc)"
set style data histograms
set style histogram clustered gap 1
set xtics scale 0
set key at screen 0.5, screen 0.02 center bottom horizontal maxrows 1 samplen 2
set bmargin 5
set table $pause separator comma
plot csv using (strcol(1)):(strcol(3)):(strcol(4)):(strcol(5)):(strcol(6)) with table if (strcol(2) eq "longest pause ms")
set table $rss separator comma
plot csv using (strcol(1)):(strcol(3)):(strcol(4)):(strcol(5)):(strcol(6)) with table if (strcol(2) eq "peak RSS MiB")
unset table
set datafile nocolumnheaders
sides(d) = sprintf("plot %s using 2:xtic(1) title 'gl stop-the-world' lc rgb '#204a87', '' using 3 title 'gl concurrent' lc rgb glcolor, '' using 4 title 'gl on Boehm' lc rgb '#729fcf', '' using 5 title 'Go 1.19' lc rgb gocolor", d)
set title "longest stop-the-world pause"
set ylabel "ms (log scale)"
set logscale y
eval sides("$pause")
set title "peak RSS"
set ylabel "MiB"
unset logscale y
set yrange [0:*]
unset key
eval sides("$rss")
unset multiplot
