package lexical

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte/analysis"
)

// A view must score exactly as a model of the visible documents alone:
// same documents (renumbered), same scores bit for bit, same MaxScore.
// Run over random corpora, random visible subsets and random queries, on
// the in-memory model and on the in-place form, with document frequencies
// counted over the postings and summed over groups (GroupFreqs: the
// visible documents in two groups, the hidden ones in two others).
func TestViewIsTheModelOfTheVisibleDocuments(t *testing.T) {
	checkViewModels(t)
}

// TestPrunedViewIsTheModelOfTheVisibleDocuments: the same with every
// query's top k taken by topKPruned where it can prune, which some must.
func TestPrunedViewIsTheModelOfTheVisibleDocuments(t *testing.T) {
	old := pruneMinPostings
	pruneMinPostings = 0
	pruned := 0
	pruneHook = func(int) { pruned++ }
	defer func() { pruneMinPostings, pruneHook = old, nil }()
	checkViewModels(t)
	if pruned == 0 {
		t.Fatal("no query was pruned")
	}
	// Again with every list searched for the candidates, not walked.
	oldSeek := rangeSeekCost
	rangeSeekCost = 0
	defer func() { rangeSeekCost = oldSeek }()
	checkViewModels(t)
	t.Logf("%d queries pruned", pruned)
}

// TestSplitPrunedViewIsTheModelOfTheVisibleDocuments: the same with the
// pruned walks cut into ranges and a helper forced on each, which must
// take some of them.
func TestSplitPrunedViewIsTheModelOfTheVisibleDocuments(t *testing.T) {
	defer splitKnobs(true, true, 0, 0, blockMinShare)()
	pruned, helped := 0, 0
	pruneHook = func(int) { pruned++ }
	splitHook = func(helpers int) { helped += helpers }
	defer func() { pruneHook, splitHook = nil, nil }()
	checkViewModels(t)
	if pruned == 0 || helped == 0 {
		t.Fatalf("%d queries pruned, %d helpers: want some of each", pruned, helped)
	}
}

// TestRangedViewIsTheModelOfTheVisibleDocuments: the same with every
// query scored over the visible runs where the view has them.
func TestRangedViewIsTheModelOfTheVisibleDocuments(t *testing.T) {
	old := rangeSeekCost
	rangeSeekCost = 0
	defer func() { rangeSeekCost = old }()
	checkViewModels(t)
}

// seek finds the first position holding at least d from every start j,
// as the runs of a restricted view use it.
func TestSeekFromEveryStart(t *testing.T) {
	docs := []uint32{1, 3, 4, 9, 10, 11, 20, 40, 41, 90}
	for j := range len(docs) + 1 {
		for d := range uint32(100) {
			want := j
			for want < len(docs) && docs[want] < d {
				want++
			}
			if got := seek(docs, j, d); got != want {
				t.Fatalf("seek(docs, %d, %d) = %d, want %d", j, d, got, want)
			}
		}
	}
}

// TestSplitViewIsTheModelOfTheVisibleDocuments: the same with every
// query long enough to split on the exhaustive path (no pruning), a
// helper forced.
func TestSplitViewIsTheModelOfTheVisibleDocuments(t *testing.T) {
	defer splitKnobs(true, true, 0, 1<<30, blockMinShare)()
	helped := 0
	splitHook = func(helpers int) { helped += helpers }
	defer func() { splitHook = nil }()
	checkViewModels(t)
	if helped == 0 {
		t.Fatal("no helper took a range")
	}
}

