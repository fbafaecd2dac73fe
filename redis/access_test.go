package redis

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

// accessSets are the tag sets the access tests' documents carry: none,
// one label, two, the bare prefix (no label), a label the engine cannot
// match, and other tags beside them.
var accessSets = [][]string{nil, {"access:hr"}, {"access:eng", "policy"}, {"access:eng", "access:hr"},
	{"access:"}, {"access:bad\x01"}, {"access:hr", "access:bad\x01"}, {"access:board"}}

// accessCorpus makes n documents under a few folders, each with one of
// accessSets.
func accessCorpus(prefix string, n int, seed uint64) []fonte.Record {
	r := rand.New(rand.NewPCG(seed, 3))
	var recs []fonte.Record
	for i := range n {
		id := fmt.Sprintf("%s%s/doc-%03d.md", prefix, []string{"hr", "eng", "misc"}[i%3], i)
		recs = append(recs, genDoc(id, 1+r.IntN(4), 8, seed*1000+uint64(i), accessSets[r.IntN(len(accessSets))]...))
	}
	return recs
}

// accessReaders are the restricted readers the access tests run.
var accessReaders = []fonte.Filter{
	{Restricted: true},
	{Restricted: true, Labels: []string{"hr"}},
	{Restricted: true, Labels: []string{"eng"}},
	{Restricted: true, Labels: []string{"hr", "eng", "hr"}},
	{Restricted: true, Labels: []string{"bad\x01"}},
	{Restricted: true, Labels: []string{"board"}, Prefixes: []string{"eng/"}},
	{Restricted: true, Labels: []string{"nosuch"}, Tags: []string{"policy"}},
}

// checkReaders checks every reader's statistics, lexical hits and dense
// hits against the chunks it may read alone: BM25 with their statistics,
// and an exact KNN.
func checkReaders(t *testing.T, s *Store, c corpus, what string) {
	t.Helper()
	terms := append([]string{"absent", "w00", "w00"}, vocabulary[5:25]...)
	rng := rand.New(rand.NewPCG(5, 6))
	for _, f := range accessReaders {
		readable := corpus{}
		for _, r := range c {
			if f.Readable(r.Doc.Tags) {
				readable.add(r)
			}
		}
		want := fonte.TermStats{DF: make([]int, len(terms))}
		for _, ch := range readable.chunks() {
			want.Chunks++
			want.TotalTerms += int64(len(ch.terms))
			for i, t := range terms {
				if slices.Contains(ch.terms, t) {
					want.DF[i]++
				}
			}
		}
		got, err := s.TermStats(ctxT(t), terms, fonte.Filter{Restricted: true, Labels: f.Labels})
		if err != nil {
			t.Fatal(err)
		}
		if got.Chunks != want.Chunks || got.TotalTerms != want.TotalTerms || !slices.Equal(got.DF, want.DF) {
			t.Fatalf("%s, reader %+v: TermStats = %+v, want %+v", what, f, got, want)
		}
		for qi := range 12 {
			q := []string{vocabulary[rng.IntN(len(vocabulary))], vocabulary[rng.IntN(20)]}
			if qi%4 == 0 {
				q = append(q, q[0], "absent")
			}
			for _, k := range []int{1, 5, 1000} {
				got, err := s.LexicalTopK(ctxT(t), fonte.LexicalQuery{Terms: q, K: k, Filter: f})
				if err != nil {
					t.Fatal(err)
				}
				sameHits(t, fmt.Sprintf("%s, reader %+v, lexical %q k %d", what, f, q, k), hitsOf(got), readable.bm25(q, k, f), 1e-12)
			}
			v := randVec(rng, 8)
			for _, k := range []int{1, 7, 1000} {
				got, err := s.VectorTopK(ctxT(t), fonte.VectorQuery{Vector: v, K: k, Filter: f})
				if err != nil {
					t.Fatal(err)
				}
				sameHits(t, fmt.Sprintf("%s, reader %+v, vector k %d", what, f, k), hitsOf(got), c.knn(v, k, f), 1e-9)
			}
		}
	}
}

// restrictedReaders runs checkReaders after a first commit, after one
// that replaces documents (moving them between access classes), deletes
// some and adds others, and after one that empties a class.
func restrictedReaders(t *testing.T, url string) {
	s := open(t, url, newCollection(t), fonte.StoreOptions{Settings: testSettings})
	c := corpus{}
	recs := accessCorpus("", 40, 1)
	c.add(recs...)
	put(t, s, recs...)
	checkReaders(t, s, c, "first commit")

	more := accessCorpus("", 40, 2) // the same IDs, other labels and text
	err := s.Update(ctxT(t), func(tx fonte.StoreTx) error {
		for _, r := range more[:12] {
			if err := tx.Put(ctxT(t), r); err != nil {
				return err
			}
			c.add(r)
		}
		for _, r := range recs[12:20] {
			if _, err := tx.Delete(ctxT(t), r.Doc.ID); err != nil {
				return err
			}
			delete(c, r.Doc.ID)
		}
		for _, r := range accessCorpus("new/", 10, 3) {
			if err := tx.Put(ctxT(t), r); err != nil {
				return err
			}
			c.add(r)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	checkReaders(t, s, c, "after changes")

	err = s.Update(ctxT(t), func(tx fonte.StoreTx) error {
		for id, r := range c {
			if slices.Contains(r.Doc.Tags, "access:board") {
				if _, err := tx.Delete(ctxT(t), id); err != nil {
					return err
				}
				delete(c, id)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	checkReaders(t, s, c, "after a class emptied")
}

// TestRestrictedReadersExact: a restricted reader's statistics, lexical
// and dense hits, made from the generation's access classes and the
// pre-filter naming what it may read, are those of the chunks it may
// read alone, on a node and a cluster.
func TestRestrictedReadersExact(t *testing.T) {
	backends(t, restrictedReaders)
}

// TestRestrictedReadersExactExclusion: the same with the other form of
// the pre-filter, which keeps out the labels hidden documents carry (what
// a collection with many unlabelled documents gets). Not parallel: it
// lowers maxPinnedAccess, which parallel tests read.
func TestRestrictedReadersExactExclusion(t *testing.T) {
	defer func(n int) { maxPinnedAccess = n }(maxPinnedAccess)
	maxPinnedAccess = 0
	for _, b := range []struct{ name, url string }{{"single", singleURL}, {"cluster", clusterURL}} {
		t.Run(b.name, func(t *testing.T) {
			s := open(t, b.url, newCollection(t), fonte.StoreOptions{Settings: testSettings})
			c := corpus{}
			recs := accessCorpus("", 30, 4)
			c.add(recs...)
			put(t, s, recs...)
			st, err := s.stateAt(ctxT(t), 0)
			if err != nil {
				t.Fatal(err)
			}
			if e := accessExpr(st, fonte.Filter{Restricted: true, Labels: []string{"hr"}}); !strings.Contains(e, "-@") {
				t.Fatalf("the exclusion form was not chosen: %q", e)
			}
			checkReaders(t, s, c, "exclusion form")
		})
	}
}
