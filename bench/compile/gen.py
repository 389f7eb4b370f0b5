#!/usr/bin/env python3
"""Write a gl program of about N lines (default 2000) to stdout: blocks of
ordinary code (structs and methods, interfaces, closures, maps, slices,
switches, loops, strings, defer/recover), each block different in its
constants so that nothing is shared.  It is the input of the compile-speed
benchmark (bench/compile/run): the target is glc + cc on a
2,000-line program in under 3 s."""
import sys

BLOCK = '''
// ---- block {i}
type Shape{i} interface {{
	Area() float64
	Name() string
}}

type Rect{i} struct {{
	w, h  float64
	label string
	tags  []string
}}

func (r *Rect{i}) Area() float64 {{ return r.w * r.h * {k}.0 }}
func (r *Rect{i}) Name() string  {{ return r.label + "-{i}" }}

type Circle{i} struct{{ r float64 }}

func (c Circle{i}) Area() float64 {{ return 3.14159 * c.r * c.r }}
func (c Circle{i}) Name() string  {{ return "circle{i}" }}

func total{i}(shapes []Shape{i}) (sum float64, names string) {{
	for _, s := range shapes {{
		sum += s.Area()
		names += s.Name() + ","
	}}
	return
}}

func histogram{i}(words []string) map[string]int {{
	h := make(map[string]int)
	for _, w := range words {{
		switch {{
		case len(w) > {k}:
			h["long"]++
		case w == "":
			h["empty"]++
		default:
			h[w]++
		}}
	}}
	return h
}}

func safeDiv{i}(a, b int) (q int, err error) {{
	defer func() {{
		if r := recover(); r != nil {{
			err = fmt.Errorf("block {i}: %v", r)
		}}
	}}()
	return a / b, nil
}}

func run{i}() int {{
	shapes := []Shape{i}{{&Rect{i}{{w: {k}, h: 2, label: "r"}}, Circle{i}{{r: 1.5}}}}
	sum, names := total{i}(shapes)
	counter := 0
	inc := func(d int) {{ counter += d * {k} }}
	for j := 0; j < 10; j++ {{
		inc(j)
	}}
	h := histogram{i}(strings.Fields("a bb ccc dddd eeeee a bb {i}"))
	q, err := safeDiv{i}(counter, {k}-{k})
	if err != nil {{
		q = len(err.Error())
	}}
	return int(sum) + len(names) + counter + len(h) + q
}}
'''

n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
blines = BLOCK.count("\n")
nblocks = max(1, (n - 20) // blines)
out = ['package main', '', 'import (', '\t"fmt"', '\t"strings"', ')']
for i in range(nblocks):
    out.append(BLOCK.format(i=i, k=i % 7 + 2))
out.append('func main() {')
out.append('\tt := 0')
for i in range(nblocks):
    out.append('\tt += run%d()' % i)
out.append('\tfmt.Println("total", t)')
out.append('}')
print("\n".join(out))
