package redis

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

// searchCorpus is a small corpus under a few folders, with tags.
func searchCorpus(dim int) []fonte.Record {
	var recs []fonte.Record
	tagsOf := [][]string{{"hr"}, {"hr", "policy"}, {"it"}, nil, {"città", "policy"}, {" spaced "}}
	for i := range 24 {
		dir := []string{"handbook/hr/", "handbook/it/", "notes/", ""}[i%4]
		id := fmt.Sprintf("%sdoc-%02d.md", dir, i)
		recs = append(recs, genDoc(id, 1+i%4, dim, uint64(100+i), tagsOf[i%len(tagsOf)]...))
	}
	return recs
}

var testFilters = []fonte.Filter{
	{},
	{Prefixes: []string{"handbook/"}},
	{Prefixes: []string{"handbook/hr/"}},
	{Prefixes: []string{"handbook/hr/doc-0"}}, // not at a '/': pinned versions
	{Prefixes: []string{"handbook/h"}},
	{Prefixes: []string{"notes/", "doc-"}},
	{Prefixes: []string{"d"}},             // shorter than the engine's MINPREFIX
	{Prefixes: []string{"nothing/here/"}}, // matches no document
	{Tags: []string{"hr"}},
	{Tags: []string{"hr", "policy"}},
	{Tags: []string{"città"}},
	{Tags: []string{" spaced "}}, // not expressible as a TAG query
	{Tags: []string{"HR"}},       // tags are case-sensitive
	{Prefixes: []string{"handbook/"}, Tags: []string{"policy"}},
}

func TestLexicalExact(t *testing.T) {
	backends(t, func(t *testing.T, url string) {
		s := open(t, url, newCollection(t), fonte.StoreOptions{Settings: testSettings})
		c := corpus{}
		recs := searchCorpus(8)
		c.add(recs...)
		put(t, s, recs...)
		rng := rand.New(rand.NewPCG(1, 2))
		for qi := range 40 {
			n := 1 + rng.IntN(5)
			var terms []string
			for range n {
				terms = append(terms, vocabulary[rng.IntN(len(vocabulary))])
			}
			if qi%5 == 0 {
				terms = append(terms, terms[0], "absent-term") // repeats count each time; unknown terms add nothing
			}
			for _, f := range testFilters {
				for _, k := range []int{3, 10, 1000} {
					got, err := s.LexicalTopK(ctxT(t), fonte.LexicalQuery{Terms: terms, K: k, Filter: f})
					if err != nil {
						t.Fatal(err)
					}
					sameHits(t, fmt.Sprintf("query %v k %d filter %+v", terms, k, f), hitsOf(got), c.bm25(terms, k, f), 1e-12)
					for _, h := range got {
						if h.Lang != "en" || h.Chunk.Text == "" || h.Chunk.ID == "" || h.Chunk.Title == "" {
							t.Fatalf("hit without its chunk: %+v", h)
						}
					}
				}
			}
		}
	})
}

func TestTermStatsExact(t *testing.T) {
	backends(t, func(t *testing.T, url string) {
		s := open(t, url, newCollection(t), fonte.StoreOptions{Settings: testSettings})
		c := corpus{}
		recs := searchCorpus(8)
		c.add(recs...)
		put(t, s, recs...)
		terms := append([]string{"absent", "w00", "w00"}, vocabulary[10:20]...)
		want := fonte.TermStats{DF: make([]int, len(terms))}
		for _, ch := range c.chunks() {
			want.Chunks++
			want.TotalTerms += int64(len(ch.terms))
			for i, t := range terms {
				if strings.Contains(" "+strings.Join(ch.terms, " ")+" ", " "+t+" ") {
					want.DF[i]++
				}
			}
		}
		check := func(what string) {
			got, err := s.TermStats(ctxT(t), terms, fonte.Filter{})
			if err != nil {
				t.Fatal(err)
			}
			if got.Chunks != want.Chunks || got.TotalTerms != want.TotalTerms || fmt.Sprint(got.DF) != fmt.Sprint(want.DF) {
				t.Fatalf("%s: TermStats = %+v, want %+v", what, got, want)
			}
		}
		check("at rest")
		// Mid-transaction the postings hold versions that are not live:
		// the statistics must not move.
		err := s.Update(ctxT(t), func(tx fonte.StoreTx) error {
			if err := tx.Put(ctxT(t), genDoc("handbook/hr/doc-00.md", 6, 8, 999)); err != nil {
				return err
			}
			if err := tx.Put(ctxT(t), genDoc("new/doc", 5, 8, 998)); err != nil {
				return err
			}
			check("during a transaction")
			return fmt.Errorf("abandoned")
		})
		if err == nil || err.Error() != "abandoned" {
			t.Fatalf("Update = %v", err)
		}
		check("after an abandoned transaction")
	})
}

