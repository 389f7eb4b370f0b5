module example.com/missing

go 1.19
