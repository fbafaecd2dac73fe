//go:build !race

// The one-goroutine comparisons (SciFact and synthetic corpora scored
// every way, indexes built and encoded against their sizes) are built only
// without the race detector, which slows scoring about tenfold and finds
// nothing in a test with one goroutine; scripts/test runs ./lexical
// without -race after the race pass, and the *Concurrent tests are the
// ones -race is for.

package lexical

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/fonte-rag/fonte/analysis"
	"github.com/fonte-rag/fonte/eval"
)

// TestTopKBlockMax checks that block-max pruning returns the exhaustive
// top k (documents, order, scores bit for bit; every filter, raw scores
// and shares), in memory and in place, and that it takes the queries of
// common words, skipping blocks.
func TestTopKBlockMax(t *testing.T) {
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

func TestNewIndexParallelSciFact(t *testing.T) {
	d := loadSciFact(t)
	an := analysis.English()
	got := NewIndexParallel(len(d.docs), func(i int) []string { return an.Analyze(d.docs[i]) }, an, 4)
	if !reflect.DeepEqual(got.postings, d.m.Index().postings) || !reflect.DeepEqual(got.terms, d.m.Index().terms) ||
		!reflect.DeepEqual(got.fwdTerms, d.m.Index().fwdTerms) || got.total != d.m.Index().total {
		t.Fatal("SciFact index differs from NewIndexTokens's")
	}
}

func TestEncodeSciFactSize(t *testing.T) {
	d := loadSciFact(t)
	raw := 0
	for _, doc := range d.beir.Corpus {
		raw += len(doc.Title) + len(doc.Text)
	}
	data, _ := d.m.Index().MarshalBinary()
	if len(data) > raw/3 {
		t.Errorf("encoded index %d bytes, more than a third of the %d bytes of text", len(data), raw)
	}
	got, err := DecodeIndex(data, d.m.Index().Analyzer())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, d.m.Index()) {
		t.Fatal("decoded SciFact index differs")
	}
	t.Logf("encoded %d bytes for %d bytes of text (%.1f%%)", len(data), raw, 100*float64(len(data))/float64(raw))
}

func TestInPlaceRandomCorpus(t *testing.T) {
	docs, words := zipfCorpus(4000, 11)
	queries := randomQueries(rand.New(rand.NewPCG(12, 13)), words, 150)
	for _, opts := range []BM25Options{DefaultBM25Options(), {K1: 0.9, B: 0.4}, {K1: 0, B: 1}, {K1: 2, B: 0}} {
		t.Run(fmt.Sprintf("k1=%v,b=%v", opts.K1, opts.B), func(t *testing.T) {
			m := NewBM25(docs, analysis.Sklearn(), opts)
			flat, data := openInPlace(t, m)
			if &flat.ix.lengths[0] != (*uint32)(unsafeAt(data, inplaceHeader)) {
				t.Fatal("document lengths were copied, not viewed in place")
			}
			compareModels(t, m, flat, queries, []int{1, 10, 100})
			compareIndexes(t, m.ix, flat.ix)

			// Re-encoding the in-place model gives the same bytes, in both
			// forms.
			if again := flat.AppendInPlace(nil); !bytes.Equal(again, data) {
				t.Fatal("re-encoding the in-place model changed its form")
			}
			a, _ := flat.MarshalBinary()
			b, _ := m.MarshalBinary()
			if !bytes.Equal(a, b) {
				t.Fatal("the in-place model's binary form differs from the original's")
			}
		})
	}
}

func TestInPlaceSciFact(t *testing.T) {
	d := loadSciFact(t)
	flat, _ := openInPlace(t, d.m)
	var queries []string
	for _, q := range d.beir.Queries {
		queries = append(queries, q.Text)
	}
	compareModels(t, d.m, flat, queries[:100], []int{10, 100})
}

func TestTopKSynthetic(t *testing.T) {
	docs, words := zipfCorpus(4000, 1)
	m := NewBM25(docs, analysis.Sklearn(), BM25Options{K1: 0.9, B: 0.4})
	ks := []int{1, 10, 100, 1000}
	rng := rand.New(rand.NewPCG(2, 3))
	queries := make([][]string, 400)
	for i := range queries {
		queries[i] = randomQuery(rng, words)
	}
	pruned, cands := 0, 0
	pruneHook = func(c int) { pruned++; cands += c }
	for _, q := range queries {
		compareTopK(t, m, q, ks)
	}
	pruneHook = nil
	// The comparisons must have exercised pruning, and pruning must have
	// left most documents unscored.
	if pruned < len(queries) {
		t.Fatalf("only %d query runs pruned", pruned)
	}
	if avg := cands / pruned; avg > m.N()/4 {
		t.Errorf("pruned queries scored %d candidates on average, of %d documents", avg, m.N())
	}
	t.Logf("%d pruned runs, %d candidates on average of %d documents", pruned, cands/pruned, m.N())
	t.Run("other parameters", func(t *testing.T) {
		for _, opts := range []BM25Options{{K1: 0, B: 0}, {K1: 1.2, B: 1}, {K1: 3, B: 0.75}} {
			m := NewBM25Index(m.Index(), opts)
			for _, q := range queries[:100] {
				compareTopK(t, m, q, []int{1, 10, 100})
			}
		}
	})
}

// TestTopKSciFact compares the paths on BEIR SciFact's 1,109 queries (test
// and train) over its corpus, analysed and weighted as retrieve does.
func TestTopKSciFact(t *testing.T) {
	d := loadSciFact(t)
	train, err := eval.LoadBEIR(sciFact, "train")
	if err != nil {
		t.Fatalf("SciFact: %v", err)
	}
	queries := d.queries
	for _, q := range train.Queries {
		queries = append(queries, analysis.English().Analyze(q.Text))
	}
	if len(queries) != 1109 {
		t.Fatalf("%d queries, want 1,109", len(queries))
	}
	pruned := 0
	pruneHook = func(int) { pruned++ }
	defer func() { pruneHook = nil }()
	for _, q := range queries {
		compareTopK(t, d.m, q, []int{1, 10, 100, 1000})
	}
	if pruned < len(queries) {
		t.Fatalf("only %d query runs pruned", pruned)
	}
}

func TestInPlaceBuilderZipf(t *testing.T) {
	docs, words := zipfCorpus(1500, 31)
	queries := randomQueries(rand.New(rand.NewPCG(32, 33)), words, 30)
	tokens := analyseAll(docs, analysis.Sklearn())
	for i, opts := range []BM25Options{DefaultBM25Options(), {K1: 0, B: 1}, {K1: 2, B: 0}} {
		t.Run(fmt.Sprintf("k1=%v,b=%v", opts.K1, opts.B), func(t *testing.T) {
			if i > 0 {
				queries = nil // the bytes are the same: searching them once is enough
			}
			checkBuilder(t, tokens, analysis.Sklearn(), opts, queries)
		})
	}
}
