package retrieve

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/vector"
)

// denseAccessWords give the chunks of denseAccessCorpus words of their
// own, so that a hybrid search's lexical leg ranks them too.
var denseAccessWords = []string{"hotel", "travel", "refund", "salary", "budget", "contract", "office", "badge"}

// denseAccessCorpus is randomCorpus over ids, the chunks from hiddenFrom
// on labelled hr, each with two words.
func denseAccessCorpus(ids []int, hiddenFrom int) Corpus {
	c := randomCorpus(ids, 16)
	c.Tags = make([][]string, len(ids))
	for i, id := range ids {
		c.Chunks[i].Text = denseAccessWords[id%len(denseAccessWords)] + " " + denseAccessWords[id/7%len(denseAccessWords)]
		if id >= hiddenFrom {
			c.Tags[i] = []string{fonte.AccessTag("hr")}
		}
	}
	return c
}

func idsUpTo(n int) []int {
	ids := make([]int, n)
	for i := range ids {
		ids[i] = i
	}
	return ids
}

// TestHiddenChunksMoveNoGraphHit: with the dense leg an HNSW graph (a
// sparse one, so that a filtered walk misses neighbours), a reader who
// may not read the hr chunks gets the same dense and hybrid hits, scores
// and relevance over C ∪ H as over C, H being more hr chunks that shape
// the graph C ∪ H's walk would take; and those hits are the exact ones,
// those of a flat leg over C. A reader who sees every chunk keeps the
// graph.
func TestHiddenChunksMoveNoGraphHit(t *testing.T) {
	const public, hiddenInC, hiddenInH = 2400, 200, 800 // the public chunks exceed what HNSW scans exactly under a filter
	graph := Options{Dense: DenseHNSW, HNSW: vector.HNSWOptions{M: 2, EfConstruction: 4, EfSearch: 1}}
	build := func(n int, o Options) *Index {
		c := denseAccessCorpus(idsUpTo(n), public)
		o.Keys = keysOf(c)
		ix, err := NewWith(c, DefaultAnalyzers(), o)
		if err != nil {
			t.Fatal(err)
		}
		return ix
	}
	c := build(public+hiddenInC, graph)
	ch := build(public+hiddenInC+hiddenInH, graph)
	exact := build(public+hiddenInC, Options{Dense: DenseExact})
	reader := Filter{Restricted: true}
	rng := rand.New(rand.NewPCG(21, 1))
	for i := range 40 {
		q := denseAccessCorpus([]int{100_000 + i}, 0).Vectors
		req := Request{Query: denseAccessWords[rng.IntN(len(denseAccessWords))], Lang: "en", Vector: q, K: 10, Filter: reader}
		sameHits(t, ch, c, req, i)
		for _, mode := range []Mode{Dense, Hybrid} {
			req.Mode = mode
			got, err := ch.Search(req)
			if err != nil {
				t.Fatal(err)
			}
			ref, err := exact.Search(req)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, ref) {
				t.Fatalf("query %d, %s: over the graph\n%v\nexact\n%v", i, mode, got, ref)
			}
		}
		if got, want := ch.VectorTopK(q, 20, reader), c.VectorTopK(q, 20, reader); !reflect.DeepEqual(got, want) {
			t.Fatalf("query %d: VectorTopK over C ∪ H %v, over C %v", i, got, want)
		}
	}
	for _, f := range []Filter{{}, {Restricted: true, Labels: []string{"hr"}}} {
		_, rv := ch.accessView(f)
		if _, ok := ch.denseFor(rv).(hnswLeg); !ok {
			t.Fatalf("a reader %+v who sees every chunk does not search the graph", f)
		}
	}
}

// TestRowRuns: rows that lie back to back become one part, rows apart
// one part each, and the parts hold the rows in order.
func TestRowRuns(t *testing.T) {
	flat := []float32{1, 2, 3, 4, 5, 6}
	apart := [][]float32{{7, 8}, {9, 10}}
	rows := [][]float32{flat[0:2], flat[2:4], flat[4:6], apart[0], apart[1]}
	parts := rowRuns(rows, 2)
	var got [][]float32
	for _, p := range parts {
		got = append(got, p.Data)
	}
	want := [][]float32{{1, 2, 3, 4, 5, 6}, {7, 8}, {9, 10}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("parts %v, want %v", got, want)
	}
}

// classLabels are labelled's access labels, chunk i's being
// classLabels[i mod 4] ("" for none).
var classLabels = []string{"", "hr", "finance", "legal"}

