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
