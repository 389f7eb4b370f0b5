package main

// time layouts: 1M times (random instants over 1900-2100, random
// nanoseconds) formatted with five layouts (RFC3339Nano, RFC1123Z, ANSIC,
// Kitchen-like with a 12-hour clock, a custom one with every numeric
// element) in UTC and a fixed zone, and parsed back.  Prints the total
// length of the strings and the count of failed round trips (0).

import "time"

var seed uint64 = 0x9E3779B97F4A7C15

func next() uint64 {
	seed ^= seed << 13
	seed ^= seed >> 7
	seed ^= seed << 17
	return seed
}

func main() {
	const n = 1000000
	layouts := []string{time.RFC3339Nano, time.RFC1123Z, time.ANSIC, "Jan _2 2006 3:04:05.000 PM -07:00", "2006-002 15h04m05,999999 Z0700"}
	zones := []*time.Location{time.UTC, time.FixedZone("X", -(7*3600 + 30*60))}
	total, bad := 0, 0
	for i := 0; i < n; i++ {
		x := next()
		sec := int64(x%(200*365*86400)) - 70*365*86400
		t := time.Unix(sec, int64(x>>40)%1e9).In(zones[i%2])
		l := layouts[i%len(layouts)]
		s := t.Format(l)
		total += len(s)
		p, err := time.Parse(l, s)
		if err != nil || p.Format(l) != s {
			bad++
		}
	}
	println(total, bad)
}
