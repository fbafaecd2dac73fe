package yield

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
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
// the writer offering to yield (ToSearches) after each step or not. In
// the "split" readers, as in a hybrid search, half of each query runs in
// a helper goroutine the query waits for: a query then wakes up (the
// helper, then the query's own goroutine) and waits for a processor
// twice a query, on whichever processor woke it. It reports the readers'
// p50, p99 and max latency and the writer's steps per second: the
// mechanism of the p99 during a write, without the index. Run:
// go test -run XXX -bench ReadersBesideWriter -benchtime 2000x ./internal/yield/
func BenchmarkReadersBesideWriter(b *testing.B) {
	for _, split := range []bool{false, true} {
		for _, yielding := range []bool{false, true} {
			name := "plain"
			if yielding {
				name = "yield"
			}
			if split {
				name = "split-" + name
			}
			b.Run(name, func(b *testing.B) { readersBesideWriter(b, split, yielding) })
		}
	}
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

func readersBesideWriter(b *testing.B, split, yielding bool) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	var stop atomic.Bool
	var steps atomic.Int64
	var sink atomic.Uint64
	var wg sync.WaitGroup
	wg.Go(func() {
		for !stop.Load() {
			sink.Add(spin(200 * time.Microsecond))
			steps.Add(1)
			if yielding {
				ToSearches()
			}
		}
	})
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
}
