package lexical

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/fonte-rag/fonte/analysis"
)

// commonQuery draws 2 to 6 tokens of the corpus's 40 commonest words,
// with repeats: queries whose every list is long, which MaxScore cannot
// prune.
func commonQuery(rng *rand.Rand, words []string) []string {
	q := make([]string, 2+rng.IntN(5))
	for i := range q {
		q[i] = words[rng.IntN(40)]
	}
	return q
}

// TestTopKBlockMax checks that block-max pruning returns the exhaustive
// top k (documents, order, scores bit for bit; every filter, raw scores
// and shares), in memory and in place, and that it takes the queries of
// common words, skipping blocks.
func TestTopKBlockMax(t *testing.T) {
	if raceEnabled {
		t.Skip("one goroutine: scripts/test runs it without -race")
	}
	docs, words := zipfCorpus(6000, 3)
	m := NewBM25(docs, analysis.Sklearn(), BM25Options{K1: 0.9, B: 0.4})
	flat, _ := openInPlace(t, m)
	rng := rand.New(rand.NewPCG(8, 9))
	var queries [][]string
	for i := range 150 {
		if i%3 == 0 {
			queries = append(queries, randomQuery(rng, words))
		} else {
			queries = append(queries, commonQuery(rng, words))
		}
	}
	for _, model := range []struct {
		name string
		m    *BM25
	}{{"memory", m}, {"in place", flat}} {
		t.Run(model.name, func(t *testing.T) {
			runs, scored, blocks := 0, 0, 0
			blockHook = func(s, n int) { runs, scored, blocks = runs+1, scored+s, blocks+n }
			defer func() { blockHook = nil }()
			for _, q := range queries {
				compareTopK(t, model.m, q, []int{1, 10, 50})
			}
			// 100 common-word queries, each run where pruning is tried
			// on every query, with 4 filters, raw and shared, at 3 depths.
			if runs < 100*4*2*3 {
				t.Fatalf("block-max ran %d times", runs)
			}
			// At k = 50 a first pass scores up to 50 of this corpus's
			// 94 blocks; the bounds must still skip some.
			if scored >= blocks {
				t.Errorf("block-max scored %d of %d blocks", scored, blocks)
			}
			t.Logf("%d block-max runs scored %d of %d blocks", runs, scored, blocks)
		})
	}
}

// TestTopKBlockMaxConcurrent runs block-max queries from several
// goroutines on a fresh model, so that block maxima are made while other
// queries read them (run with -race), against the same queries run one
// at a time.
func TestTopKBlockMaxConcurrent(t *testing.T) {
	docs, words := zipfCorpus(3000, 4)
	m := NewBM25(docs, analysis.Sklearn(), DefaultBM25Options())
	rng := rand.New(rand.NewPCG(4, 4))
	queries := make([][]string, 60)
	for i := range queries {
		queries[i] = commonQuery(rng, words)
	}
	oldMin := pruneMinPostings
	pruneMinPostings = 0
	defer func() { pruneMinPostings = oldMin }()
	want := make([][]Result, len(queries))
	for i, q := range queries {
		want[i] = exhaustiveTopK(m, q, 20, nil, m.MaxScoreTokens(q))
	}
	// The queries take block-max (checked on a model of their own, since
	// that makes its maxima).
	runs := 0
	blockHook = func(int, int) { runs++ }
	for _, q := range queries {
		NewBM25Index(m.Index(), m.Options()).TopKShare(q, 20, nil)
	}
	blockHook = nil
	if runs < len(queries)/2 {
		t.Fatalf("%d of %d queries took block-max", runs, len(queries))
	}
	flat, _ := openInPlace(t, m)
	for _, fresh := range []*BM25{m, flat} {
		errs := make(chan string, 4)
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range queries {
					i := (i + g*15) % len(queries)
					if msg := sameResults(fresh.TopKShare(queries[i], 20, nil), want[i]); msg != "" {
						errs <- fmt.Sprintf("query %q: %s", queries[i], msg)
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for msg := range errs {
			t.Error(msg)
		}
	}
}
