module example.com/stdinternal

go 1.19