func TestVectorFlatExact(t *testing.T) {
	backends(t, func(t *testing.T, url string) {
		s := open(t, url, newCollection(t), fonte.StoreOptions{Settings: testSettings})
		c := corpus{}
		recs := searchCorpus(8)
		c.add(recs...)
		put(t, s, recs...)
		if st, _ := s.Status(ctxT(t)); !strings.HasPrefix(st.Dense, "FLAT") {
			t.Fatalf("Dense = %q, want FLAT", st.Dense)
		}
		rng := rand.New(rand.NewPCG(3, 4))
		for range 15 {
			q := randVec(rng, 8)
			for _, f := range testFilters {
				for _, k := range []int{1, 5, 100} {
					got, err := s.VectorTopK(ctxT(t), fonte.VectorQuery{Vector: q, K: k, Filter: f})
					if err != nil {
						t.Fatal(err)
					}
					sameHits(t, fmt.Sprintf("k %d filter %+v", k, f), hitsOf(got), c.knn(q, k, f), 1e-9)
				}
			}
		}
		if _, err := s.VectorTopK(ctxT(t), fonte.VectorQuery{Vector: make([]float32, 3), K: 1}); err == nil || !strings.Contains(err.Error(), "dimension 3") {
			t.Fatalf("a query of the wrong dimension: %v", err)
		}
	})
}

// TestVectorWideFilter filters on a prefix matching more documents than a
// query pins one by one, not at a '/': the engine narrows, fonte checks.
func TestVectorWideFilter(t *testing.T) {
	backends(t, func(t *testing.T, url string) {
		s := open(t, url, newCollection(t), fonte.StoreOptions{Settings: testSettings})
		c := corpus{}
		var recs []fonte.Record
		for i := range 4*maxPinned + 40 {
			prefix := []string{"a/item-1", "a/item-2", "b/item-1", "x-item-"}[i%4]
			recs = append(recs, genDoc(fmt.Sprintf("%s%03d", prefix, i), 1, 8, uint64(i)))
		}
		c.add(recs...)
		put(t, s, recs...)
		rng := rand.New(rand.NewPCG(5, 6))
		for _, f := range []fonte.Filter{{Prefixes: []string{"a/item-"}}, {Prefixes: []string{"a/item-1"}}, {Prefixes: []string{"a/item-1", "b/"}},
			{Prefixes: []string{"x-"}}, {Prefixes: []string{"x-item-1", "a/item-2"}}, {Prefixes: []string{"item"}}} {
			for range 5 {
				q := randVec(rng, 8)
				got, err := s.VectorTopK(ctxT(t), fonte.VectorQuery{Vector: q, K: 20, Filter: f})
				if err != nil {
					t.Fatal(err)
				}
				sameHits(t, fmt.Sprintf("filter %+v", f), hitsOf(got), c.knn(q, 20, f), 1e-9)
			}
		}
	})
}

// openHNSWAbove300 opens a new collection of vectors of dim whose index
// is HNSW from 300 chunks on.
func openHNSWAbove300(t *testing.T, url string, dim int) *Store {
	set := testSettings
	set.Dim = dim
	return open(t, url, newCollection(t), fonte.StoreOptions{Settings: set}, "hnsw_above=300")
}

func TestVectorHNSW(t *testing.T) {
	backends(t, func(t *testing.T, url string) {
		const dim = 16
		s := openHNSWAbove300(t, url, dim)
		c := corpus{}
		var first, second []fonte.Record
		for i := range 150 {
			r := genDoc(fmt.Sprintf("d/%03d", i), 2, dim, uint64(i))
			c.add(r)
			if i < 50 {
				first = append(first, r)
			} else {
				second = append(second, r)
			}
		}
		put(t, s, first...) // 100 chunks: FLAT
		if st, _ := s.Status(ctxT(t)); !strings.HasPrefix(st.Dense, "FLAT") {
			t.Fatalf("Dense = %q, want FLAT below the threshold", st.Dense)
		}
		put(t, s, second...) // 300 chunks: the index is replaced by an HNSW one
		st, _ := s.Status(ctxT(t))
		if !strings.HasPrefix(st.Dense, "HNSW") {
			t.Fatalf("Dense = %q, want HNSW from the threshold on", st.Dense)
		}
		if idx, _ := s.listIndexes(ctxT(t)); len(idx) != 1 {
			t.Fatalf("indexes: %v, want the HNSW one only", idx)
		}
		rng := rand.New(rand.NewPCG(7, 8))
		found, total := 0, 0
		for range 30 {
			q := randVec(rng, dim)
			got, err := s.VectorTopK(ctxT(t), fonte.VectorQuery{Vector: q, K: 10})
			if err != nil {
				t.Fatal(err)
			}
			want := c.knn(q, 10, fonte.Filter{})
			in := map[string]bool{}
			for _, h := range want {
				in[fmt.Sprint(h.doc, h.pos)] = true
			}
			for _, h := range hitsOf(got) {
				if in[fmt.Sprint(h.doc, h.pos)] {
					found++
				}
			}
			total += len(want)
		}
		if recall := float64(found) / float64(total); recall < 0.95 {
			t.Fatalf("HNSW recall@10 = %.3f", recall)
		} else {
			t.Logf("HNSW recall@10 = %.3f", recall)
		}
	})
}

