package lexical

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/fonte-rag/fonte/analysis"
)

func TestIndex(t *testing.T) {
	docs := []string{"b a b", "", "c a", "A B C d"}
	ix := NewIndex(docs, analysis.Seed001()) // drops "a" as a stop word
	if got := ix.Terms(); !slices.Equal(got, []string{"b", "c", "d"}) {
		t.Fatalf("Terms = %q", got)
	}
	if ix.N() != 4 || ix.NumTerms() != 3 {
		t.Fatalf("N %d NumTerms %d", ix.N(), ix.NumTerms())
	}
	for doc, want := range []int{2, 0, 1, 3} {
		if ix.DocLen(doc) != want {
			t.Errorf("DocLen(%d) = %d, want %d", doc, ix.DocLen(doc), want)
		}
	}
	if ix.AvgDocLen() != 1.5 {
		t.Errorf("AvgDocLen = %v", ix.AvgDocLen())
	}
	b, _ := ix.TermID("b")
	if p := ix.Postings(b); !slices.Equal(p.Docs, []uint32{0, 3}) || !slices.Equal(p.Freqs, []uint32{2, 1}) {
		t.Errorf("postings of b = %+v", p)
	}
	if _, ok := ix.TermID("a"); ok {
		t.Error("stop word indexed")
	}
	terms, freqs := ix.DocTerms(3)
	if !slices.Equal(terms, []uint32{0, 1, 2}) || !slices.Equal(freqs, []uint32{1, 1, 1}) {
		t.Errorf("DocTerms(3) = %v %v", terms, freqs)
	}
	if terms, _ := ix.DocTerms(1); len(terms) != 0 {
		t.Errorf("empty document has terms %v", terms)
	}
}

// TestIndexConsistency checks the postings against the forward index on a
// random corpus: sorted, same pairs, document frequencies adding up.
func TestIndexConsistency(t *testing.T) {
	docs, _ := synthetic(300, 10, 7)
	ix := NewIndex(docs, analysis.Sklearn())
	if !slices.IsSorted(ix.terms) {
		t.Fatal("vocabulary not sorted")
	}
	fromPostings := 0
	for id := range ix.NumTerms() {
		p := ix.Postings(id)
		if len(p.Docs) == 0 || len(p.Docs) != len(p.Freqs) || !slices.IsSorted(p.Docs) {
			t.Fatalf("term %d: bad postings %+v", id, p)
		}
		fromPostings += len(p.Docs)
		for i, d := range p.Docs {
			terms, freqs := ix.DocTerms(int(d))
			j, ok := slices.BinarySearch(terms, uint32(id))
			if !ok || freqs[j] != p.Freqs[i] {
				t.Fatalf("term %d doc %d missing from the forward index", id, d)
			}
		}
	}
	if fromPostings != len(ix.fwdTerms) {
		t.Fatalf("%d postings, %d forward entries", fromPostings, len(ix.fwdTerms))
	}
	for d := range docs {
		terms, freqs := ix.DocTerms(d)
		sum := 0
		for _, f := range freqs {
			sum += int(f)
		}
		if !slices.IsSorted(terms) || sum != ix.DocLen(d) || len(analysis.Sklearn().Analyze(docs[d])) != sum {
			t.Fatalf("doc %d: forward terms unsorted or lengths differ", d)
		}
	}
}

func TestTFIDFEdges(t *testing.T) {
	m := NewTFIDF([]string{"alpha beta", "gamma", ""}, analysis.Sklearn(), TFIDFOptions{})
	if got := m.Search("nothing matches", 5); !slices.Equal(got, []Result{{0, 0}, {1, 0}, {2, 0}}) {
		t.Errorf("no match: %+v, want every document at 0 in order", got)
	}
	if got := m.Search("gamma", 0); got != nil {
		t.Errorf("k = 0: %+v", got)
	}
	if got := m.Search("gamma", 2); got[0].Doc != 1 || math.Abs(got[0].Score-1) > 1e-15 || got[1] != (Result{Doc: 0}) {
		t.Errorf("gamma: %+v", got)
	}
	if v := m.Transform(""); len(v.Terms) != 0 {
		t.Errorf("empty query vector %+v", v)
	}
	if v := m.Row(2); len(v.Terms) != 0 {
		t.Errorf("empty document row %+v", v)
	}
	if _, ok := m.IDF("delta"); ok {
		t.Error("IDF of an unknown term")
	}
	empty := NewTFIDF(nil, analysis.Sklearn(), TFIDFOptions{})
	if empty.Search("x", 3) != nil || len(empty.Scores("x")) != 0 {
		t.Error("empty corpus returned results")
	}
}

