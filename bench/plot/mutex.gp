# bench/plot/mutex.gp: sync.Mutex as the hold time grows, each of gl's
# modes (default: gl's adaptive policy; go: Go's algorithm in gl) and Go's (mutex.csv: hold µs, mode, gl locks/s, Go locks/s, ...;
# a row per hold time and mode, Go's cell empty for the modes only gl
# has).  Locks per second fall as 1/hold time, so the plot shows instead
# locks/s x hold time: the share of the time the lock is held, 100% when
# no time is lost between one holder and the next.  NaN is missing, so
# each mode's line joins its own rows across the others'.
set title "Four goroutines sharing a sync.Mutex, GOMAXPROCS=2 (bench/mutex)"
set xlabel "time the lock is held each time, µs (log scale)"
set ylabel "lock held, % of the time (locks/s × hold time)"
set logscale x
set yrange [0:105]
set datafile missing NaN
set key bottom right
glmodes = "default go handoff never gosched"
gomodes = "default gosched"
held(locks, us) = locks * us / 1e4
plot for [i=1:words(glmodes)] csv using 1:(strcol(2) eq word(glmodes, i) ? held($3, $1) : NaN) \
         with linespoints lw 2 pt 6+i lc rgb glcolor dt i title "gl ".word(glmodes, i), \
     for [i=1:words(gomodes)] csv using 1:(strcol(2) eq word(gomodes, i) ? held($4, $1) : NaN) \
         with linespoints lw 2 pt 6+3*i lc rgb gocolor dt 3*i-2 title "Go 1.19 ".word(gomodes, i)
