package lexical

import (
	"bytes"
	"cmp"
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/fonte-rag/fonte/analysis"
)

// BenchmarkFirstQueryAfterWrite: at 100,000 chunks of cmd/fonte-scale's
// synthetic corpus, the previous model, opened in place, has run common-
// word queries (its block maxima made); a write deletes 0.5% of the
// chunks and adds 1%, merged from it. On the new model, opened afresh
// each iteration, it times the first query of the old model's first
// common-word query: as built (none, the maxima made by the query) or
// after CarryBlockMaxima (carried, whose time is carry-ms, taken before
// the view would be published). first-ms is the query's wall time,
// first-cpu-ms its thread's CPU time; all-terms and all-MiB are what
// every common term's maxima would take, all-ms the time to compute
// them.
//
//	go test -run XXX -bench FirstQueryAfterWrite -benchtime 10x ./lexical/
func BenchmarkFirstQueryAfterWrite(b *testing.B) {
	const n = 100000
	an := analysis.English()
	texts := synthTexts(n + n/100)
	old := synthModel(b, texts[:n], an)
	// Queries of 2 to 6 of the 40 commonest terms, as a user's common
	// words: every list long, block-max's queries.
	ids := make([]int, old.ix.NumTerms())
	for i := range ids {
		ids[i] = i
	}
	slices.SortFunc(ids, func(x, y int) int { return cmp.Compare(old.ix.DocFreq(y), old.ix.DocFreq(x)) })
	var queries [][]string
	for i := range 20 {
		var q []string
		for j := range 2 + i%5 {
			q = append(q, old.ix.Term(ids[(i*7+j*3)%40]))
		}
		queries = append(queries, q)
	}
	for _, q := range queries {
		old.TopKShare(q, 10, nil)
	}
	// The write: every 200th chunk deleted, n/100 new ones at the end.
	bld := NewInPlaceBuilder(InPlaceBuilderOptions{BM25: sciFactParams, Dir: b.TempDir()})
	defer bld.Close()
	if err := bld.Reuse(old); err != nil {
		b.Fatal(err)
	}
	var docs []int
	for d := range n {
		if d%200 != 0 {
			docs = append(docs, d)
		}
	}
	for d := n; d < len(texts); d++ {
		docs = append(docs, -1-d)
	}
	err := bld.AddBatchedReusing(len(docs), 1024, func(i int) int { return max(-1, docs[i]) },
		func(i int) []string { return an.Analyze(texts[-1-docs[i]]) })
	if err != nil {
		b.Fatal(err)
	}
	var form bytes.Buffer
	if _, err := bld.Finish(&form); err != nil {
		b.Fatal(err)
	}
	data := alignedCopy(form.Bytes(), 0)
	q := queries[0]
	for _, carry := range []bool{false, true} {
		name := "none"
		if carry {
			name = "carried"
		}
		b.Run(fmt.Sprintf("chunks=%d/%s", n, name), func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var wall, cpu, carried time.Duration
			terms := 0
			for b.Loop() {
				b.StopTimer()
				m, err := OpenBM25InPlace(data, an)
				if err != nil {
					b.Fatal(err)
				}
				runtime.GC()
				start := time.Now()
				if carry {
					terms = m.CarryBlockMaxima(old)
				}
				carried += time.Since(start)
				b.StartTimer()
				start, cpu0 := time.Now(), threadCPU()
				m.TopKShare(q, 10, nil)
				cpu += threadCPU() - cpu0
				wall += time.Since(start)
			}
			b.ReportMetric(float64(wall.Microseconds())/1e3/float64(b.N), "first-ms")
			b.ReportMetric(float64(cpu.Microseconds())/1e3/float64(b.N), "first-cpu-ms")
			b.ReportMetric(float64(carried.Microseconds())/1e3/float64(b.N), "carry-ms")
			b.ReportMetric(float64(terms), "carried-terms")
		})
	}
	b.Run(fmt.Sprintf("chunks=%d/all", n), func(b *testing.B) {
		var took time.Duration
		terms, bytes := 0, 0
		for b.Loop() {
			m, err := OpenBM25InPlace(data, an)
			if err != nil {
				b.Fatal(err)
			}
			start := time.Now()
			terms, bytes = 0, 0
			for t := range m.ix.NumTerms() {
				if m.keepsBlocks(m.ix.DocFreq(t)) {
					q := m.queryTerm(uint32(t))
					bytes += 4 * len(m.blockMaxima(&q))
					terms++
				}
			}
			took += time.Since(start)
		}
		b.ReportMetric(float64(took.Microseconds())/1e3/float64(b.N), "all-ms")
		b.ReportMetric(float64(terms), "all-terms")
		b.ReportMetric(float64(bytes)/(1<<20), "all-MiB")
	})
}
