package main

// regex-redux from the Benchmarks Game on a 5 MB input: strip the fasta
// headers and newlines (">.*\n|\n"), count nine alternations such as
// agggtaaa|tttaccct with FindAllIndex, then apply five replacements in
// turn.  The input (fasta 500000, the Benchmarks Game's generator) is
// made in memory first, so the time includes making it.

import (
	"fmt"
	"regexp"
)

// The input is made in memory by the fasta program's method (the
// Benchmarks Game's linear congruential generator, IM 139968, IA 3877,
// IC 29573, seed 42): the ALU sequence repeated, then random IUB and
// Homo sapiens sequences, in 60-column lines under > headers.

const (
	im = 139968
	ia = 3877
	ic = 29573
)

var last = 42

func random(max float64) float64 {
	last = (last*ia + ic) % im
	return max * float64(last) / im
}

const alu = "GGCCGGGCGCGGTGGCTCACGCCTGTAATCCCAGCACTTTGG" +
	"GAGGCCGAGGCGGGCGGATCACCTGAGGTCAGGAGTTCGAGA" +
	"CCAGCCTGGCCAACATGGTGAAACCCCGTCTCTACTAAAAAT" +
	"ACAAAAATTAGCCGGGCGTGGTGGCGCGCGCCTGTAATCCCA" +
	"GCTACTCGGGAGGCTGAGGCAGGAGAATCGCTTGAACCCGGG" +
	"AGGCGGAGGTTGCAGTGAGCCGAGATCGCGCCACTGCACTCC" +
	"AGCCTGGGCGACAGAGCGAGACTCCGTCTCAAAAA"

type acid struct {
	c byte
	p float64
}

var iub = []acid{
	{'a', 0.27}, {'c', 0.12}, {'g', 0.12}, {'t', 0.27},
	{'B', 0.02}, {'D', 0.02}, {'H', 0.02}, {'K', 0.02},
	{'M', 0.02}, {'N', 0.02}, {'R', 0.02}, {'S', 0.02},
	{'V', 0.02}, {'W', 0.02}, {'Y', 0.02},
}

var homosapiens = []acid{
	{'a', 0.3029549426680}, {'c', 0.1979883004921},
	{'g', 0.1975473066391}, {'t', 0.3015094502008},
}

const width = 60

func repeatFasta(out []byte, header, s string, n int) []byte {
	out = append(out, header...)
	pos := 0
	for n > 0 {
		line := width
		if n < line {
			line = n
		}
		for i := 0; i < line; i++ {
			out = append(out, s[pos])
			pos++
			if pos == len(s) {
				pos = 0
			}
		}
		out = append(out, '\n')
		n -= line
	}
	return out
}

func randomFasta(out []byte, header string, acids []acid, n int) []byte {
	out = append(out, header...)
	cum := make([]acid, len(acids))
	sum := 0.0
	for i, a := range acids {
		sum += a.p
		cum[i] = acid{a.c, sum}
	}
	for n > 0 {
		line := width
		if n < line {
			line = n
		}
		for i := 0; i < line; i++ {
			r := random(1.0)
			k := 0
			for k < len(cum)-1 && r >= cum[k].p {
				k++
			}
			out = append(out, cum[k].c)
		}
		out = append(out, '\n')
		n -= line
	}
	return out
}

func fasta(n int) []byte {
	var out []byte
	out = repeatFasta(out, ">ONE Homo sapiens alu\n", alu, 2*n)
	out = randomFasta(out, ">TWO IUB ambiguity codes\n", iub, 3*n)
	out = randomFasta(out, ">THREE Homo sapiens frequency\n", homosapiens, 5*n)
	return out
}

var variants = []string{
	"agggtaaa|tttaccct",
	"[cgt]gggtaaa|tttaccc[acg]",
	"a[act]ggtaaa|tttacc[agt]t",
	"ag[act]gtaaa|tttac[agt]ct",
	"agg[act]taaa|ttta[agt]cct",
	"aggg[acg]aaa|ttt[cgt]ccct",
	"agggt[cgt]aa|tt[acg]accct",
	"agggta[cgt]a|t[acg]taccct",
	"agggtaa[cgt]|[acg]ttaccct",
}

var substs = []struct{ pat, repl string }{
	{"tHa[Nt]", "<4>"},
	{"aND|caN|Ha[DS]|WaS", "<3>"},
	{"a[NSt]|BY", "<2>"},
	{"<[^>]*>", "|"},
	{"\\|[^|][^|]*\\|", "-"},
}

// redux runs the benchmark's steps: strip headers and newlines, count
// each variant, apply the substitutions in turn.
func redux(in []byte) {
	ilen := len(in)
	seq := regexp.MustCompile(">.*\n|\n").ReplaceAll(in, nil)
	clen := len(seq)
	for _, v := range variants {
		fmt.Printf("%s %d\n", v, len(regexp.MustCompile(v).FindAllIndex(seq, -1)))
	}
	for _, s := range substs {
		seq = regexp.MustCompile(s.pat).ReplaceAll(seq, []byte(s.repl))
	}
	fmt.Printf("\n%d\n%d\n%d\n", ilen, clen, len(seq))
}

func main() {
	redux(fasta(500000))
}
