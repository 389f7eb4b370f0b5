# bench/plot/ffi.gp: what a call into C costs, gl through glc's call stubs
# and through libffi beside Go through cgo (ffi.csv: C function, gl ns/call,
# gl via libffi ns/call, Go ns/call, gl/Go).
set title "A call into C (bench/ffi): gl via its stubs and via libffi, Go via cgo"
set ylabel "ns per call"
set xlabel "C function called"
set yrange [0:*]
set style data histograms
set style histogram clustered gap 1
set xtics scale 0
plot csv using 2:xtic(1) title "gl" lc rgb glcolor, \
     ''  using 3 title "gl, through libffi" lc rgb "#729fcf", \
     ''  using 4 title "Go 1.19" lc rgb gocolor
