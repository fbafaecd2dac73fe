package redis

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fonte-rag/fonte"
)

func TestOpenReopen(t *testing.T) {
	backends(t, func(t *testing.T, url string) {
		coll := newCollection(t)
		s := open(t, url, coll, fonte.StoreOptions{Settings: testSettings})
		if got, err := s.Settings(ctxT(t)); err != nil || !got.IsZero() {
			t.Fatalf("Settings of a new collection = %+v, %v; want zero", got, err)
		}
		st, err := s.Status(ctxT(t))
		if err != nil {
			t.Fatal(err)
		}
		wantBackend := "redis"
		if url == clusterURL {
			wantBackend = "redis-cluster"
		}
		if st.Backend != wantBackend || st.Generation != 0 || st.Documents != 0 {
			t.Fatalf("Status of a new collection = %+v", st)
		}
		put(t, s, genDoc("a/one", 3, 8, 1), genDoc("a/two", 2, 8, 2))
		s.Close()

		for _, o := range []fonte.StoreOptions{{Settings: testSettings}, {ReadOnly: true}} {
			r := open(t, url, coll, o)
			got, err := r.Settings(ctxT(t))
			if err != nil || got != testSettings {
				t.Fatalf("Settings after reopening = %+v, %v; want %+v", got, err, testSettings)
			}
			st, err := r.Status(ctxT(t))
			if err != nil {
				t.Fatal(err)
			}
			if st.Backend != wantBackend || st.Generation != 1 || st.Documents != 2 || st.Chunks != 5 || st.Committed.IsZero() ||
				!strings.Contains(st.Dense, "FLAT") || !strings.Contains(st.Lexical, "BM25") {
				t.Fatalf("Status after reopening = %+v", st)
			}
			docs, err := r.Documents(ctxT(t))
			if err != nil {
				t.Fatal(err)
			}
			if len(docs) != 2 || docs[0].ID != "a/one" || docs[1].ID != "a/two" || docs[0].Chunks != 3 || docs[0].Bytes == 0 {
				t.Fatalf("Documents = %+v", docs)
			}
		}
		ro := open(t, url, coll, fonte.StoreOptions{ReadOnly: true})
		mustErrIs(t, ro.Update(ctxT(t), func(fonte.StoreTx) error { return nil }), fonte.ErrReadOnly)
		mustErrIs(t, ro.Purge(ctxT(t)), fonte.ErrReadOnly)
	})
}

// TestClusterBySingleAddress opens a cluster named by one of its nodes:
// INFO cluster tells, and the store works as a cluster.
func TestClusterBySingleAddress(t *testing.T) {
	t.Parallel()
	first, _, _ := strings.Cut(clusterURL, "?")
	coll := newCollection(t)
	s := open(t, first, coll, fonte.StoreOptions{Settings: testSettings})
	if s.Backend() != "redis-cluster" {
		t.Fatalf("Backend = %q for %s", s.Backend(), first)
	}
	var recs []fonte.Record
	for i := range 12 {
		recs = append(recs, genDoc(fmt.Sprintf("d%02d", i), 2, 8, uint64(i)))
	}
	put(t, s, recs...)
	st, err := s.Status(ctxT(t))
	if err != nil || st.Backend != "redis-cluster" || st.Chunks != 24 {
		t.Fatalf("Status = %+v, %v", st, err)
	}
	if _, err := Open(ctxT(t), first+"/2?collection=x", fonte.StoreOptions{}); err == nil || !strings.Contains(err.Error(), "database 0") {
		t.Fatalf("a cluster URL naming database 2: %v", err)
	}
}

func TestNewerFormatRefused(t *testing.T) {
	backends(t, func(t *testing.T, url string) {
		coll := newCollection(t)
		s := open(t, url, coll, fonte.StoreOptions{Settings: testSettings})
		put(t, s, genDoc("a", 1, 8, 1))
		raw := `{"format":99,"settings":{"analyzer":"a","chunker":"c","embedder":"e","dim":8}}`
		if err := s.rdb.Set(ctxT(t), s.k.settings(), raw, 0).Err(); err != nil {
			t.Fatal(err)
		}
		_, err := Open(ctxT(t), withParams(url, "collection="+coll), fonte.StoreOptions{})
		mustErrIs(t, err, fonte.ErrStoreVersion)
		_, err = s.Status(ctxT(t))
		mustErrIs(t, err, fonte.ErrStoreVersion)
		_, err = Open(ctxT(t), withParams(url, "collection="+coll), fonte.StoreOptions{Rebuild: true})
		mustErrIs(t, err, fonte.ErrInvalidSettings)
	})
}

