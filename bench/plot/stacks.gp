# bench/plot/stacks.gp: what growing the stack costs a descent, by depth
# (stacks.csv: depth, gl copies, gl KiB copied, gl µs, Go µs, gl/Go).
set title "Stack growth: a descent on a fresh goroutine minus the same descent warm (bench/stacks)"
set xlabel "recursion depth, frames with a 128-byte array (log scale)"
set ylabel "growth cost, µs per descent (log scale)"
set logscale x 2
set logscale y
set offsets graph 0.04, graph 0.04, 0, 0
plot csv using 1:4:xtic(1) with linespoints lw 2 pt 7 lc rgb glcolor title "gl", \
     ''  using 1:5 with linespoints lw 2 pt 5 lc rgb gocolor title "Go 1.19"
