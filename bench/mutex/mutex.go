// The Go twin of mutex.gl: G goroutines each loop { Lock; spin h; Unlock;
// [Gosched]; spin h }; lock acquisitions per second, optionally the max
// single Lock wait.  Go's starvation threshold is a constant, so only the
// default and gosched modes run here (the -modes flag is accepted and its
// other modes skipped, so bench/mutex/run can pass the same flags).
// From /work/shared/anchors/go/mutex (the anchors' program).
package main

import (
	"flag"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

var sinkv uint64

// spinN burns CPU for n dependent LCG steps (no calls, no memory traffic).
//
//go:noinline
func spinN(n int) uint64 {
	x := uint64(n) | 1
	for i := 0; i < n; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}

// calibrate returns LCG steps per microsecond (best of several trials).
func calibrate() float64 {
	best := 0.0
	const n = 20000000
	for i := 0; i < 7; i++ {
		t0 := time.Now()
		sinkv += spinN(n)
		r := float64(n) / (float64(time.Since(t0).Nanoseconds()) / 1000)
		if r > best {
			best = r
		}
	}
	return best
}

type result struct {
	locks    int64
	elapsed  time.Duration
	maxWait  time.Duration
	meanWait time.Duration
}

func run(g int, steps, outside int, gosched, measureWait bool, dur time.Duration) result {
	var mu sync.Mutex
	var stop int32
	var total int64
	var wg sync.WaitGroup
	var wmu sync.Mutex
	var maxW, sumW time.Duration
	var nW int64
	start := make(chan struct{})
	for i := 0; i < g; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			var c int64
			var s uint64
			var mw, sw time.Duration
			for atomic.LoadInt32(&stop) == 0 {
				if measureWait {
					t := time.Now()
					mu.Lock()
					w := time.Since(t)
					sw += w
					if w > mw {
						mw = w
					}
				} else {
					mu.Lock()
				}
				s += spinN(steps)
				mu.Unlock()
				if gosched {
					runtime.Gosched()
				}
				if outside > 0 {
					s += spinN(outside)
				}
				c++
			}
			atomic.AddInt64(&total, c)
			atomic.AddUint64(&sinkv, s)
			wmu.Lock()
			if mw > maxW {
				maxW = mw
			}
			sumW += sw
			nW += c
			wmu.Unlock()
		}()
	}
	time.Sleep(20 * time.Millisecond)
	t0 := time.Now()
	close(start)
	time.Sleep(dur)
	atomic.StoreInt32(&stop, 1)
	wg.Wait()
	el := time.Since(t0)
	r := result{locks: total, elapsed: el, maxWait: maxW}
	if nW > 0 {
		r.meanWait = sumW / time.Duration(nW)
	}
	return r
}

func main() {
	hs := flag.String("h", "0.1,1,10,100", "hold times in microseconds")
	outs := flag.String("outside", "1", "work outside the lock, as multiples of the hold time")
	g := flag.Int("g", 4, "goroutines")
	runs := flag.Int("runs", 5, "interleaved runs")
	dur := flag.Duration("dur", time.Second, "duration per configuration")
	wait := flag.Bool("wait", false, "measure Lock wait times")
	modes := flag.String("modes", "default,gosched", "mutex modes to run (default, gosched)")
	flag.Parse()
	perUs := calibrate()
	fmt.Printf("exp=mutex_calib compiler=%s steps_per_us=%.1f gomaxprocs=%d\n", runtime.Compiler, perUs, runtime.GOMAXPROCS(0))
	hv, ov := floats(*hs), floats(*outs)
	for r := 0; r < *runs; r++ {
		for _, h := range hv {
			for _, o := range ov {
				for _, mode := range strings.Split(*modes, ",") {
					if mode == "default" || mode == "gosched" {
						measure(r, *g, h, o, mode, perUs, *wait, *dur)
					}
				}
			}
		}
	}
}

// measure runs one configuration and prints its line: h µs held, o×h
// outside, in the given mode of sync.Mutex.
func measure(r, g int, h, o float64, mode string, perUs float64, wait bool, dur time.Duration) {
	steps := int(h*perUs + 0.5)
	res := run(g, steps, int(o*h*perUs+0.5), mode == "gosched", wait, dur)
	fmt.Printf("exp=mutex compiler=%s run=%d g=%d h_us=%g out_x=%g mode=%s locks_per_s=%.0f max_wait_us=%.1f mean_wait_us=%.2f wait_measured=%v\n",
		runtime.Compiler, r, g, h, o, mode, float64(res.locks)/res.elapsed.Seconds(),
		float64(res.maxWait.Nanoseconds())/1000, float64(res.meanWait.Nanoseconds())/1000, wait)
}

// floats parses a comma-separated list of numbers.
func floats(list string) []float64 {
	var v []float64
	for _, f := range strings.Split(list, ",") {
		x, _ := strconv.ParseFloat(f, 64)
		v = append(v, x)
	}
	return v
}
