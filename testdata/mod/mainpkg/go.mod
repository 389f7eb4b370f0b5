// A program with tests: TestMain, an unordered example, a panic and a
// timeout on demand (testdata/modules.sh).
module example.com/mainpkg

go 1.19
