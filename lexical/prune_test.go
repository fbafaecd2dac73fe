package lexical

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/fonte-rag/fonte/analysis"
)

// The pruned top k must be the exhaustive one: same documents, same order,
// scores equal bit for bit. exhaustiveTopK (in prune_bench_test.go) is the
// reference: every score from ScoresTokens, divided, filtered, sorted.

// zipfCorpus returns n documents of Zipf-distributed words, the words by
// decreasing frequency, and a few extra documents built to tie: copies of
// earlier documents (equal scores for any query) and documents of one
// repeated word.
func zipfCorpus(n int, seed uint64) (docs, words []string) {
	rng := rand.New(rand.NewPCG(seed, 7))
	syllables := []string{"ra", "to", "ne", "mi", "ka", "su", "lo", "pe", "di", "an", "or", "ve", "ci", "ba", "tu", "el"}
	const vocab = 5000
	words = make([]string, vocab)
	for i := range words {
		var b strings.Builder
		for x := i + 1; x > 0; x /= len(syllables) {
			b.WriteString(syllables[x%len(syllables)])
		}
		words[i] = b.String()
	}
	zipf := rand.NewZipf(rng, 1.07, 2, vocab-1)
	for range n {
		ws := make([]string, 5+rng.IntN(120))
		for i := range ws {
			ws[i] = words[zipf.Uint64()]
		}
		docs = append(docs, strings.Join(ws, " "))
	}
	for i := range n / 20 { // copies, spread through the numbering
		docs = append(docs, docs[rng.IntN(len(docs))])
		if i%4 == 0 {
			w := words[rng.IntN(200)]
			docs = append(docs, strings.Repeat(w+" ", 1+rng.IntN(3)))
		}
	}
	return docs, words
}

// randomQuery picks 1 to 12 tokens: common words, rarer ones, words no
// document has, and repeats of earlier tokens.
func randomQuery(rng *rand.Rand, words []string) []string {
	q := make([]string, 1+rng.IntN(12))
	for i := range q {
		switch r := rng.IntN(10); {
		case r < 4:
			q[i] = words[rng.IntN(30)]
		case r < 8:
			q[i] = words[30+rng.IntN(len(words)-30)]
		case r < 9 || i == 0:
			q[i] = fmt.Sprintf("unseen%d", rng.IntN(5))
		default:
			q[i] = q[rng.IntN(i)]
		}
	}
	return q
}

// defaultPruneMin is pruneMinPostings as the package sets it.
var defaultPruneMin = pruneMinPostings

// filters are the allow functions the comparisons run with.
var filters = []struct {
	name  string
	allow func(int) bool
}{
	{"all", nil},
	{"even", func(d int) bool { return d%2 == 0 }},
	{"sparse", func(d int) bool { return (d*2654435761)%97 < 5 }},
	{"none", func(int) bool { return false }},
}

// withPruning runs f with the dense path's threshold and the cost estimate
// out of the way, so that every query MaxScore can prune is pruned.
func withPruning(t testing.TB, f func()) {
	t.Helper()
	oldMin, oldForce := pruneMinPostings, forcePrune
	pruneMinPostings, forcePrune = 0, true
	defer func() { pruneMinPostings, forcePrune = oldMin, oldForce }()
	f()
}

// sameResults reports how got differs from want, or "" when the documents
// and their order agree and the scores are equal bit for bit.
func sameResults(got, want []Result) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d results, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i].Doc != want[i].Doc {
			return fmt.Sprintf("rank %d: doc %d (%v), want doc %d (%v)", i, got[i].Doc, got[i].Score, want[i].Doc, want[i].Score)
		}
		if got[i].Score != want[i].Score || math.Abs(got[i].Score-want[i].Score) > 1e-9 {
			return fmt.Sprintf("rank %d doc %d: score %v, want %v", i, got[i].Doc, got[i].Score, want[i].Score)
		}
	}
	return ""
}

