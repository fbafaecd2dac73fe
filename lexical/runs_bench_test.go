package lexical

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/fonte-rag/fonte/analysis"
	"github.com/fonte-rag/fonte/synth"
)

// BenchmarkInPlaceBuilder compares two ways of writing the in-place form
// of synth's chunks (the corpus of the in-place benchmarks; fonte's
// English analysis, retrieve's parameters) to a file: the index in memory
// (NewIndexParallel, NewBM25Index, AppendInPlace) and InPlaceBuilder with
// a few budgets, its documents analysed in parallel batches as a store
// would. Each reports the peak heap in use above the heap before it
// started (runtime.MemStats.HeapInuse sampled every 5 ms, the texts
// excluded: garbage included, so it depends on GOGC and on the texts'
// size, which sets the collector's target), the peak live heap above the
// live heap before (runtime/metrics /gc/heap/live:bytes, as the last
// collection marked it, sampled likewise: the measure of what the build
// keeps), the bytes allocated (TotalAlloc), the process's CPU time (user
// and system: less sensitive than ns/op to other work on the machine),
// the time Finish took (the merge and the write), the form's size and the
// runs spilled. One iteration takes a while:
//
//	go test -run XXX -bench InPlaceBuilder -benchtime 1x ./lexical/
func BenchmarkInPlaceBuilder(b *testing.B) {
	an := analysis.English()
	for _, n := range []int{100000, inplaceBenchDocs} {
		texts := synthTexts(n)
		tokensOf := func(d int) []string { return an.Analyze(texts[d]) }
		b.Run(fmt.Sprintf("chunks=%d/index", n), func(b *testing.B) {
			measureBuild(b, func(f *os.File) (int, error) {
				ix := NewIndexParallel(n, tokensOf, an, runtime.GOMAXPROCS(0))
				_, err := f.Write(NewBM25Index(ix, sciFactParams).AppendInPlace(nil))
				return 0, err
			})
		})
		for _, budget := range []int64{4 << 20, 16 << 20, DefaultInPlaceBudget} {
			b.Run(fmt.Sprintf("chunks=%d/builder-%dMiB", n, budget>>20), func(b *testing.B) {
				measureBuild(b, func(f *os.File) (int, error) {
					return buildBatched(n, tokensOf, f, InPlaceBuilderOptions{BM25: sciFactParams, Budget: budget, Dir: b.TempDir()})
				})
			})
		}
	}
}

// synthTexts is the first n chunks of the in-place benchmarks' corpus.
func synthTexts(n int) []string {
	c := synth.NewCorpus(rand.New(rand.NewPCG(1, 1)), synth.CorpusOptions{})
	texts := make([]string, n)
	for i := range texts {
		_, texts[i], _ = c.Chunk()
	}
	return texts
}

// buildBatched analyses the documents in batches, each spread over the
// processors, and adds them to a builder in order; it returns the runs
// spilled.
func buildBatched(n int, tokensOf func(int) []string, f *os.File, o InPlaceBuilderOptions) (int, error) {
	bld := NewInPlaceBuilder(o)
	defer bld.Close()
	if err := bld.AddBatched(n, 1024, tokensOf); err != nil {
		return 0, err
	}
	runs := bld.Runs()
	start := time.Now()
	_, err := bld.Finish(f)
	finishTime.Store(int64(time.Since(start)))
	return runs, err
}

// finishTime is how long the last Finish of buildBatched took.
var finishTime atomic.Int64

// measureBuild runs build once per iteration into a fresh file and
// reports its peak heap, allocations, runs and the file's size.
func measureBuild(b *testing.B, build func(*os.File) (int, error)) {
	var peak, live, alloc, size uint64
	var cpu time.Duration
	runs := 0
	finishTime.Store(0)
	for b.Loop() {
		b.StopTimer()
		path := filepath.Join(b.TempDir(), "bm25.form")
		f, err := os.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		live0 := liveHeap()
		stop, top := sampleHeap()
		cpu0 := cpuTime()
		b.StartTimer()
		runs, err = build(f)
		b.StopTimer()
		cpu += cpuTime() - cpu0
		close(stop)
		if err != nil {
			b.Fatal(err)
		}
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		if err := f.Close(); err != nil {
			b.Fatal(err)
		}
		st, err := os.Stat(path)
		if err != nil {
			b.Fatal(err)
		}
		p := <-top
		peak, live = max(peak, p.inuse-before.HeapInuse), max(live, p.live-live0)
		alloc, size = after.TotalAlloc-before.TotalAlloc, uint64(st.Size())
		os.Remove(path)
		b.StartTimer()
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(live)/(1<<20), "peak-live-MiB")
	b.ReportMetric(float64(alloc)/(1<<20), "alloc-MiB")
	b.ReportMetric(time.Duration(finishTime.Load()).Seconds(), "finish-s")
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(size), "form-bytes")
	b.ReportMetric(float64(runs), "runs")
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		panic(err)
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// heapPeak is the largest heap sampleHeap saw: in use, and live.
type heapPeak struct{ inuse, live uint64 }

// liveHeap is the heap the last collection found live.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// sampleHeap samples HeapInuse and the live heap every 5 ms until stop is
// closed, then sends the largest of each on the returned channel.
func sampleHeap() (stop chan struct{}, peak chan heapPeak) {
	stop, peak = make(chan struct{}), make(chan heapPeak, 1)
	go func() {
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		var m runtime.MemStats
		var top heapPeak
		for {
			runtime.ReadMemStats(&m)
			top.inuse, top.live = max(top.inuse, m.HeapInuse), max(top.live, liveHeap())
			select {
			case <-stop:
				peak <- top
				return
			case <-tick.C:
			}
		}
	}()
	return stop, peak
}