func TestURL(t *testing.T) {
	for _, bad := range []string{"http://x:1", "redis://h:1?collection=a:b", "redis://h:1?collection=", "redis://h:1?hnsw_above=0", "redis://:pw@h:1?lock_timeout=x",
		"redis://:pw@h:1?wait_replicas=-1", "redis://:pw@h:1?wait_replicas=one", "redis://:pw@h:1?wait_timeout=0s"} {
		_, err := parseURL(bad)
		if err == nil {
			t.Errorf("parseURL(%q) succeeded", bad)
		} else if strings.Contains(err.Error(), "pw") {
			t.Errorf("parseURL(%q): error %q shows the password", bad, err)
		}
	}
	c, err := parseURL("redis://:secret@h:7?collection=docs&hnsw_above=10&addr=h:8&dial_timeout=3&wait_replicas=1&wait_timeout=2s")
	if err != nil {
		t.Fatal(err)
	}
	if c.collection != "docs" || c.hnswAbove != 10 || !c.cluster || !slices.Equal(c.addrs, []string{"h:7", "h:8"}) ||
		c.waitReplicas != 1 || c.waitTimeout != 2*time.Second || strings.Contains(c.rest, "wait_") ||
		strings.Contains(c.rest, "collection") || strings.Contains(c.rest, "hnsw") || strings.Contains(c.location, "secret") {
		t.Fatalf("parseURL = %+v", c)
	}
}

