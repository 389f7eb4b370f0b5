// The sample module of testdata/modules.sh: built and run by glc, and by
// Go 1.19 beside it when Go is installed (the outputs must agree).
module example.com/hello

go 1.19
