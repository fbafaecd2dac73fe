package postgres

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/fonte-rag/fonte"
)

func TestSettingsMismatchAndRebuild(t *testing.T) {
	ctx := context.Background()
	u := newCollection(t)
	s := open(t, u, fonte.StoreOptions{Settings: testSettings})
	put(t, s, record("old.md", 4, "old text here"))

	other := fonte.IndexSettings{Analyzer: testSettings.Analyzer, Chunker: "test/v2", Embedder: "hash/8", Dim: 8}
	s2 := open(t, u, fonte.StoreOptions{Settings: other})
	err := s2.Update(ctx, func(tx fonte.StoreTx) error { return tx.Put(ctx, record("new.md", 8, "new")) })
	if !errors.Is(err, fonte.ErrSettingsMismatch) {
		t.Fatalf("Update with other settings: %v, want ErrSettingsMismatch", err)
	}
	for _, want := range []string{`chunker: stored "test/v1", requested "test/v2"`, "dim: stored 4, requested 8", "fonte index --rebuild"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("mismatch error %q does not say %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "analyzer") {
		t.Errorf("mismatch error names a field that matches: %q", err)
	}

	// A rebuild with another dimension: readers keep the old index until
	// the commit, which replaces it whole.
	rb := open(t, u, fonte.StoreOptions{Settings: other, Rebuild: true})
	reader := open(t, u, fonte.StoreOptions{ReadOnly: true})
	err = rb.Update(ctx, func(tx fonte.StoreTx) error {
		base, err := tx.Base(ctx)
		if err != nil || len(base) != 0 {
			t.Errorf("rebuild Base = %v, %v; want empty", base, err)
		}
		return tx.Put(ctx, record("new.md", 8, "brand new text"))
	})
	if err != nil {
		t.Fatalf("rebuild: %v", err)
	}
	if st, _ := reader.Settings(ctx); st != other {
		t.Fatalf("settings after rebuild = %+v", st)
	}
	docs, err := reader.Documents(ctx)
	if err != nil || len(docs) != 1 || docs[0].ID != "new.md" {
		t.Fatalf("documents after rebuild = %+v, %v", docs, err)
	}
	if st := status(t, reader); st.Generation != 2 || st.Chunks != 1 {
		t.Fatalf("status after rebuild: %+v", st)
	}
	hits, err := reader.VectorTopK(ctx, fonte.VectorQuery{Vector: vecOf("brand new text", 8), K: 3})
	if err != nil || len(hits) != 1 || hits[0].Chunk.DocID != "new.md" || math.Abs(hits[0].Score-1) > 1e-6 {
		t.Fatalf("vector search after rebuild = %+v, %v", hits, err)
	}
	lex, err := reader.LexicalTopK(ctx, fonte.LexicalQuery{Terms: []string{"brand"}, K: 3})
	if err != nil || len(lex) != 1 {
		t.Fatalf("lexical search after rebuild = %+v, %v", lex, err)
	}
	// The rebuild is done: the same store now updates incrementally.
	put(t, rb, record("more.md", 8, "more"))
	if st := status(t, reader); st.Generation != 3 || st.Documents != 2 {
		t.Fatalf("status after the next update: %+v", st)
	}
	// And the first store, with the old settings, is now the mismatch.
	err = s.Update(ctx, func(tx fonte.StoreTx) error { _, err := tx.Delete(ctx, "new.md"); return err })
	if !errors.Is(err, fonte.ErrSettingsMismatch) {
		t.Fatalf("old settings after rebuild: %v", err)
	}
}

func TestRebuildRolledBack(t *testing.T) {
	ctx := context.Background()
	u := newCollection(t)
	put(t, open(t, u, fonte.StoreOptions{Settings: testSettings}), record("keep.md", 4, "kept"))
	rb := open(t, u, fonte.StoreOptions{Settings: testSettings, Rebuild: true})
	boom := errors.New("boom")
	err := rb.Update(ctx, func(tx fonte.StoreTx) error {
		if err := tx.Put(ctx, record("x.md", 4, "x")); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Update = %v, want boom", err)
	}
	docs, _ := rb.Documents(ctx)
	if len(docs) != 1 || docs[0].ID != "keep.md" {
		t.Fatalf("after a failed rebuild: %+v", docs)
	}
	c := rawConn(t)
	if n := count(t, c, "SELECT count(*) FROM pg_namespace WHERE nspname = $1", stagingName(collectionOf(t, u))); n != 0 {
		t.Fatalf("the rebuild schema outlived its rollback")
	}
	// The store is still rebuilding: its next Update replaces the index.
	put(t, rb, record("y.md", 4, "y"))
	if docs, _ := rb.Documents(ctx); len(docs) != 1 || docs[0].ID != "y.md" {
		t.Fatalf("after the rebuild: %+v", docs)
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	ctx := context.Background()
	u := newCollection(t)
	open(t, u, fonte.StoreOptions{Settings: testSettings}).Close()
	c := rawConn(t)
	_, err := c.Exec(ctx, "INSERT INTO "+quote(schemaName(collectionOf(t, u)))+".schema_migrations (version, description) VALUES (999, 'from the future')")
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []fonte.StoreOptions{{Settings: testSettings}, {ReadOnly: true}} {
		_, err := Open(ctx, u, o)
		if !errors.Is(err, fonte.ErrStoreVersion) {
			t.Fatalf("Open(%+v) of a newer schema: %v, want ErrStoreVersion", o, err)
		}
		for _, want := range []string{"schema version 999", fmt.Sprintf("up to %d", latestVersion), "upgrade fonte"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not say %q", err, want)
			}
		}
	}
}

func TestPutValidation(t *testing.T) {
	ctx := context.Background()
	s := open(t, newCollection(t), fonte.StoreOptions{Settings: testSettings})
	good := func() fonte.Record { return record("doc.md", 4, "one two", "three four", "five") }
	cases := []struct {
		name string
		edit func(r *fonte.Record)
		want string
	}{
		{"no ID", func(r *fonte.Record) { r.Doc.ID = "" }, "needs an ID"},
		{"vectors", func(r *fonte.Record) { r.Vectors = r.Vectors[:2] }, "3 chunks but 2 vectors"},
		{"dimension", func(r *fonte.Record) { r.Vectors[1] = []float32{1, 2} }, `chunk 1 ("doc.md#1") has a vector of 2 entries, the index stores dimension 4`},
		{"NaN", func(r *fonte.Record) { r.Vectors[2][3] = float32(math.NaN()) }, `chunk 2 ("doc.md#2") has the non-finite value NaN at vector entry 3`},
		{"Inf", func(r *fonte.Record) { r.Vectors[0][0] = float32(math.Inf(1)) }, "non-finite value +Inf"},
		{"position", func(r *fonte.Record) { r.Chunks[2].Position = 1 }, `chunk 2 ("doc.md#2") has Position 1 after 1`},
		{"terms", func(r *fonte.Record) { r.Terms = r.Terms[:1] }, "3 chunks but 1 term lists"},
		{"no terms", func(r *fonte.Record) { r.Terms = nil }, "3 chunks but 0 term lists"},
		{"hashes", func(r *fonte.Record) { r.TextHashes = r.TextHashes[:1] }, "3 chunks but 1 text hashes"},
		{"chunk of another document", func(r *fonte.Record) { r.Chunks[1].DocID = "other.md" }, `chunk 1 ("doc.md#1") belongs to document "other.md"`},
		{"NUL in text", func(r *fonte.Record) { r.Doc.Text = "a\x00b" }, "its text is not valid UTF-8 or holds a NUL byte"},
		{"invalid UTF-8 chunk", func(r *fonte.Record) { r.Chunks[2].Text = "\xff" }, `chunk 2 ("doc.md#2") has text that is not valid UTF-8`},
		{"invalid term", func(r *fonte.Record) { r.Terms[0] = []string{"ok", "b\x00d"} }, `chunk 0 ("doc.md#0") has the term`},
	}
	err := s.Update(ctx, func(tx fonte.StoreTx) error {
		for _, c := range cases {
			r := good()
			c.edit(&r)
			err := tx.Put(ctx, r)
			if !errors.Is(err, fonte.ErrInvalidRecord) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: Put = %v, want ErrInvalidRecord saying %q", c.name, err, c.want)
			}
			if c.name != "no ID" && err != nil && !strings.Contains(err.Error(), `document "doc.md"`) {
				t.Errorf("%s: %q does not name the document", c.name, err)
			}
		}
		// A refused record leaves the transaction usable.
		return tx.Put(ctx, good())
	})
	if err != nil {
		t.Fatal(err)
	}
	if st := status(t, s); st.Documents != 1 || st.Chunks != 3 {
		t.Fatalf("status %+v", st)
	}
}

func TestAtomicity(t *testing.T) {
	ctx := context.Background()
	s := open(t, newCollection(t), fonte.StoreOptions{Settings: testSettings})
	put(t, s, record("a.md", 4, "apple"), record("b.md", 4, "banana"))
	before := status(t, s)
	beforeDocs, _ := s.Documents(ctx)

	// fn fails after writing: nothing of it stays.
	boom := errors.New("boom")
	err := s.Update(ctx, func(tx fonte.StoreTx) error {
		if err := tx.Put(ctx, record("c.md", 4, "cherry")); err != nil {
			return err
		}
		if _, err := tx.Delete(ctx, "a.md"); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Update = %v, want boom", err)
	}
	// A write fails (its context ends) and fn ignores it: Update still
	// fails, and nothing changes.
	wctx, cancel := context.WithCancel(ctx)
	err = s.Update(ctx, func(tx fonte.StoreTx) error {
		_ = tx.Put(ctx, record("d.md", 4, "date"))
		cancel()
		_ = tx.Put(wctx, record("e.md", 4, "elder"))
		return nil
	})
	if err == nil {
		t.Fatal("Update after a failed write succeeded")
	}
	// A cancelled context before the commit: nothing.
	cctx, cancel2 := context.WithCancel(ctx)
	err = s.Update(cctx, func(tx fonte.StoreTx) error {
		defer cancel2()
		return tx.Put(ctx, record("f.md", 4, "fig"))
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled Update = %v", err)
	}
	after := status(t, s)
	afterDocs, _ := s.Documents(ctx)
	if after.Generation != before.Generation || after.Chunks != before.Chunks || len(afterDocs) != len(beforeDocs) {
		t.Fatalf("failed updates changed the store: %+v -> %+v, %v", before, after, afterDocs)
	}
	ts, _ := s.TermStats(ctx, []string{"cherry", "apple"}, fonte.Filter{})
	if ts.DF[0] != 0 || ts.DF[1] != 1 || ts.Chunks != 2 {
		t.Fatalf("term stats after failed updates: %+v", ts)
	}

	// A commit is seen whole: every put and delete, one generation later.
	err = s.Update(ctx, func(tx fonte.StoreTx) error {
		for _, r := range []fonte.Record{record("c.md", 4, "cherry"), record("d.md", 4, "date", "dates")} {
			if err := tx.Put(ctx, r); err != nil {
				return err
			}
		}
		ok, err := tx.Delete(ctx, "a.md")
		if !ok || err != nil {
			t.Errorf("Delete(a.md) = %v, %v", ok, err)
		}
		ok, err = tx.Delete(ctx, "nothing.md")
		if ok || err != nil {
			t.Errorf("Delete(nothing.md) = %v, %v", ok, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	docs, _ := s.Documents(ctx)
	var ids []string
	for _, d := range docs {
		ids = append(ids, d.ID)
	}
	if !slices.Equal(ids, []string{"b.md", "c.md", "d.md"}) {
		t.Fatalf("documents %v", ids)
	}
	if st := status(t, s); st.Generation != before.Generation+1 || st.Chunks != 4 || st.Documents != 3 {
		t.Fatalf("status %+v", st)
	}
	// A transaction that changes nothing commits nothing.
	if err := s.Update(ctx, func(tx fonte.StoreTx) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if st := status(t, s); st.Generation != before.Generation+1 {
		t.Fatalf("an empty transaction made generation %d", st.Generation)
	}
}

func TestIncrementalTouchesOnlyChanged(t *testing.T) {
	ctx := context.Background()
	u := newCollection(t)
	s := open(t, u, fonte.StoreOptions{Settings: testSettings})
	put(t, s, record("a.md", 4, "apple pie", "apple tart"), record("b.md", 4, "banana split"), record("c.md", 4, "cherry"))
	c := rawConn(t)
	schema := quote(schemaName(collectionOf(t, u)))
	rowVersions := func() map[string]string {
		rows, err := c.Query(ctx, "SELECT doc_id || '#' || position, xmin::text || '/' || gen FROM "+schema+".chunks")
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]string{}
		for rows.Next() {
			var k, v string
			if err := rows.Scan(&k, &v); err != nil {
				t.Fatal(err)
			}
			m[k] = v
		}
		return m
	}
	before := rowVersions()
	put(t, s, record("b.md", 4, "banana bread"))
	after := rowVersions()
	for _, k := range []string{"a.md#0", "a.md#1", "c.md#0"} {
		if before[k] != after[k] {
			t.Errorf("unchanged chunk %s was rewritten: %s -> %s", k, before[k], after[k])
		}
	}
	if before["b.md#0"] == after["b.md#0"] || !strings.HasSuffix(after["b.md#0"], "/2") {
		t.Errorf("changed chunk b.md#0: %s -> %s", before["b.md#0"], after["b.md#0"])
	}
	if n := count(t, c, "SELECT count(*) FROM "+schema+".documents WHERE doc_id = 'b.md'"); n != 1 {
		t.Errorf("b.md has %d document rows", n)
	}
}

func TestDeleteAndPurge(t *testing.T) {
	ctx := context.Background()
	u := newCollection(t)
	s := open(t, u, fonte.StoreOptions{Settings: testSettings})
	put(t, s, record("keep.md", 4, "shared words here"), record("gone.md", 4, "shared secretword", "more secretword text"))
	err := s.Update(ctx, func(tx fonte.StoreTx) error {
		ok, err := tx.Delete(ctx, "gone.md")
		if !ok {
			t.Error("Delete(gone.md) = false")
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	c := rawConn(t)
	schema := quote(schemaName(collectionOf(t, u)))
	for _, q := range []string{
		"SELECT count(*) FROM " + schema + ".documents WHERE doc_id = 'gone.md'",
		"SELECT count(*) FROM " + schema + ".chunks WHERE doc_id = 'gone.md'",
		"SELECT count(*) FROM " + schema + ".chunks WHERE body LIKE '%secretword%' OR 'secretword' = ANY(terms)",
		"SELECT count(*) FROM " + schema + ".term_df WHERE term IN ('secretword', 'more', 'text')",
	} {
		if n := count(t, c, q); n != 0 {
			t.Errorf("%s = %d after the delete", q, n)
		}
	}
	if _, err := s.Document(ctx, "gone.md"); !errors.Is(err, fonte.ErrNotFound) {
		t.Errorf("Document(gone.md) = %v", err)
	}
	if err := s.Purge(ctx); err != nil {
		t.Fatalf("Purge: %v", err)
	}
	// VACUUM FULL rebuilt pg_textsearch's index from live rows only.
	var summary string
	if err := c.QueryRow(ctx, "SELECT bm25_summarize_index($1)", schemaName(collectionOf(t, u))+"."+bm25Index).Scan(&summary); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(summary, "total_docs: 1\n") {
		t.Errorf("pg_textsearch counts deleted chunks after Purge:\n%s", summary)
	}
	hits, err := s.LexicalTopK(ctx, fonte.LexicalQuery{Terms: []string{"secretword", "shared"}, K: 5})
	if err != nil || len(hits) != 1 || hits[0].Chunk.DocID != "keep.md" {
		t.Fatalf("search after purge: %+v, %v", hits, err)
	}
}

func TestVectorsAreTheBaseGeneration(t *testing.T) {
	ctx := context.Background()
	u := newCollection(t)
	s := open(t, u, fonte.StoreOptions{Settings: testSettings})
	a := record("a.md", 4, "first text", "second text")
	put(t, s, a)
	err := s.Update(ctx, func(tx fonte.StoreTx) error {
		// Replace a.md and put a new chunk text: the cache still answers
		// from the base generation only.
		if err := tx.Put(ctx, record("a.md", 4, "changed text")); err != nil {
			return err
		}
		got, err := tx.Vectors(ctx, []string{hashText("second text"), hashText("changed text"), "", hashText("first text")})
		if err != nil {
			return err
		}
		if !slices.Equal(got[0], a.Vectors[1]) || got[1] != nil || got[2] != nil || !slices.Equal(got[3], a.Vectors[0]) {
			t.Errorf("Vectors = %v", got)
		}
		base, err := tx.Base(ctx)
		if err != nil || len(base) != 1 || base[0].Chunks != 2 {
			t.Errorf("Base = %+v, %v", base, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	rb := open(t, u, fonte.StoreOptions{Settings: testSettings, Rebuild: true})
	err = rb.Update(ctx, func(tx fonte.StoreTx) error {
		got, err := tx.Vectors(ctx, []string{hashText("changed text")})
		if err != nil || got[0] != nil {
			t.Errorf("a rebuild's Vectors = %v, %v; want none", got, err)
		}
		return tx.Put(ctx, a)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestReadOnly(t *testing.T) {
	ctx := context.Background()
	u := newCollection(t)
	if _, err := Open(ctx, u, fonte.StoreOptions{ReadOnly: true}); !errors.Is(err, fonte.ErrNotFound) {
		t.Fatalf("read-only open of a missing collection: %v", err)
	}
	put(t, open(t, u, fonte.StoreOptions{Settings: testSettings}), record("a.md", 4, "apple"))
	ro := open(t, u, fonte.StoreOptions{ReadOnly: true})
	if err := ro.Update(ctx, func(fonte.StoreTx) error { return nil }); !errors.Is(err, fonte.ErrReadOnly) {
		t.Fatalf("read-only Update: %v", err)
	}
	if err := ro.Purge(ctx); !errors.Is(err, fonte.ErrReadOnly) {
		t.Fatalf("read-only Purge: %v", err)
	}
	if hits, err := ro.LexicalTopK(ctx, fonte.LexicalQuery{Terms: []string{"apple"}, K: 1}); err != nil || len(hits) != 1 {
		t.Fatalf("read-only search: %v, %v", hits, err)
	}
	if _, err := Open(ctx, u, fonte.StoreOptions{ReadOnly: true, Rebuild: true, Settings: testSettings}); err == nil {
		t.Fatal("ReadOnly with Rebuild opened")
	}
}

func TestConcurrentWriters(t *testing.T) {
	ctx := context.Background()
	u := newCollection(t)
	stores := []*Store{open(t, u, fonte.StoreOptions{Settings: testSettings}), open(t, u, fonte.StoreOptions{Settings: testSettings})}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := stores[i%2]
			errs <- s.Update(ctx, func(tx fonte.StoreTx) error {
				// Puts from several goroutines share the transaction.
				var inner sync.WaitGroup
				for j := range 3 {
					inner.Add(1)
					go func() {
						defer inner.Done()
						id := string(rune('a'+i)) + string(rune('0'+j)) + ".md"
						if err := tx.Put(ctx, record(id, 4, "word"+id)); err != nil {
							t.Error(err)
						}
					}()
				}
				inner.Wait()
				return nil
			})
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	st := status(t, stores[0])
	if st.Generation != 4 || st.Documents != 12 || st.Chunks != 12 {
		t.Fatalf("after four concurrent updates: %+v", st)
	}
	ts, err := stores[1].TermStats(ctx, []string{"worda0.md"}, fonte.Filter{})
	if err != nil || ts.Chunks != 12 || ts.TotalTerms != 12 || ts.DF[0] != 1 {
		t.Fatalf("TermStats = %+v, %v", ts, err)
	}
}

// TestFirstCommitSetsDimension opens a new collection without settings,
// then with two dimensions before anything is committed: the first commit
// decides, and the other writer is refused.
func TestFirstCommitSetsDimension(t *testing.T) {
	ctx := context.Background()
	u := newCollection(t)
	reader := open(t, u, fonte.StoreOptions{})
	err := reader.Update(ctx, func(tx fonte.StoreTx) error { return nil })
	if !errors.Is(err, fonte.ErrInvalidSettings) {
		t.Fatalf("Update without settings on an empty collection: %v", err)
	}
	four := open(t, u, fonte.StoreOptions{Settings: testSettings})
	eight := testSettings
	eight.Dim = 8
	wide := open(t, u, fonte.StoreOptions{Settings: eight})
	put(t, four, record("a.md", 4, "four dimensions"))
	err = wide.Update(ctx, func(tx fonte.StoreTx) error { return tx.Put(ctx, record("b.md", 8, "eight")) })
	if !errors.Is(err, fonte.ErrSettingsMismatch) || !strings.Contains(err.Error(), "dim: stored 4, requested 8") {
		t.Fatalf("the second dimension: %v", err)
	}
	// The store opened without settings reads and deletes with the
	// collection's.
	if st, _ := reader.Settings(ctx); st != testSettings {
		t.Fatalf("Settings = %+v", st)
	}
	err = reader.Update(ctx, func(tx fonte.StoreTx) error {
		ok, err := tx.Delete(ctx, "a.md")
		if !ok {
			t.Error("Delete(a.md) = false")
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if st := status(t, reader); st.Documents != 0 || st.Generation != 2 {
		t.Fatalf("status %+v", st)
	}
}