func checkViewModels(t *testing.T) {
	t.Helper()
	opts := BM25Options{K1: 0.9, B: 0.4}
	an := analysis.Sklearn()
	for seed := range uint64(6) {
		rng := rand.New(rand.NewPCG(seed, 21))
		docs, words := zipfCorpus(300+rng.IntN(400), seed)
		hidden := make([]bool, len(docs))
		share := []float64{0, 0.1, 0.5, 0.9}[seed%4]
		var visibleDocs []string
		var toAll []int // visible document number -> number in the whole corpus
		var total uint64
		whole := NewBM25(docs, an, opts)
		for d := range docs {
			hidden[d] = rng.Float64() < share
			if !hidden[d] {
				visibleDocs = append(visibleDocs, docs[d])
				toAll = append(toAll, d)
				total += uint64(whole.ix.DocLen(d))
			}
		}
		want := NewBM25(visibleDocs, an, opts)
		visible := func(d int) bool { return !hidden[d] }
		group := make([]uint32, len(docs))
		for d := range docs {
			group[d] = uint32(2 * rng.IntN(2)) // 0 or 2: visible
			if hidden[d] {
				group[d]++ // 1 or 3
			}
		}
		visibleGroups := []bool{true, false, true, false}
		inplace, err := OpenBM25InPlace(alignedCopy(whole.AppendInPlace(nil), 0), an)
		if err != nil {
			t.Fatal(err)
		}
		var ranges []uint32
		for d := 0; d < len(docs); {
			for d < len(docs) && hidden[d] {
				d++
			}
			lo := d
			for d < len(docs) && !hidden[d] {
				d++
			}
			if lo < d {
				ranges = append(ranges, uint32(lo), uint32(d))
			}
		}
		for name, v := range map[string]*View{
			"inplace/ranges": inplace.View(visible, len(visibleDocs), total).WithGroups(inplace.ix.GroupFreqs(group, 4), visibleGroups).WithRanges(ranges),
			"memory":         whole.View(visible, len(visibleDocs), total),
			"inplace":        inplace.View(visible, len(visibleDocs), total),
			"memory/groups":  whole.View(visible, len(visibleDocs), total).WithGroups(whole.ix.GroupFreqs(group, 4), visibleGroups),
			"inplace/groups": inplace.View(visible, len(visibleDocs), total).WithGroups(inplace.ix.GroupFreqs(group, 4), visibleGroups),
		} {
			for i := range 40 {
				toks := randomQuery(rng, words)
				if i%2 == 1 {
					// Every token twice in a row, as retrieve weighs a
					// question's content words: runs the view walks once.
					toks = doubled(toks)
				}
				q := v.Query(toks)
				if got, exp := q.MaxScore(), want.MaxScoreTokens(toks); got != exp {
					t.Fatalf("seed %d %s query %d %q: MaxScore %v, the visible corpus's %v", seed, name, i, toks, got, exp)
				}
				k := 1 + rng.IntN(60)
				got, exp := q.TopKShare(k, nil), want.TopKShare(toks, k, nil)
				if len(got) != len(exp) {
					t.Fatalf("seed %d %s query %d %q: %d results, the visible corpus gives %d", seed, name, i, toks, len(got), len(exp))
				}
				for j := range got {
					if got[j].Doc != toAll[exp[j].Doc] || got[j].Score != exp[j].Score {
						t.Fatalf("seed %d %s query %d %q rank %d: doc %d score %v, want doc %d score %v",
							seed, name, i, toks, j, got[j].Doc, got[j].Score, toAll[exp[j].Doc], exp[j].Score)
					}
					if s, e := q.ScoreDoc(got[j].Doc), want.ScoreDoc(toks, exp[j].Doc); s != e {
						t.Fatalf("seed %d %s query %d: ScoreDoc %v, want %v", seed, name, i, s, e)
					}
				}
				// A filter beside the view: the even documents.
				even := func(d int) bool { return d%2 == 0 }
				got, exp = q.TopKShare(k, even), want.TopKShare(toks, k, func(vd int) bool { return even(toAll[vd]) })
				if len(got) != len(exp) {
					t.Fatalf("seed %d %s query %d %q, even documents: %d results, want %d", seed, name, i, toks, len(got), len(exp))
				}
				for j := range got {
					if got[j].Doc != toAll[exp[j].Doc] || got[j].Score != exp[j].Score {
						t.Fatalf("seed %d %s query %d %q, even documents, rank %d differs", seed, name, i, toks, j)
					}
				}
				raw := q.TopK(k, nil)
				for j, r := range want.TopK(toks, k, nil) {
					if raw[j].Doc != toAll[r.Doc] || raw[j].Score != r.Score {
						t.Fatalf("seed %d %s query %d: TopK rank %d differs", seed, name, i, j)
					}
				}
			}
		}
		tv := NewTFIDFVisible(whole.ix, TFIDFOptions{Sublinear: true}, visible)
		tw := NewTFIDF(visibleDocs, an, TFIDFOptions{Sublinear: true})
		for i := range 40 {
			toks := randomQuery(rng, words)
			got, exp := tv.ScoresTokens(toks), tw.ScoresTokens(toks)
			for vd, d := range toAll {
				if got[d] != exp[vd] {
					t.Fatalf("seed %d tfidf query %d %q: doc %d scores %v, the visible corpus's %v", seed, i, toks, d, got[d], exp[vd])
				}
			}
			for d := range docs {
				if hidden[d] && got[d] != 0 {
					t.Fatalf("seed %d tfidf: hidden doc %d scores %v", seed, d, got[d])
				}
			}
		}
	}
}