// labelled is randomCorpus over ids in 24 dimensions, chunk i labelled
// classLabels[i mod 4]: four access classes, their chunks interleaved.
func labelled(ids []int) Corpus {
	c := randomCorpus(ids, 24)
	c.Tags = make([][]string, len(ids))
	for i, id := range ids {
		if l := classLabels[id%len(classLabels)]; l != "" {
			c.Tags[i] = []string{fonte.AccessTag(l)}
		}
	}
	return c
}

// TestClassScanReadsReadableClassesOnly: a restricted reader's dense leg
// over a graph's corpus scans the int8 copies of the access classes it
// may read, no other class's copy is made, and its hits, for readers of
// one, two or three of four classes scattered chunk by chunk, are the
// exact leg's under the same filter.
func TestClassScanReadsReadableClassesOnly(t *testing.T) {
	const n = 3000
	c := labelled(idsUpTo(n))
	ix, err := NewWith(c, DefaultAnalyzers(), Options{Dense: DenseHNSW, Keys: keysOf(c)})
	if err != nil {
		t.Fatal(err)
	}
	exact, err := NewWith(c, DefaultAnalyzers(), Options{Dense: DenseExact})
	if err != nil {
		t.Fatal(err)
	}
	readers := [][]string{nil, {"hr"}, {"finance", "legal"}}
	for _, held := range readers {
		f := Filter{Restricted: true, Labels: held}
		_, rv := ix.accessView(f)
		leg, ok := ix.denseFor(rv).(classLeg)
		if !ok {
			t.Fatalf("reader %v: dense leg %T, want the scan of its classes' copies", held, ix.denseFor(rv))
		}
		rows := 0
		for _, g := range leg.classes {
			rows += g.Len()
		}
		if want := n / len(classLabels) * (1 + len(held)); rows != want {
			t.Fatalf("reader %v: its classes' copies hold %d rows, want the %d it may read", held, rows, want)
		}
		for i := range 20 {
			q := labelled([]int{50_000 + i}).Vectors
			got, want := ix.VectorTopK(q, 10, f), exact.VectorTopK(q, 10, f)
			if len(got) != 10 || !reflect.DeepEqual(got, want) {
				t.Fatalf("reader %v, query %d: class scan %v, exact %v", held, i, got, want)
			}
		}
	}
	for c, tags := range ix.access.tags {
		if len(tags) == 1 && tags[0] == fonte.AccessTag("legal") && ix.access.codes[c] == nil {
			t.Fatal("the legal class has no copy after a legal reader's search")
		}
	}
	// A last class no reader above may read: its copy is never made.
	c2 := labelled(idsUpTo(n))
	c2.Tags[7] = []string{fonte.AccessTag("board")}
	ix2, err := NewWith(c2, DefaultAnalyzers(), Options{Dense: DenseHNSW, Keys: keysOf(c2)})
	if err != nil {
		t.Fatal(err)
	}
	for _, held := range readers {
		ix2.VectorTopK(c2.rows()[0], 10, Filter{Restricted: true, Labels: held})
	}
	for c, tags := range ix2.access.tags {
		if len(tags) == 1 && tags[0] == fonte.AccessTag("board") && ix2.access.codes[c] != nil {
			t.Fatal("the board class's copy was made for readers who may not read it")
		}
	}
}

// TestClassCopiesConcurrentReaders: readers of overlapping classes whose
// first searches run at once share each class's copy, made once, and
// each gets the exact leg's hits (run with -race).
func TestClassCopiesConcurrentReaders(t *testing.T) {
	c := labelled(idsUpTo(2000))
	ix, err := NewWith(c, DefaultAnalyzers(), Options{Dense: DenseHNSW, Keys: keysOf(c)})
	if err != nil {
		t.Fatal(err)
	}
	exact, err := NewWith(c, DefaultAnalyzers(), Options{Dense: DenseExact})
	if err != nil {
		t.Fatal(err)
	}
	readers := []Filter{{Restricted: true}, {Restricted: true, Labels: []string{"hr"}}, {Restricted: true, Labels: []string{"hr", "legal"}}, {Restricted: true, Labels: []string{"finance"}}}
	q := labelled([]int{9999}).Vectors
	errs := make(chan string, len(readers))
	var wg sync.WaitGroup
	for _, f := range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got, want := ix.VectorTopK(q, 10, f), exact.VectorTopK(q, 10, f); !reflect.DeepEqual(got, want) {
				errs <- fmt.Sprintf("reader %v: class scan %v, exact %v", f.Labels, got, want)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
