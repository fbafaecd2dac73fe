package retrieve

import (
	"testing"

	"github.com/fonte-rag/fonte"
)

// BenchmarkSignPass compares a restricted reader's dense leg with the
// 1-bit pass (the defaults) and without it (the exact int8 scan), on
// denseBenchIndex's 100,000 chunks with half of them hidden, and reports
// each one's recall@10 against the exact top 10.
func BenchmarkSignPass(b *testing.B) {
	reader := fonte.Filter{Restricted: true}
	for _, v := range []struct {
		name  string
		cands int
	}{{"sign", SignCandidates}, {"exact", 0}} {
		b.Run(v.name, func(b *testing.B) {
			defer withSignPass(v.cands, SignMinChunks)()
			ix, queries := denseBenchIndex(b, 500)
			req := Request{Mode: Dense, K: 10, Filter: reader}
			search := func(i int) {
				req.Vector = queries[i%len(queries)].vec
				if _, err := ix.Search(req); err != nil {
					b.Fatal(err)
				}
			}
			search(0) // the classes' copies are made on first use
			i := 0
			for b.Loop() {
				search(i)
				i++
			}
			b.ReportMetric(denseRecall(b, ix, queries[:50], reader), "recall@10")
		})
	}
}