// A view's term bounds (GroupFreqs.tfBound) bound every visible weight of
// the term, come from the visible groups alone (a hidden document with
// the term at its highest frequency in the shortest length moves no
// bound), and are tighter than k1 + 1 for some terms, or the pruning
// gains nothing from them.
func TestViewTermBounds(t *testing.T) {
	opts := BM25Options{K1: 1.2, B: 0.75}
	an := analysis.Sklearn()
	docs, _ := zipfCorpus(500, 3)
	hiddenDoc := strings.Repeat(strings.Fields(docs[0])[0]+" ", 50)
	withHidden := append(slices.Clone(docs), hiddenDoc)
	tighter := 0
	var bounds []float64
	for pass, corpus := range [][]string{docs, withHidden} {
		m := NewBM25(corpus, an, opts)
		group := make([]uint32, len(corpus))
		var total uint64
		n := 0
		for d := range corpus {
			group[d] = uint32(d % 3) // groups 0 and 1 visible, 2 hidden
			if d == len(docs) {
				group[d] = 2
			}
			if group[d] != 2 {
				total += uint64(m.ix.DocLen(d))
				n++
			}
		}
		shown := []bool{true, true, false}
		v := m.View(func(d int) bool { return shown[group[d]] }, n, total).WithGroups(m.ix.GroupFreqs(group, 3), shown)
		i := 0
		for id := range m.ix.NumTerms() {
			b := v.tfBound(id)
			if b < opts.K1+1 {
				tighter++
			}
			for j, d := range m.ix.docs(uint32(id)) {
				if !shown[group[d]] {
					continue
				}
				w := bm25Weight(1, float64(m.ix.freqAt(uint32(id), j)), opts.K1, opts.B, float64(m.ix.lengths[d]), v.avg)
				if w > b*(1+1e-12) {
					t.Fatalf("term %q: document %d weighs %v over its idf, above the bound %v", m.ix.terms[id], d, w, b)
				}
			}
			if pass == 0 {
				bounds = append(bounds, b)
			} else if b != bounds[i] {
				t.Fatalf("term %q: bound %v with a hidden document, %v without", m.ix.terms[id], b, bounds[i])
			}
			i++
		}
	}
	if tighter == 0 {
		t.Fatal("no bound is tighter than k1 + 1")
	}
}

// doubled is toks with every token repeated right after itself.
func doubled(toks []string) []string {
	out := make([]string, 0, 2*len(toks))
	for _, t := range toks {
		out = append(out, t, t)
	}
	return out
}
