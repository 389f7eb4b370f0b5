// A module whose tests fail (testdata/modules.sh: glc test exits 1 and
// prints what go test prints).
module example.com/failing

go 1.19