// TestVectorRestrictedExact: over an HNSW index, a restricted reader's
// dense hits are the exact ones among the chunks it may read (the access
// restriction in the engine's pre-filter, the KNN by brute force), alone
// or with a prefix, on a node and a cluster.
func TestVectorRestrictedExact(t *testing.T) {
	backends(t, func(t *testing.T, url string) {
		const dim = 16
		s := openHNSWAbove300(t, url, dim)
		c := corpus{}
		var recs []fonte.Record
		labels := [][]string{nil, {"hr"}, {"fin"}, {"hr", "fin"}, {"legal"}}
		for i := range 240 {
			recs = append(recs, genDoc(fmt.Sprintf("d%d/%03d", i%3, i), 2, dim, uint64(i), accessTags(labels[i%len(labels)])...))
		}
		c.add(recs...)
		put(t, s, recs...)
		if st, _ := s.Status(ctxT(t)); !strings.HasPrefix(st.Dense, "HNSW") {
			t.Fatalf("Dense = %q, want HNSW", st.Dense)
		}
		rng := rand.New(rand.NewPCG(21, 21))
		for _, f := range []fonte.Filter{{Restricted: true}, {Restricted: true, Labels: []string{"fin"}},
			{Restricted: true, Labels: []string{"hr", "legal"}}, {Restricted: true, Prefixes: []string{"d1/"}}} {
			for range 10 {
				q := randVec(rng, dim)
				got, err := s.VectorTopK(ctxT(t), fonte.VectorQuery{Vector: q, K: 20, Filter: f})
				if err != nil {
					t.Fatal(err)
				}
				sameHits(t, fmt.Sprintf("reader %+v", f), hitsOf(got), c.knn(q, 20, f), 1e-9)
			}
		}
	})
}

// TestRestrictedKNNScansReadable: over an HNSW index large enough that
// the engine would search a filtered KNN in batches of graph results, a
// restricted reader's KNN is a brute force over the readable chunks:
// FT.PROFILE of the query the store sends shows the pre-filter's
// iterator read every readable chunk and no batch; an unrestricted one
// still walks the graph.
func TestRestrictedKNNScansReadable(t *testing.T) {
	s := openHNSWAbove300(t, singleURL, 16)
	var recs []fonte.Record
	readable := 0
	for i := range 3000 {
		var tags []string
		if i%10 == 0 {
			tags = accessTags([]string{"hr"})
		} else {
			readable += 2
		}
		recs = append(recs, genDoc(fmt.Sprintf("d/%04d", i), 2, 16, uint64(i), tags...))
	}
	put(t, s, recs...)
	q := vectorBytes(randVec(rand.New(rand.NewPCG(1, 1)), 16))
	profile := func(f fonte.Filter) string {
		var out string
		err := s.read(ctxT(t), "profile", func(st *state) error {
			args := knnArgs(st, engineFilter(st, f, false), q, 10)
			r, err := s.rdb.Do(ctxT(t), append([]any{"FT.PROFILE", st.index, "SEARCH", "QUERY"}, args[2:]...)...).Slice()
			if err != nil {
				return err
			}
			out = fmt.Sprint(r[len(r)-1])
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if p := profile(fonte.Filter{Restricted: true}); strings.Contains(p, "Batches") || !strings.Contains(p, fmt.Sprintf("Counter %d ", readable)) {
		t.Fatalf("a restricted reader's KNN does not read the %d readable chunks by brute force:\n%s", readable, p)
	}
	if p := profile(fonte.Filter{}); strings.Contains(p, "Child iterator") {
		t.Fatalf("an unrestricted reader's KNN is filtered:\n%s", p)
	}
}
