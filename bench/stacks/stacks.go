// stacks: the Go twin of stacks.gl (bench/stacks/run runs both), line for
// line the same program but for //go:noinline and copyStats: Go's MemStats
// does not count stack copies.  Adapted from the anchor program
// (shared/anchors/go/stacks), which recorded the hardware SP with a line of
// assembly; here, as in gl, the address of the local array is the probe.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"
)

var maxDepth = 4096

// vmKB returns a field of /proc/self/status in KiB (VmRSS, VmSize).
func vmKB(key string) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, key+":") {
			fs := strings.Fields(l[len(key)+1:])
			v, _ := strconv.ParseInt(fs[0], 10, 64)
			return v
		}
	}
	return -1
}

func memStats() runtime.MemStats {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms
}

// copyStats: Go's runtime does not count its stack copies (gl's MemStats
// has StackCopies, StackBytesCopied, StackCopyNs); 0s, reported as "-".
func copyStats() (copies, bytes, ns int64) {
	return 0, 0, 0
}

// park: n goroutines parked on one channel; StackInuse and RSS before and
// after, per goroutine.
func park(n int) {
	runtime.GC()
	ms0, rss0, vsz0 := memStats(), vmKB("VmRSS"), vmKB("VmSize")
	ch := make(chan struct{})
	var started, done sync.WaitGroup
	started.Add(n)
	done.Add(n)
	for i := 0; i < n; i++ {
		go func() {
			started.Done()
			<-ch
			done.Done()
		}()
	}
	started.Wait()
	time.Sleep(300 * time.Millisecond) // every goroutine reaches <-ch and parks
	ms1, rss1, vsz1 := memStats(), vmKB("VmRSS"), vmKB("VmSize")
	fmt.Printf("exp=park n=%d goroutines=%d stackinuse_per_g=%.1f stacksys_per_g=%.1f rss_per_g=%.1f vmsize_per_g=%.1f rss_after_kb=%d\n",
		n, runtime.NumGoroutine(),
		float64(ms1.StackInuse-ms0.StackInuse)/float64(n),
		float64(ms1.StackSys-ms0.StackSys)/float64(n),
		float64(rss1-rss0)*1024/float64(n), float64(vsz1-vsz0)*1024/float64(n), rss1)
	close(ch)
	done.Wait()
}

var addrs []uintptr

// rec records the address of its 128-byte local array at each depth.  The
// array's address is taken only as an integer, so it stays on the stack
// (go build -gcflags=-m).
//
//go:noinline
func rec(d int) int {
	var buf [128]byte
	addrs[d] = uintptr(unsafe.Pointer(&buf))
	buf[d&127] = byte(d)
	if d == maxDepth {
		return int(buf[3])
	}
	r := rec(d + 1)
	return r + int(buf[(r+d)&127]) // buf is live across the call
}

// descend: the same frame, no recording.
//
//go:noinline
func descend(d int) int {
	var buf [128]byte
	lastDepth = d
	buf[d&127] = byte(d)
	if d == 0 {
		return int(buf[3])
	}
	r := descend(d - 1)
	return r + int(buf[(r+d)&127])
}

var sink int
var lastDepth int
var npad int

// pad puts k small frames between the goroutine's entry and rec, moving
// where rec's frames fall relative to each stack size (-exp=growth -pad=k),
// so that across k the deepest frame that fits lands at every distance from
// the end of the stack that the frames' alignment allows.
//
//go:noinline
func pad(k int) int {
	if k == 0 {
		return rec(0)
	}
	return pad(k-1) + 1
}

// growth: the stride between the frames of rec, and every depth where it
// changes: there the frames above were copied to a new stack.  The copies
// are counted by the runtime too (MemStats.StackCopies; 0 where the
// runtime does not count them).
func growth() {
	addrs = make([]uintptr, maxDepth+1)
	done := make(chan int64)
	go func() {
		c0, _, _ := copyStats()
		sink += pad(npad)
		c1, _, _ := copyStats()
		done <- c1 - c0
	}()
	copies := <-done
	cnt := map[int64]int{}
	for d := 1; d <= maxDepth; d++ {
		cnt[int64(addrs[d-1])-int64(addrs[d])]++
	}
	var stride int64
	best := 0
	for s, c := range cnt {
		if c > best || c == best && s < stride {
			best, stride = c, s
		}
	}
	fmt.Printf("exp=stride stride=%d depth=%d events=%d runtime_copies=%d pad=%d compiler=%s\n",
		stride, maxDepth, maxDepth-best, copies, npad, runtime.Compiler)
	k := 0
	for d := 1; d <= maxDepth; d++ {
		s := int64(addrs[d-1]) - int64(addrs[d])
		if s == stride {
			continue
		}
		k++
		fmt.Printf("exp=growth copy=%d depth=%d live=%d jump=%d last=%#x\n", k, d, int64(d)*stride, -s, addrs[d-1])
	}
}

func median(x []int64) int64 {
	y := append([]int64(nil), x...)
	sort.Slice(y, func(i, j int) bool { return y[i] < y[j] })
	return y[len(y)/2]
}