// compareTopK checks TopK and TopKShare against the reference for every k
// and filter on one query, on the default paths and with pruning forced;
// the reference is sorted once per filter.
func compareTopK(t *testing.T, m *BM25, q []string, ks []int) {
	t.Helper()
	div := m.MaxScoreTokens(q)
	blocks := blockMinShare
	// Every positive score, ranked; then divided and ranked again (the
	// division can tie scores); then filtered, which keeps the order.
	raw := exhaustiveTopK(m, q, math.MaxInt, nil, 1)
	shares := make([]Result, len(raw))
	for i, r := range raw {
		shares[i] = Result{Doc: r.Doc, Score: r.Score / div}
	}
	slices.SortFunc(shares, func(a, b Result) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.Doc, b.Doc)
	})
	for _, f := range filters {
		for _, share := range []bool{false, true} {
			all, top := raw, m.TopK
			if share {
				all, top = shares, m.TopKShare
			}
			ref := all
			if f.allow != nil {
				ref = nil
				for _, r := range all {
					if f.allow(r.Doc) {
						ref = append(ref, r)
					}
				}
			}
			// The defaults; pruning tried on every query, MaxScore's cost
			// estimate choosing (it falls back after marking candidates)
			// and block-max taking what it leaves; MaxScore forced, with
			// no block maxima.
			for mode, set := range []struct {
				min    int
				force  bool
				blocks int
			}{{defaultPruneMin, false, blockMinShare}, {0, false, blockMinShare}, {0, true, 0}} {
				pruneMinPostings, forcePrune, blockMinShare = set.min, set.force, set.blocks
				for _, k := range ks {
					want := ref[:min(k, len(ref))]
					if msg := sameResults(top(q, k, f.allow), want); msg != "" {
						pruneMinPostings, forcePrune, blockMinShare = defaultPruneMin, false, blocks
						t.Fatalf("query %q k %d filter %s share %v mode %d: %s", q, k, f.name, share, mode, msg)
					}
				}
				blockMinShare = blocks
			}
			pruneMinPostings, forcePrune = defaultPruneMin, false
		}
	}
}

// TestTopKTies checks that equal scores are ranked by document number on
// both paths, whichever part of the numbering the tied documents sit in.
func TestTopKTies(t *testing.T) {
	var docs []string
	for i := range 3000 {
		switch {
		case i%7 == 0:
			docs = append(docs, "alpha beta gamma")
		case i%11 == 0:
			docs = append(docs, "beta gamma gamma")
		case i%5 == 0:
			docs = append(docs, "alpha")
		default:
			docs = append(docs, fmt.Sprintf("filler%d other%d delta", i%50, i%13))
		}
	}
	m := NewBM25(docs, analysis.Sklearn(), DefaultBM25Options())
	for _, q := range [][]string{{"alpha"}, {"alpha", "beta"}, {"gamma", "delta", "alpha"}, {"delta"}, {"beta", "beta", "filler3"}} {
		compareTopK(t, m, q, []int{1, 3, 10, 100, 1000, 5000})
	}
}

func TestTopKEdges(t *testing.T) {
	m := NewBM25([]string{"refund policy", "refund", "delivery"}, analysis.Sklearn(), DefaultBM25Options())
	for _, c := range []struct {
		name   string
		tokens []string
		k      int
	}{
		{"k 0", []string{"refund"}, 0},
		{"k negative", []string{"refund"}, -3},
		{"no tokens", nil, 10},
		{"unknown tokens", []string{"mensa", "aula"}, 10},
	} {
		if got := m.TopK(c.tokens, c.k, nil); len(got) != 0 {
			t.Errorf("%s: TopK = %v", c.name, got)
		}
		if got := m.TopKShare(c.tokens, c.k, nil); len(got) != 0 {
			t.Errorf("%s: TopKShare = %v", c.name, got)
		}
	}
	// More room than matches: every match, and no document without one.
	if got := m.TopK([]string{"refund"}, 10, nil); len(got) != 2 || got[0].Doc != 1 || got[1].Doc != 0 {
		t.Errorf("TopK(refund) = %v", got)
	}
	// A filter is applied before counting: the best allowed documents.
	if got := m.TopK([]string{"refund"}, 1, func(d int) bool { return d != 1 }); len(got) != 1 || got[0].Doc != 0 {
		t.Errorf("filtered TopK = %v", got)
	}
	// Shares lie in [0, 1).
	for _, r := range m.TopKShare([]string{"refund", "policy", "unseen"}, 3, nil) {
		if !(r.Score > 0 && r.Score < 1) {
			t.Errorf("share %v outside (0, 1)", r.Score)
		}
	}
	// The caller's slices are left alone and results are fresh.
	q := []string{"refund", "policy"}
	a := m.TopK(q, 2, nil)
	a[0].Doc = 99
	if b := m.TopK(q, 2, nil); b[0].Doc == 99 || q[0] != "refund" {
		t.Error("results share memory between calls")
	}
}

