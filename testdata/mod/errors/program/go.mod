module example.com/program

go 1.19
