# bench/plot/common.gp: what every plot shares.  bench/run-all runs it
# before each NAME.gp, with csv (NAME.csv's path) and svg (the picture's)
# set: gnuplot -e "csv='...'; svg='...'" common.gp NAME.gp.  The CSVs'
# shape is bench/benchcsv.py's: a header row, then one row per measured
# configuration, gl's and Go's values side by side.
set terminal svg size 760,440 dynamic font "sans,12" background "white"
set output svg
set encoding utf8
set datafile separator comma
set datafile columnheaders
set key top left opaque
set grid ytics lc "grey85"
set border 3
set tics nomirror
set style fill solid 0.85 border -1
# the two sides' colours, the same in every plot
glcolor = "#3465a4"
gocolor = "#00add8"