// TestTFIDFCosine checks Scores against the dot product of Row and
// Transform, and that rows have unit norm, with sublinear tf.
func TestTFIDFCosine(t *testing.T) {
	docs, queries := synthetic(200, 30, 3)
	m := NewTFIDF(docs, analysis.Sklearn(), TFIDFOptions{Sublinear: true})
	for d := range docs {
		v := m.Row(d)
		if n := v.Dot(v); math.Abs(n-1) > 1e-12 {
			t.Fatalf("row %d has squared norm %v", d, n)
		}
	}
	for _, q := range queries {
		qv := m.Transform(q)
		for d, s := range m.Scores(q) {
			if want := m.Row(d).Dot(qv); math.Abs(s-want) > 1e-12 {
				t.Fatalf("%q doc %d: Scores %v, Row·Transform %v", q, d, s, want)
			}
		}
	}
}

func TestBM25Edges(t *testing.T) {
	m := NewBM25([]string{"keys keys door", "door", "window"}, analysis.Sklearn(), DefaultBM25Options())
	if got := m.Search("nothing", 3); len(got) != 0 {
		t.Errorf("no match: %+v", got)
	}
	// A repeated query token counts each time.
	once, twice := m.Scores("keys"), m.Scores("keys keys")
	if twice[0] != 2*once[0] || once[1] != 0 {
		t.Errorf("keys: %v, keys keys: %v", once, twice)
	}
	got := m.Search("door keys window", 10)
	if len(got) != 3 || got[0].Doc != 0 {
		t.Errorf("Search = %+v", got)
	}
	if idf, ok := m.IDF("door"); !ok || math.Abs(idf-math.Log(1+(3-2+0.5)/(2+0.5))) > 1e-15 {
		t.Errorf("idf(door) = %v", idf)
	}
	for _, opts := range []BM25Options{{K1: -1, B: 0.5}, {K1: 1, B: 1.5}, {K1: math.NaN(), B: 0.5}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("NewBM25 accepted %+v", opts)
				}
			}()
			NewBM25(nil, analysis.Sklearn(), opts)
		}()
	}
}

// TestSearchMatchesScores checks top-k selection against a full stable sort
// of Scores on a random corpus, for both models and several k.
func TestSearchMatchesScores(t *testing.T) {
	docs, queries := synthetic(500, 50, 11)
	tf := NewTFIDF(docs, analysis.Sklearn(), TFIDFOptions{})
	bm := NewBM25(docs, analysis.Sklearn(), DefaultBM25Options())
	// Add selective queries of rare terms so both accumulation paths run.
	ix := tf.Index()
	var rare []string
	for id := range ix.NumTerms() {
		if ix.DocFreq(id) <= 3 {
			rare = append(rare, ix.Term(id))
		}
	}
	for i := 0; i+1 < len(rare) && i < 60; i += 2 {
		queries = append(queries, rare[i]+" "+rare[i+1], rare[i]+" zzz "+queries[0])
	}
	paths := map[bool]int{}
	for _, q := range queries {
		paths[ix.postingsLen(ix.queryTerms(nil, q))*denseRatio >= ix.N()]++
		for _, k := range []int{1, 3, 10, 100, 1000} {
			order := stableOrder(tf.Scores(q))[:min(k, len(docs))]
			got := tf.Search(q, k)
			if len(got) != len(order) {
				t.Fatalf("tfidf %q k=%d: %d results, want %d", q, k, len(got), len(order))
			}
			for i := range got {
				if got[i].Doc != order[i] {
					t.Fatalf("tfidf %q k=%d: result %d is doc %d, want %d", q, k, i, got[i].Doc, order[i])
				}
			}
			scores := bm.Scores(q)
			var want []int
			for _, d := range stableOrder(scores) {
				if scores[d] > 0 && len(want) < k {
					want = append(want, d)
				}
			}
			var docsGot []int
			for _, r := range bm.Search(q, k) {
				docsGot = append(docsGot, r.Doc)
			}
			if !slices.Equal(docsGot, want) {
				t.Fatalf("bm25 %q k=%d: %v, want %v", q, k, docsGot, want)
			}
		}
	}
	t.Logf("queries by path (dense: count): %v", paths)
	if paths[true] < 10 || paths[false] < 10 {
		t.Errorf("queries by path (dense: count) %v: both paths need exercising", paths)
	}
}