func TestSettingsMismatch(t *testing.T) {
	backends(t, func(t *testing.T, url string) {
		coll := newCollection(t)
		other := testSettings
		other.Embedder, other.Dim = "other-embedder/4", 4
		// Both open an empty collection; the first commit decides.
		s1 := open(t, url, coll, fonte.StoreOptions{Settings: testSettings})
		s2 := open(t, url, coll, fonte.StoreOptions{Settings: other})
		put(t, s1, genDoc("d1", 2, 8, 1))
		err := s2.Update(ctxT(t), func(tx fonte.StoreTx) error { return tx.Put(ctxT(t), genDoc("x", 1, 4, 9)) })
		mustErrIs(t, err, fonte.ErrSettingsMismatch)
		if !strings.Contains(err.Error(), "dim: stored 8, requested 4") {
			t.Fatalf("mismatch error does not name the field: %v", err)
		}
		_, err = Open(ctxT(t), withParams(url, "collection="+coll), fonte.StoreOptions{Settings: other})
		mustErrIs(t, err, fonte.ErrSettingsMismatch)

		// A rebuild replaces everything, with the new dimension.
		r := open(t, url, coll, fonte.StoreOptions{Settings: other, Rebuild: true})
		base := []fonte.DocInfo{{ID: "sentinel"}}
		err = r.Update(ctxT(t), func(tx fonte.StoreTx) error {
			var err error
			if base, err = tx.Base(ctxT(t)); err != nil {
				return err
			}
			return tx.Put(ctxT(t), genDoc("n1", 3, 4, 5))
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(base) != 0 {
			t.Fatalf("a rebuild's Base = %v, want none", base)
		}
		if got, _ := s1.Settings(ctxT(t)); got != other {
			t.Fatalf("settings after the rebuild = %+v", got)
		}
		docs, err := s1.Documents(ctxT(t))
		if err != nil || len(docs) != 1 || docs[0].ID != "n1" {
			t.Fatalf("Documents after the rebuild = %v, %v", docs, err)
		}
		res, err := r.VectorTopK(ctxT(t), fonte.VectorQuery{Vector: genDoc("n1", 3, 4, 5).Vectors[1], K: 1})
		if err != nil || len(res) != 1 || res[0].Chunk.DocID != "n1" || math.Abs(res[0].Score-1) > 1e-6 {
			t.Fatalf("VectorTopK after the rebuild = %+v, %v", res, err)
		}
		// The old document's keys are gone, and its index.
		for _, key := range collectionKeys(t, r) {
			if strings.Contains(key, ":c:") || strings.Contains(key, ":d:") {
				ver, _, _ := r.k.parseDataKey(key)
				if st, _ := r.load(ctxT(t)); st.byVer[ver] != "n1" {
					t.Fatalf("key %s of the replaced index is left", key)
				}
			}
		}
		idx, err := r.listIndexes(ctxT(t))
		if err != nil || len(idx) != 1 {
			t.Fatalf("indexes after the rebuild: %v, %v", idx, err)
		}
	})
}

func TestPutValidation(t *testing.T) {
	backends(t, func(t *testing.T, url string) {
		s := open(t, url, newCollection(t), fonte.StoreOptions{Settings: testSettings})
		good := func() fonte.Record { return genDoc("doc", 3, 8, 1) }
		cases := []struct {
			name   string
			mutate func(r *fonte.Record)
			want   string
		}{
			{"no id", func(r *fonte.Record) { r.Doc.ID = "" }, "needs an ID"},
			{"vectors", func(r *fonte.Record) { r.Vectors = r.Vectors[:2] }, "3 chunks but 2 vectors"},
			{"terms", func(r *fonte.Record) { r.Terms = r.Terms[:1] }, "3 chunks but 1 term lists"},
			{"hashes", func(r *fonte.Record) { r.TextHashes = r.TextHashes[:1] }, "3 chunks but 1 text hashes"},
			{"dim", func(r *fonte.Record) { r.Vectors[1] = r.Vectors[1][:5] }, `chunk 1 ("doc#3") has a vector of 5 entries`},
			{"nan", func(r *fonte.Record) { r.Vectors[2][4] = float32(math.NaN()) }, `chunk 2 ("doc#5") has the non-finite value NaN at vector entry 4`},
			{"inf", func(r *fonte.Record) { r.Vectors[0][0] = float32(math.Inf(1)) }, "non-finite value +Inf"},
			{"order", func(r *fonte.Record) { r.Chunks[2].Position = 1 }, "has Position 1 after 3"},
			{"owner", func(r *fonte.Record) { r.Chunks[0].DocID = "other" }, `belongs to document "other"`},
		}
		err := s.Update(ctxT(t), func(tx fonte.StoreTx) error {
			for _, c := range cases {
				r := good()
				c.mutate(&r)
				err := tx.Put(ctxT(t), r)
				if !errors.Is(err, fonte.ErrInvalidRecord) || !strings.Contains(err.Error(), c.want) {
					t.Errorf("%s: Put = %v, want ErrInvalidRecord mentioning %q", c.name, err, c.want)
				}
				if c.name != "no id" && !strings.Contains(err.Error(), `document "doc"`) {
					t.Errorf("%s: %v does not name the document", c.name, err)
				}
			}
			return tx.Put(ctxT(t), good())
		})
		if err != nil {
			t.Fatal(err)
		}
		// Refused records wrote nothing.
		if keys := collectionKeys(t, s); slices.ContainsFunc(keys, func(k string) bool {
			return strings.Contains(k, ":d:") && !strings.HasSuffix(k, ":d:"+fmtVer(mustVer(t, s, "doc")))
		}) {
			t.Fatalf("keys of refused records: %v", keys)
		}
	})
}

func mustVer(t *testing.T, s *Store, id string) uint64 {
	t.Helper()
	st, err := s.load(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	e, ok := st.docs[id]
	if !ok {
		t.Fatalf("document %q is not live", id)
	}
	return e.V
}

func TestDocumentRoundTrip(t *testing.T) {
	backends(t, func(t *testing.T, url string) {
		s := open(t, url, newCollection(t), fonte.StoreOptions{Settings: testSettings})
		r := genDoc("dir/sub/doc.md", 4, 8, 3, "Alpha", "beta gamma")
		r.Terms[1] = []string{"with space", "", "x"} // kept exactly though a space join would lose them
		r.Chunks[2].Headings = nil
		put(t, s, r)
		got, err := s.Document(ctxT(t), r.Doc.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !got.Doc.Updated.Equal(r.Doc.Updated) {
			t.Fatalf("Updated = %v, want %v", got.Doc.Updated, r.Doc.Updated)
		}
		got.Doc.Updated = r.Doc.Updated
		if !reflect.DeepEqual(got, r) {
			t.Fatalf("Document round trip:\n got %+v\nwant %+v", got, r)
		}
		_, err = s.Document(ctxT(t), "missing")
		mustErrIs(t, err, fonte.ErrNotFound)
	})
}

func TestCollectionsIsolated(t *testing.T) {
	backends(t, func(t *testing.T, url string) {
		c1, c2 := newCollection(t), newCollection(t)
		s1 := open(t, url, c1, fonte.StoreOptions{Settings: testSettings})
		s2 := open(t, url, c2, fonte.StoreOptions{Settings: testSettings})
		a, b := genDoc("same/id", 2, 8, 1), genDoc("same/id", 3, 8, 2)
		put(t, s1, a)
		put(t, s2, b, genDoc("only/two", 1, 8, 3))
		d1, _ := s1.Documents(ctxT(t))
		d2, _ := s2.Documents(ctxT(t))
		if len(d1) != 1 || d1[0].Chunks != 2 || len(d2) != 2 {
			t.Fatalf("documents: %v / %v", d1, d2)
		}
		q := fonte.VectorQuery{Vector: b.Vectors[2], K: 10}
		res, err := s1.VectorTopK(ctxT(t), q)
		if err != nil || len(res) != 2 {
			t.Fatalf("collection 1 sees %d chunks (%v)", len(res), err)
		}
		lex, err := s1.LexicalTopK(ctxT(t), fonte.LexicalQuery{Terms: vocabulary[:30], K: 100})
		if err != nil || len(lex) > 2 {
			t.Fatalf("collection 1's lexical leg sees %d chunks (%v)", len(lex), err)
		}
		ts, _ := s1.TermStats(ctxT(t), []string{"w00"}, fonte.Filter{})
		if ts.Chunks != 2 {
			t.Fatalf("collection 1's term stats count %d chunks", ts.Chunks)
		}
		// Deleting everything in one leaves the other whole.
		if err := s2.Update(ctxT(t), func(tx fonte.StoreTx) error {
			tx.Delete(ctxT(t), "same/id")
			_, err := tx.Delete(ctxT(t), "only/two")
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if err := s2.Purge(ctxT(t)); err != nil {
			t.Fatal(err)
		}
		if got, err := s1.Document(ctxT(t), "same/id"); err != nil || len(got.Chunks) != 2 {
			t.Fatalf("collection 1 after collection 2 emptied: %v", err)
		}
		for _, key := range collectionKeys(t, s2) {
			if !strings.HasPrefix(key, s2.k.slot) {
				t.Fatalf("emptied collection keeps %s", key)
			}
		}
		_ = context.Background
	})
}
