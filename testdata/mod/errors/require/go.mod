module example.com/require

go 1.19
require golang.org/x/text v0.3.0
