// pause: what the collector's pauses cost a program that keeps a live set
// and makes garbage at a steady rate.  A table of 32 MiB of small records
// stays live; two churners make linked 32-byte garbage at 128 MiB/s each
// and now and then store a fresh record into the table (work for the write
// barrier); a third goroutine wakes every millisecond and records how late
// each tick came.  At the end: the longest stop-the-world pause the
// runtime reports (MemStats.PauseNs), the worst and 99th-percentile tick
// gap, the heap's size, how many cycles ran.
package main

import (
	"flag"
	"fmt"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

type record struct {
	link *record
	a, b uint64
}

type junk struct {
	link *junk
	ref  *record
	n, m uint64
}

var table []*record
var quit int32

// churn makes bytesPerSec of garbage until quit, a megabyte at a time,
// sleeping when it runs ahead; the bytes it made go to *total.
func churn(id uint64, bytesPerSec float64, total *int64, wg *sync.WaitGroup) {
	defer wg.Done()
	const chunk = 1 << 20
	x := id*2654435761 + 1
	start := time.Now()
	var made int64
	var hold *junk
	for atomic.LoadInt32(&quit) == 0 {
		var list *junk
		for i := 0; i < chunk/32; i++ {
			list = &junk{link: list, n: uint64(i)}
			if i%256 == 0 {
				x ^= x << 13
				x ^= x >> 7
				x ^= x << 17
				k := int(x % uint64(len(table)))
				table[k] = &record{a: x}
				list.ref = table[k]
			}
		}
		hold = list // the chunk before becomes garbage
		made += chunk
		due := time.Duration(float64(made) / bytesPerSec * float64(time.Second))
		if wait := due - time.Since(start); wait > 0 {
			time.Sleep(wait)
		}
	}
	_ = hold
	atomic.AddInt64(total, made)
}

// tick records the gap between consecutive 1 ms ticks until quit.
func tick(gaps *[]time.Duration, done chan<- bool) {
	t := time.NewTicker(time.Millisecond)
	prev := time.Now()
	for atomic.LoadInt32(&quit) == 0 {
		<-t.C
		now := time.Now()
		*gaps = append(*gaps, now.Sub(prev))
		prev = now
	}
	t.Stop()
	done <- true
}

func main() {
	secs := flag.Float64("secs", 5, "seconds to run")
	rate := flag.Float64("rate", 256, "garbage MiB/s, both churners together")
	liveMiB := flag.Int("live", 32, "MiB kept live")
	flag.Parse()

	table = make([]*record, (*liveMiB<<20)/32)
	var last *record
	for i := range table {
		last = &record{link: last, a: uint64(i)}
		table[i] = last
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)

	var gaps []time.Duration
	tickDone := make(chan bool)
	go tick(&gaps, tickDone)
	var wg sync.WaitGroup
	var total int64
	start := time.Now()
	for id := uint64(1); id <= 2; id++ {
		wg.Add(1)
		go churn(id, *rate*(1<<20)/2, &total, &wg)
	}
	time.Sleep(time.Duration(*secs * float64(time.Second)))
	atomic.StoreInt32(&quit, 1)
	wg.Wait()
	<-tickDone
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)

	cycles := int(after.NumGC - before.NumGC)
	var maxPause uint64
	for i := 0; i < cycles && i < 256; i++ {
		if p := after.PauseNs[(int(after.NumGC)+255-i)%256]; p > maxPause {
			maxPause = p
		}
	}
	sort.Slice(gaps, func(i, j int) bool { return gaps[i] < gaps[j] })
	ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
	fmt.Printf("cycles=%d max_pause_ms=%.3f pause_total_ms=%.1f tick_max_ms=%.2f tick_p99_ms=%.2f heap_sys_mib=%.0f garbage_mib_s=%.0f\n",
		cycles, float64(maxPause)/1e6, float64(after.PauseTotalNs-before.PauseTotalNs)/1e6,
		ms(gaps[len(gaps)-1]), ms(gaps[len(gaps)*99/100]), float64(after.HeapSys)/(1<<20),
		float64(total)/(1<<20)/elapsed.Seconds())
}