// cost: for each depth, reps fresh goroutines each descend twice: the
// first descent grows the new goroutine's stack (fresh), the second runs
// on the grown one (warm).  Medians in ns.
func cost(reps int, depths []int) {
	res := make(chan [2]int64)
	for _, depth := range depths {
		ms0 := memStats()
		c0, b0, n0 := copyStats()
		fresh := make([]int64, reps)
		warm := make([]int64, reps)
		for r := 0; r < reps; r++ {
			go func() {
				t0 := time.Now()
				a := descend(depth)
				t1 := time.Now()
				b := descend(depth)
				t2 := time.Now()
				sink += a + b
				res <- [2]int64{t1.Sub(t0).Nanoseconds(), t2.Sub(t1).Nanoseconds()}
			}()
			v := <-res
			fresh[r], warm[r] = v[0], v[1]
		}
		ms1 := memStats()
		c1, b1, n1 := copyStats()
		fmt.Printf("exp=cost depth=%d reps=%d fresh_ns=%d warm_ns=%d copies_per_rep=%.2f bytes_per_rep=%.0f copy_ns_per_rep=%.0f gcs=%d\n",
			depth, reps, median(fresh), median(warm),
			float64(c1-c0)/float64(reps), float64(b1-b0)/float64(reps), float64(n1-n0)/float64(reps),
			ms1.NumGC-ms0.NumGC)
	}
}

// ptr: seed 001's rewritten pointer.  p points at a local of this frame;
// before is the same address as an integer.  The descent copies the stack
// under both: the runtime rewrites p, and before is just a number.
//
//go:noinline
func ptr(out chan<- string) {
	anchor := 42
	p := &anchor
	before := uintptr(unsafe.Pointer(p))
	stale := before // a plain integer from here on
	c0, _, _ := copyStats()
	sink += descend(maxDepth)
	c1, _, _ := copyStats()
	copies := c1 - c0
	now := uintptr(unsafe.Pointer(p))
	out <- fmt.Sprintf("exp=ptr copies=%d before=%#x after=%#x moved=%d stale=%#x unchanged=%v value=%d",
		copies, before, now, int64(now)-int64(before), stale, stale == before, *p)
}

// start: n goroutines from one go statement, each recursing to depth (a
// server's goroutine deep in its handler) and waiting there, in rounds of
// 100 alive at once; a collection in every tenth round, with the round
// waiting (what Go's adaptivestackstart=1 learns from).  How the stack a
// goroutine starts with matters: GLDEBUG/GODEBUG=adaptivestackstart.
//go:noinline
func startDeep(n int, wait, woke chan bool) int {
	var pad [100]byte
	pad[n%100] = byte(n)
	if n == 0 {
		woke <- true
		<-wait
		return 0
	}
	return startDeep(n-1, wait, woke) + int(pad[(n*3)%100])
}

func startGo(depth int, wait, woke chan bool) {
	go func() {
		sink += startDeep(depth, wait, woke)
		woke <- true
	}()
}

func start(n, depth int) {
	const round = 100
	wait, woke := make(chan bool), make(chan bool)
	c0, _, _ := copyStats()
	t := time.Now()
	for r := 0; r*round < n; r++ {
		for i := 0; i < round; i++ {
			startGo(depth, wait, woke)
		}
		for i := 0; i < round; i++ {
			<-woke
		}
		if r%10 == 0 {
			runtime.GC()
		}
		for i := 0; i < round; i++ {
			wait <- true
		}
		for i := 0; i < round; i++ {
			<-woke
		}
	}
	el := time.Since(t)
	c1, _, _ := copyStats()
	fmt.Printf("exp=start n=%d depth=%d ns_per_g=%d copies_per_g=%.3f\n", n, depth, el.Nanoseconds()/int64(n), float64(c1-c0)/float64(n))
}

func main() {
	exp := flag.String("exp", "growth", "park|growth|cost|ptr|start")
	n := flag.Int("n", 100000, "goroutines for park")
	reps := flag.Int("reps", 2000, "repetitions for cost")
	depths := flag.String("depths", "1,16,64,256,1024,4096", "depths for cost")
	flag.IntVar(&maxDepth, "depth", 4096, "recursion depth for growth and ptr")
	flag.IntVar(&npad, "pad", 0, "growth: small frames before the recursion")
	flag.Parse()
	switch *exp {
	case "park":
		park(*n)
	case "growth":
		growth()
	case "cost":
		var ds []int
		for _, f := range strings.Split(*depths, ",") {
			d, err := strconv.Atoi(f)
			if err != nil {
				fmt.Fprintln(os.Stderr, "bad -depths:", err)
				os.Exit(2)
			}
			ds = append(ds, d)
		}
		cost(*reps, ds)
	case "start":
		start(*n, maxDepth)
	case "ptr":
		out := make(chan string)
		go ptr(out)
		fmt.Println(<-out)
	default:
		fmt.Fprintln(os.Stderr, "unknown -exp", *exp)
		os.Exit(2)
	}
	sink += lastDepth
	if sink == 123456789 { // keep sink and lastDepth observable
		println("unlikely")
	}
}
