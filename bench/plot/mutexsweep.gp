# bench/plot/mutexsweep.gp: gl's adaptive sync.Mutex against Go 1.19's
# default in seed 002's shapes (mutexsweep.csv: Ps, goroutines, then one
# column of adaptive/Go ratios per hold time and work outside the lock, in
# bench/mutex/sweep's order: holds 0.1, 1, 10 µs, each with 0, 1 and 10
# times the hold outside).  A cell per shape, coloured by the ratio: blue
# where gl is faster, red where Go is, white at 1.
set title "gl's adaptive mutex / Go's default, locks per second (bench/mutex/sweep)"
set xlabel "hold time, and work outside the lock as a multiple of it" offset 0,-0.8
set bmargin 5
set ylabel "Ps and goroutines"
set key off
set grid noytics
unset grid
set border 0
set tics scale 0
set xrange [-0.5:8.5]
set yrange [11.5:-0.5]
set cbrange [0.5:1.5]
set cblabel "gl / Go"
set palette defined (0.5 "#cc3311", 1.0 "white", 1.5 "#3465a4")
set xtics ("0.1 µs\n0×" 0, "0.1 µs\n1×" 1, "0.1 µs\n10×" 2, "1 µs\n0×" 3, "1 µs\n1×" 4, "1 µs\n10×" 5, \
           "10 µs\n0×" 6, "10 µs\n1×" 7, "10 µs\n10×" 8)
set style fill solid 1.0 border lc "white"
plot for [i=3:11] csv using (i-3):0:(0.5):(0.5):(column(i)):ytic(sprintf("%d P, %d", $1, $2)) \
         with boxxyerror fc palette, \
     for [i=3:11] csv using (i-3):0:(sprintf("%.2f", column(i))) with labels font "sans,9"