// TestConcurrentSearch runs searches from many goroutines (meaningful
// under -race) and checks each against the sequential answer.
func TestConcurrentSearch(t *testing.T) {
	docs, queries := synthetic(400, 40, 5)
	tf := NewTFIDF(docs, analysis.Sklearn(), TFIDFOptions{})
	bm := NewBM25(docs, analysis.Sklearn(), DefaultBM25Options())
	wantTF := make([][]Result, len(queries))
	wantBM := make([][]Result, len(queries))
	for i, q := range queries {
		wantTF[i], wantBM[i] = tf.Search(q, 10), bm.Search(q, 10)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range 20 {
				i := (g*7 + r) % len(queries)
				if !slices.Equal(tf.Search(queries[i], 10), wantTF[i]) || !slices.Equal(bm.Search(queries[i], 10), wantBM[i]) {
					errs <- fmt.Sprintf("goroutine %d: query %d differs", g, i)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// synthetic makes a reproducible corpus of n documents and q queries over a
// Zipf-distributed vocabulary of made-up words, the shape of real text.
func synthetic(n, q int, seed uint64) (docs, queries []string) {
	rng := rand.New(rand.NewPCG(seed, 2026))
	syllables := []string{"ra", "to", "ne", "mi", "ka", "su", "lo", "pe", "di", "an", "or", "ve", "ci", "ba", "tu", "el"}
	const vocab = 20000
	words := make([]string, vocab)
	for i := range words {
		var b strings.Builder
		for x := i + 1; x > 0; x /= len(syllables) {
			b.WriteString(syllables[x%len(syllables)])
		}
		words[i] = b.String()
	}
	zipf := rand.NewZipf(rng, 1.1, 1, vocab-1)
	text := func(length int) string {
		ws := make([]string, length)
		for i := range ws {
			ws[i] = words[zipf.Uint64()]
		}
		return strings.Join(ws, " ")
	}
	for range n {
		docs = append(docs, text(50+rng.IntN(150)))
	}
	for range q {
		queries = append(queries, text(2+rng.IntN(5)))
	}
	return docs, queries
}

func TestBM25MaxScoreBoundsScores(t *testing.T) {
	docs := []string{"refund refund refund card", "delivery parcel", "refund", "gift card cash"}
	m := NewBM25(docs, analysis.Sklearn(), DefaultBM25Options())
	for _, q := range []string{"refund", "refund card", "refund mensa", "nothing here"} {
		max := m.MaxScore(q)
		for d, s := range m.Scores(q) {
			if s < 0 || s >= max {
				t.Errorf("%q doc %d: score %v outside [0, %v)", q, d, s, max)
			}
		}
	}
	// An unknown word adds evidence no document can match.
	if m.MaxScore("refund mensa") <= m.MaxScore("refund") {
		t.Error("an out-of-vocabulary token must raise the bound")
	}
	if m.MaxScore("") != 0 {
		t.Error("empty query has no evidence")
	}
}

func TestBM25ScoreDocEqualsScores(t *testing.T) {
	docs := []string{"refund refund card", "delivery parcel refund", "gift card cash card", ""}
	m := NewBM25(docs, analysis.Sklearn(), DefaultBM25Options())
	for _, q := range []string{"refund card", "card card gift", "nothing", "parcel refund delivery"} {
		toks := analysis.Sklearn().Analyze(q)
		all := m.ScoresTokens(toks)
		for d := range docs {
			if got := m.ScoreDoc(toks, d); got != all[d] {
				t.Errorf("%q doc %d: ScoreDoc %v, Scores %v", q, d, got, all[d])
			}
		}
	}
}
