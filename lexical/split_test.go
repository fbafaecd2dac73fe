package lexical

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/fonte-rag/fonte/analysis"
	"github.com/fonte-rag/fonte/internal/cores"
)

// splitKnobs sets every knob the split and the paths to it read, and
// returns a function that puts them back.
func splitKnobs(enabled, force bool, minPostings, pruneMin, blocks int) (restore func()) {
	old := []any{splitEnabled, forceSplit, splitMinPostings, pruneMinPostings, blockMinShare}
	splitEnabled, forceSplit, splitMinPostings, pruneMinPostings, blockMinShare = enabled, force, minPostings, pruneMin, blocks
	return func() {
		splitEnabled, forceSplit = old[0].(bool), old[1].(bool)
		splitMinPostings, pruneMinPostings, blockMinShare = old[2].(int), old[3].(int), old[4].(int)
	}
}

// checkSplit runs query q at depth k with allow on m, raw or shared,
// split (helpers forced, every query large enough) and unsplit, on the
// path pruneMin and blocks choose, and fails unless both return the same
// documents in the same order with scores equal bit for bit, and the
// same as every score ranked. It returns the helpers the split had.
func checkSplit(t *testing.T, m *BM25, q []string, k int, allow func(int) bool, share bool, pruneMin, blocks int) int {
	t.Helper()
	top := m.TopK
	if share {
		top = m.TopKShare
	}
	restore := splitKnobs(false, false, 0, pruneMin, blocks)
	want := top(q, k, allow)
	restore()
	helpers := 0
	splitHook = func(h int) { helpers += h }
	restore = splitKnobs(true, true, 0, pruneMin, blocks)
	got := top(q, k, allow)
	restore()
	splitHook = nil
	if msg := sameResults(got, want); msg != "" {
		t.Fatalf("query %q k %d share %v path (%d, %d): split against unsplit: %s", q, k, share, pruneMin, blocks, msg)
	}
	div := 1.0
	if share {
		div = m.MaxScoreTokens(q)
	}
	if div > 0 {
		if msg := sameResults(got, exhaustiveTopK(m, q, k, allow, div)); msg != "" {
			t.Fatalf("query %q k %d share %v path (%d, %d): split against every score: %s", q, k, share, pruneMin, blocks, msg)
		}
	}
	return helpers
}

// FuzzTopKSplit compares the split path with the unsplit one on random
// corpora (size and seed from the input), in memory and in place, over
// random queries of common and mixed words, depths, filters, raw scores
// and shares, on block-max's path and the dense one.
func FuzzTopKSplit(f *testing.F) {
	f.Add(uint64(1), uint16(700), uint8(16))
	f.Add(uint64(2), uint16(2000), uint8(4))
	f.Add(uint64(3), uint16(90), uint8(1))
	f.Add(uint64(4), uint16(1300), uint8(0))
	f.Fuzz(func(t *testing.T, seed uint64, size uint16, share uint8) {
		docs, words := zipfCorpus(64+int(size)%2500, seed)
		m := NewBM25(docs, analysis.Sklearn(), BM25Options{K1: 0.9, B: 0.4})
		flat, _ := openInPlace(t, m)
		blocks := int(share) % 33 // 0: no block maxima, block-max never runs
		rng := rand.New(rand.NewPCG(seed, 11))
		for i := range 12 {
			q := commonQuery(rng, words)
			if i%3 == 0 {
				q = randomQuery(rng, words)
			}
			k := 1 + rng.IntN(80)
			allow := filters[rng.IntN(len(filters))].allow
			pruneMin := 0 // pruning tried: MaxScore, block-max, the dense path
			if i%2 == 1 {
				pruneMin = math.MaxInt // the dense path
			}
			for _, model := range []*BM25{m, flat} {
				checkSplit(t, model, q, k, allow, i%4 < 2, pruneMin, blocks)
			}
		}
	})
}

// TestTopKSplitPaths checks that the split runs, with a helper, on each
// of the paths it cuts (block-max's second pass, the dense path and
// MaxScore's walks over the candidates), and
// returns their unsplit results, on a corpus large enough for every part
// to hold blocks.
func TestTopKSplitPaths(t *testing.T) {
	docs, words := zipfCorpus(3000, 5)
	m := NewBM25(docs, analysis.Sklearn(), BM25Options{K1: 0.9, B: 0.4})
	flat, _ := openInPlace(t, m)
	rng := rand.New(rand.NewPCG(5, 5))
	for _, model := range []struct {
		name string
		m    *BM25
	}{{"memory", m}, {"in place", flat}} {
		t.Run(model.name, func(t *testing.T) {
			blockRuns := 0
			blockHook = func(int, int) { blockRuns++ }
			defer func() { blockHook = nil }()
			pruned := 0
			pruneHook = func(int) { pruned++ }
			defer func() { pruneHook = nil }()
			blockHelpers, denseHelpers, scoreHelpers := 0, 0, 0
			for range 30 {
				q := commonQuery(rng, words)
				mixed := randomQuery(rng, words)
				for _, f := range filters {
					blockHelpers += checkSplit(t, model.m, q, 50, f.allow, true, 0, 16)
					denseHelpers += checkSplit(t, model.m, q, 50, f.allow, false, math.MaxInt, 16)
					before := pruned
					h := checkSplit(t, model.m, mixed, 10, f.allow, false, 0, 0)
					if pruned > before {
						scoreHelpers += h
					}
				}
			}
			if blockRuns == 0 || blockHelpers == 0 {
				t.Errorf("block-max ran %d times, its splits had %d helpers", blockRuns, blockHelpers)
			}
			if denseHelpers == 0 {
				t.Error("the dense path's splits had no helper")
			}
			if scoreHelpers == 0 {
				t.Errorf("MaxScore ran %d times, its splits had no helper", pruned)
			}
		})
	}
}

