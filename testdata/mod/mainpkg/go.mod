// A program with tests: TestMain, an unordered example, a panic and a
// timeout on demand (tests/modules.sh).
module example.com/mainpkg

go 1.19