// TestTopKConcurrent runs both paths from many goroutines at once (run
// with -race to check the pools).
func TestTopKConcurrent(t *testing.T) {
	docs, words := zipfCorpus(3000, 5)
	m := NewBM25(docs, analysis.Sklearn(), DefaultBM25Options())
	rng := rand.New(rand.NewPCG(9, 9))
	type job struct {
		q    []string
		k    int
		want []Result
	}
	var jobs []job
	for i := range 60 {
		q := randomQuery(rng, words)
		k := []int{1, 10, 100}[i%3]
		jobs = append(jobs, job{q, k, exhaustiveTopK(m, q, k, nil, 1)})
	}
	withPruning(t, func() {
		var wg sync.WaitGroup
		errs := make(chan string, 8)
		for g := range 8 {
			wg.Go(func() {
				for i := range 200 {
					j := jobs[(g*31+i)%len(jobs)]
					if msg := sameResults(m.TopK(j.q, j.k, nil), j.want); msg != "" {
						select {
						case errs <- fmt.Sprintf("%q: %s", j.q, msg):
						default:
						}
						return
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for msg := range errs {
			t.Error(msg)
		}
	})
}

func TestSeek(t *testing.T) {
	docs := []uint32{2, 3, 5, 8, 13, 21, 34, 55, 89}
	for pos := range len(docs) + 1 {
		for d := uint32(0); d < 100; d++ {
			want := pos
			for want < len(docs) && docs[want] < d {
				want++
			}
			if got := seek(docs, pos, d); got != want {
				t.Fatalf("seek(pos %d, %d) = %d, want %d", pos, d, got, want)
			}
		}
	}
}

// TestTopKNarrowsCandidates runs queries of two common words beside two
// rarer ones, as cmd/fonte-scale's synthetic questions mostly are: MaxScore
// takes the documents of its essential lists as candidates, then narrows
// them by their partial scores, adding the terms set aside one by one,
// before weighing every token for them. Results stay exact, and a query
// weighs every token for few more than narrowEnough(k) candidates, where
// the essential lists hold thousands.
func TestTopKNarrowsCandidates(t *testing.T) {
	docs, words := zipfCorpus(20000, 9)
	m := NewBM25(docs, analysis.Sklearn(), BM25Options{K1: 0.9, B: 0.4})
	rng := rand.New(rand.NewPCG(9, 10))
	pruned, cands := 0, 0
	pruneHook = func(c int) { pruned++; cands += c }
	defer func() { pruneHook = nil }()
	const k = 10
	for range 100 {
		q := []string{words[rng.IntN(10)], words[rng.IntN(30)], words[30+rng.IntN(100)], words[300+rng.IntN(2000)]}
		compareTopK(t, m, q, []int{k})
	}
	if pruned < 100 {
		t.Fatalf("only %d of the query runs pruned", pruned)
	}
	if avg := cands / pruned; avg > narrowEnough(k) {
		t.Errorf("pruned queries weighed every token for %d candidates on average, want at most %d", avg, narrowEnough(k))
	}
	t.Logf("%d pruned runs, %d candidates on average of %d documents", pruned, cands/pruned, m.N())
}
