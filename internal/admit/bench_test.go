package admit

import (
	"context"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// work does a fixed amount of processor work, about 4 ms on this
// machine's cores when it has one to itself (a query's: more when the
// processor is shared), and returns a value the compiler cannot drop.
func work() uint64 {
	var x uint64
	for i := range 5_000_000 {
		x = x*6364136223846793005 + uint64(i)
	}
	return x
}

// BenchmarkFourReaders: four closed-loop readers of queries of a fixed work (about 4 ms) on two
// processors, the queries sharing the processors as Go's scheduler
// slices them ("shared") or taking turns at a gate of two slots
// ("turns"). It reports the queries' p50, p99 and max latency: the
// mechanism of the 4-goroutine tail, without the index. Run:
// go test -run XXX -bench FourReaders -benchtime 400x ./internal/admit/
func BenchmarkFourReaders(b *testing.B) {
	for _, turns := range []bool{false, true} {
		name := "shared"
		if turns {
			name = "turns"
		}
		b.Run(name, func(b *testing.B) { fourReaders(b, turns) })
	}
}

func fourReaders(b *testing.B, turns bool) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	g := New(2)
	var sink atomic.Uint64
	lats := make([][]time.Duration, 4)
	b.ResetTimer()
	var wg sync.WaitGroup
	for r := range 4 {
		wg.Go(func() {
			for range max(b.N/4, 1) {
				t := time.Now()
				if turns {
					if err := g.Enter(context.Background()); err != nil {
						b.Error(err)
						return
					}
				}
				sink.Add(work())
				if turns {
					g.Leave()
				}
				lats[r] = append(lats[r], time.Since(t))
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	all := slices.Concat(lats...)
	slices.Sort(all)
	ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
	b.ReportMetric(ms(all[len(all)/2]), "p50-ms")
	b.ReportMetric(ms(all[len(all)*99/100]), "p99-ms")
	b.ReportMetric(ms(all[len(all)-1]), "max-ms")
}
