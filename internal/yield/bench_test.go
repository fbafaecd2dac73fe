package yield

import (
	"math"
	"runtime"
	"runtime/metrics"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fonte-rag/fonte/internal/cores"
)

// spin burns about d of CPU in small calls (preemptible, as real work
// is) and returns a value the compiler cannot drop.
func spin(d time.Duration) uint64 {
	var x uint64
	for end := time.Now().Add(d); time.Now().Before(end); {
		for i := range 1000 {
			x = x*6364136223846793005 + uint64(i)
		}
	}
	return x
}

// BenchmarkReadersBesideWriter: on two processors, two closed-loop
// readers of 1 ms queries beside a writer working in steps of 200 µs,
// the writer offering to yield after each step (ToSearches, or the
// Gosched of session 32) or not. In
// the "split" readers, as in a hybrid search, half of each query runs in
// a helper goroutine the query waits for: a query then wakes up (the
// helper, then the query's own goroutine) and waits for a processor
// twice a query, on whichever processor woke it. It reports the readers'
// p50, p99 and max latency and the writer's steps per second: the
// mechanism of the p99 during a write, without the index. Run:
// go test -run XXX -bench ReadersBesideWriter -benchtime 2000x ./internal/yield/
func BenchmarkReadersBesideWriter(b *testing.B) {
	writers := []struct {
		name string
		step func()
	}{
		{"plain", func() {}},
		{"gosched", goschedToSearches},
		{"yield", func() { ToSearches() }},
	}
	for _, split := range []bool{false, true} {
		for _, w := range writers {
			name := w.name
			if split {
				name = "split-" + name
			}
			b.Run(name, func(b *testing.B) { readersBesideWriter(b, split, w.step) })
		}
	}
}

// goschedToSearches is ToSearches as session 32 wrote it, for the
// benchmark to set beside it: runtime.Gosched while a search is in
// flight or every core is counted busy.
func goschedToSearches() {
	if searching.Load() == 0 && !cores.Saturated() {
		return
	}
	runtime.Gosched()
}

// query is one reader's query of about 1 ms: all in the calling goroutine,
// or (split) half of it in a helper goroutine run beside it.
func query(split bool, sink *atomic.Uint64) {
	if !split {
		sink.Add(spin(time.Millisecond))
		return
	}
	done := make(chan struct{})
	go func() {
		sink.Add(spin(500 * time.Microsecond))
		close(done)
	}()
	sink.Add(spin(500 * time.Microsecond))
	<-done
}

func readersBesideWriter(b *testing.B, split bool, step func()) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	var stop atomic.Bool
	var steps atomic.Int64
	var sink atomic.Uint64
	var wg sync.WaitGroup
	wg.Go(func() {
		for !stop.Load() {
			sink.Add(spin(200 * time.Microsecond))
			steps.Add(1)
			step()
		}
	})
	before := schedLatencies()
	lats := make([][]time.Duration, 2)
	per := b.N / 2
	start := time.Now()
	b.ResetTimer()
	var readers sync.WaitGroup
	for r := range 2 {
		readers.Go(func() {
			for range per {
				t := time.Now()
				done := Searching()
				query(split, &sink)
				done()
				lats[r] = append(lats[r], time.Since(t))
			}
		})
	}
	readers.Wait()
	b.StopTimer()
	elapsed := time.Since(start)
	waits := schedLatencies()
	stop.Store(true)
	wg.Wait()
	all := slices.Concat(lats...)
	slices.Sort(all)
	if len(all) == 0 {
		return
	}
	ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
	b.ReportMetric(ms(all[len(all)/2]), "p50-ms")
	b.ReportMetric(ms(all[len(all)*99/100]), "p99-ms")
	b.ReportMetric(ms(all[len(all)-1]), "max-ms")
	b.ReportMetric(float64(steps.Load())/elapsed.Seconds(), "writer-steps/s")
	// The scheduler's own count of the time goroutines waited to run:
	// what a yield changes, and unlike the latencies above not what
	// other processes on a loaded machine add.
	b.ReportMetric(1e3*waitPercentile(before, waits, 0.99), "sched-p99-ms")
	b.ReportMetric(1e3*waitPercentile(before, waits, 0.999), "sched-p999-ms")
}

// schedLatencies reads the runtime's histogram of the time goroutines
// waited runnable before they ran.
func schedLatencies() *metrics.Float64Histogram {
	s := []metrics.Sample{{Name: "/sched/latencies:seconds"}}
	metrics.Read(s)
	return s[0].Value.Float64Histogram()
}

// waitPercentile is the p-th quantile (seconds, the upper edge of its
// bucket) of the waits counted between two readings of schedLatencies.
func waitPercentile(before, after *metrics.Float64Histogram, p float64) float64 {
	var total uint64
	for i := range after.Counts {
		total += after.Counts[i] - before.Counts[i]
	}
	want := uint64(math.Ceil(p * float64(total)))
	var seen uint64
	for i := range after.Counts {
		if seen += after.Counts[i] - before.Counts[i]; seen >= want && want > 0 {
			return min(after.Buckets[i+1], 10) // the last bucket is open
		}
	}
	return 0
}
