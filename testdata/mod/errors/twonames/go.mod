module example.com/twonames

go 1.19