// TestTopKSplitTakesNoBusyCore: a query that may split starts no helper
// while every core is counted busy, and does once they are free (on a
// machine of two cores or more), with the same results.
func TestTopKSplitTakesNoBusyCore(t *testing.T) {
	docs, words := zipfCorpus(3000, 6)
	m := NewBM25(docs, analysis.Sklearn(), BM25Options{K1: 0.9, B: 0.4})
	q := commonQuery(rand.New(rand.NewPCG(6, 6)), words)
	restore := splitKnobs(true, false, 0, math.MaxInt, 16)
	defer restore()
	helpers := -1
	splitHook = func(h int) { helpers = h }
	defer func() { splitHook = nil }()

	free := 0 // take every core as other searches would
	for cores.TryHelper() {
		free++
	}
	busy := m.TopK(q, 20, nil)
	for range free {
		cores.Leave()
	}
	if helpers != 0 {
		t.Fatalf("%d helpers started with every core busy", helpers)
	}
	idle := m.TopK(q, 20, nil)
	if want := min(free-1, maxHelpers); free >= 2 && helpers < 1 || helpers > want {
		t.Fatalf("%d helpers started with %d cores free (the query's own among them), want 1 to %d", helpers, free, want)
	}
	if msg := sameResults(idle, busy); msg != "" {
		t.Fatalf("split with a helper against alone: %s", msg)
	}
}

// TestTopKGivesBackItsCore: a top k counts its goroutine busy only while
// it runs, split or not, through a view or not, so that no query leaves
// a core counted busy and the helpers stopped for good.
func TestTopKGivesBackItsCore(t *testing.T) {
	docs, words := zipfCorpus(3000, 7)
	m := NewBM25(docs, analysis.Sklearn(), BM25Options{K1: 0.9, B: 0.4})
	q := commonQuery(rand.New(rand.NewPCG(7, 7)), words)
	restore := splitKnobs(true, false, 0, 0, 16)
	defer restore()
	busy := cores.Busy()
	m.TopK(q, 10, nil)
	m.TopKShare(q, 10, func(d int) bool { return d%3 != 0 })
	even := func(d int) bool { return d%2 == 0 }
	n, total := 0, uint64(0)
	for d := range m.N() {
		if even(d) {
			n, total = n+1, total+uint64(m.ix.DocLen(d))
		}
	}
	m.View(even, n, total).Query(q).TopK(10, nil)
	if got := cores.Busy(); got != busy {
		t.Fatalf("%d goroutines counted busy after the queries, %d before", got, busy)
	}
}

// TestMaxScoreStepsSplit: MaxScore's estimate and candidate listing,
// split with a helper, give the unsplit estimate's k-th score bit for bit
// and the same candidates, in memory and in place.
func TestMaxScoreStepsSplit(t *testing.T) {
	docs, words := zipfCorpus(3000, 7)
	m := NewBM25(docs, analysis.Sklearn(), BM25Options{K1: 0.9, B: 0.4})
	flat, _ := openInPlace(t, m)
	rng := rand.New(rand.NewPCG(7, 7))
	type listed struct {
		kth   float64
		cands []uint32
	}
	var got []listed
	listHook = func(kth float64, cands []uint32) { got = append(got, listed{kth, slices.Clone(cands)}) }
	defer func() { listHook = nil }()
	helpers := 0
	splitHook = func(h int) { helpers += h }
	defer func() { splitHook = nil }()
	compared := 0
	for range 40 {
		q := randomQuery(rng, words)
		k := 1 + rng.IntN(60)
		for _, model := range []*BM25{m, flat} {
			for _, f := range filters {
				got = got[:0]
				restore := splitKnobs(false, false, 0, 0, 0)
				model.TopK(q, k, f.allow)
				restore()
				if len(got) == 0 {
					continue // MaxScore did not reach its candidates
				}
				want := got[0]
				restore = splitKnobs(true, true, 0, 0, 0)
				model.TopK(q, k, f.allow)
				restore()
				if len(got) != 2 {
					t.Fatalf("query %q k %d: the split query listed candidates %d times", q, k, len(got)-1)
				}
				if math.Float64bits(got[1].kth) != math.Float64bits(want.kth) {
					t.Fatalf("query %q k %d: split estimate %v, unsplit %v", q, k, got[1].kth, want.kth)
				}
				if !slices.Equal(got[1].cands, want.cands) {
					t.Fatalf("query %q k %d: split listing gave %d candidates, unsplit %d", q, k, len(got[1].cands), len(want.cands))
				}
				compared++
			}
		}
	}
	if compared == 0 || helpers == 0 {
		t.Fatalf("%d queries compared, %d helpers", compared, helpers)
	}
}
