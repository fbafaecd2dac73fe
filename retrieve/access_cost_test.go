package retrieve

import (
	"sync/atomic"
	"testing"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/vector"
)

// countingSource is a ChunkSource that counts the tag lists read: on the
// embedded store each is a decode of the chunk's document record.
type countingSource struct {
	ChunkSource
	tags atomic.Int64
}

func (s *countingSource) Tags(i int) []string {
	s.tags.Add(1)
	return s.ChunkSource.Tags(i)
}

// TestRestrictedSearchReadsNoRecords: once a restricted reader's first
// search has grouped the chunks by access labels, its searches (BM25,
// dense over the graph's corpus, hybrid, the legs alone, the term
// statistics) decide access by the chunk's group and read no chunk's tags,
// so their cost does not grow with a decode per chunk; a filter on tags
// reads the tags of the readable chunks alone.
func TestRestrictedSearchReadsNoRecords(t *testing.T) {
	const n, public = 3000, 2000
	c := denseAccessCorpus(idsUpTo(n), public)
	src := &countingSource{ChunkSource: c.source()}
	c.Source = src
	ix, err := NewWith(c, DefaultAnalyzers(), Options{Dense: DenseHNSW, Keys: keysOf(c)})
	if err != nil {
		t.Fatal(err)
	}
	reader := Filter{Restricted: true}
	q := c.rows()[5]
	req := Request{Query: "hotel refund", Vector: q, K: 10, Lang: "en", Filter: reader}
	if _, err := ix.Search(req); err != nil { // builds the access classes
		t.Fatal(err)
	}
	src.tags.Store(0)
	for _, mode := range []Mode{BM25, Dense, Hybrid, TFIDF} {
		req.Mode = mode
		hits, err := ix.Search(req)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) == 0 {
			t.Fatalf("%s: no hit", mode)
		}
	}
	ix.LexicalTopK([]string{"hotel"}, 10, reader)
	ix.VectorTopK(q, 10, reader)
	ix.TermStats([]string{"hotel"}, reader)
	if got := src.tags.Load(); got != 0 {
		t.Fatalf("restricted searches read %d chunks' tags, want none", got)
	}

	// A tag filter reads tags, of the chunks the reader may read only.
	tagged := Filter{Restricted: true, Tags: []string{fonte.AccessTag("hr")}}
	if got := ix.VectorTopK(q, 10, tagged); len(got) != 0 {
		t.Fatalf("a reader without hr found %d hr chunks", len(got))
	}
	if got := src.tags.Load(); got > public {
		t.Fatalf("a tag filter read %d chunks' tags, more than the %d readable", got, public)
	}
}

// TestRangedScanReadsReadableRowsOnly: the restricted reader's exact scan
// passes only rows inside its ranges to the filter.
func TestRangedScanReadsReadableRowsOnly(t *testing.T) {
	c := denseAccessCorpus(idsUpTo(1000), 600)
	v, err := vector.NewFlatView(c.Dim, rowRuns(c.rows(), c.Dim))
	if err != nil {
		t.Fatal(err)
	}
	leg := rangedLeg{v, []vector.RowRange{{Lo: 10, Hi: 20}, {Lo: 500, Hi: 600}}}
	for _, s := range leg.search(c.rows()[0], 200, func(i int) bool {
		if i < 10 || (i >= 20 && i < 500) || i >= 600 {
			t.Fatalf("row %d outside the ranges was read", i)
		}
		return true
	}) {
		if s.doc < 10 || (s.doc >= 20 && s.doc < 500) || s.doc >= 600 {
			t.Fatalf("hit %d outside the ranges", s.doc)
		}
	}
}
