package postgres

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

// labelled gives each record one of a few sets of access tags: none,
// one label, two, a repeated one, and the bare prefix (no label).
func labelled(recs []fonte.Record, seed uint64) {
	sets := [][]string{nil, {"access:hr"}, {"access:eng"}, {"access:eng", "access:hr"}, {"access:hr", "x", "access:hr"}, {"access:"}, {"access:board"}}
	r := rand.New(rand.NewPCG(seed, 5))
	for i := range recs {
		recs[i].Doc.Tags = append(slices.Clone(recs[i].Doc.Tags), sets[r.IntN(len(sets))]...)
	}
}

// accessReaders are the restricted readers the access tests run.
var accessReaders = []fonte.Filter{
	{Restricted: true},
	{Restricted: true, Labels: []string{"hr"}},
	{Restricted: true, Labels: []string{"eng"}},
	{Restricted: true, Labels: []string{"eng", "hr"}},
	{Restricted: true, Labels: []string{"board", "nosuch"}},
	{Restricted: true, Labels: []string{""}},
	{Restricted: true, Labels: []string{"hr"}, Prefixes: []string{"eng/"}},
}

// readableBy keeps the records a reader under f's access restriction
// may read.
func readableBy(recs []fonte.Record, f fonte.Filter) []fonte.Record {
	var out []fonte.Record
	for _, r := range recs {
		if f.Readable(r.Doc.Tags) {
			out = append(out, r)
		}
	}
	return out
}

// checkReaders checks every reader's statistics and lexical top K
// against fonte's BM25 over the chunks it may read alone.
func checkReaders(t *testing.T, s *Store, recs []fonte.Record, what string) {
	t.Helper()
	ctx := context.Background()
	probe := append(slices.Clone(vocabulary), "nosuchterm", "", "\xff")
	for _, f := range accessReaders {
		readable := readableBy(recs, f)
		st, err := s.TermStats(ctx, probe, fonte.Filter{Restricted: true, Labels: f.Labels})
		if err != nil {
			t.Fatal(err)
		}
		want := termStatsOf(readable, probe)
		if st.Chunks != want.Chunks || st.TotalTerms != want.TotalTerms || !slices.Equal(st.DF, want.DF) {
			t.Fatalf("%s, reader %v: TermStats = %+v,\nwant %+v", what, f.Labels, st, want)
		}
		if len(readable) == 0 {
			continue
		}
		ref := newReferenceBM25(readable)
		for qi, terms := range queries(11, 25) {
			for _, k := range []int{1, 3, 10, 1000} {
				got, err := s.LexicalTopK(ctx, fonte.LexicalQuery{Terms: terms, K: k, Filter: f})
				if err != nil {
					t.Fatal(err)
				}
				wantTop := ref.topK(terms, k, fonte.Filter{Prefixes: f.Prefixes})
				compareTopK(t, fmt.Sprintf("%s, reader %+v, query %d %q, k %d", what, f, qi, terms, k), got, wantTop, ref, terms, 1e-12)
			}
		}
	}
}

// TestRestrictedReadersExact checks that a restricted reader's
// statistics and lexical hits, served from the per-class counts and the
// terms index, are those of fonte's BM25 over the chunks it may read,
// after adds, replacements (which move documents between classes) and
// deletes.
func TestRestrictedReadersExact(t *testing.T) {
	ctx := context.Background()
	s := open(t, newCollection(t), fonte.StoreOptions{Settings: testSettings})
	if !s.classes {
		t.Fatal("a new collection does not keep access classes")
	}
	recs := corpus(21, 70, 4)
	labelled(recs, 1)
	put(t, s, recs...)
	checkReaders(t, s, recs, "first commit")

	more := corpus(22, 40, 4)
	labelled(more, 2)
	err := s.Update(ctx, func(tx fonte.StoreTx) error {
		for i := range 15 { // replaced, most with other labels
			more[i].Doc.ID = recs[i].Doc.ID
			for j := range more[i].Chunks {
				more[i].Chunks[j].DocID = recs[i].Doc.ID
			}
			recs[i] = more[i]
			if err := tx.Put(ctx, more[i]); err != nil {
				return err
			}
		}
		for i := 15; i < 30; i++ {
			if _, err := tx.Delete(ctx, recs[i].Doc.ID); err != nil {
				return err
			}
		}
		recs = slices.Delete(recs, 15, 30)
		for _, r := range more[30:] {
			r.Doc.ID = "new/" + r.Doc.ID
			for j := range r.Chunks {
				r.Chunks[j].DocID = r.Doc.ID
			}
			if err := tx.Put(ctx, r); err != nil {
				return err
			}
			recs = append(recs, r)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	checkReaders(t, s, recs, "after changes")

	// Every document of one class deleted: its counts go with it.
	err = s.Update(ctx, func(tx fonte.StoreTx) error {
		var kept []fonte.Record
		for _, r := range recs {
			if slices.Equal(accessClass(r.Doc.Tags), []string{"access:board"}) {
				if _, err := tx.Delete(ctx, r.Doc.ID); err != nil {
					return err
				}
				continue
			}
			kept = append(kept, r)
		}
		recs = kept
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var rows int
	if err := s.pool.QueryRow(ctx, "SELECT count(*) FROM "+s.table("class_stats")+" WHERE access = '{access:board}'").Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if rows != 0 {
		t.Errorf("a class with no chunks left keeps %d class_stats rows", rows)
	}
	checkReaders(t, s, recs, "after a class emptied")
}

// TestAccessClassesMigration downgrades a collection to schema version 1
// (no access column, no per-class counts) and checks that a read-only
// store, which may not migrate it, still serves restricted readers
// exactly, and that a writer's Open migrates it to counts that agree.
func TestAccessClassesMigration(t *testing.T) {
	ctx := context.Background()
	u := newCollection(t)
	s := open(t, u, fonte.StoreOptions{Settings: testSettings})
	recs := corpus(31, 50, 4)
	labelled(recs, 3)
	put(t, s, recs...)
	q := quote(s.schema)
	for _, sql := range []string{
		"DROP TABLE " + q + ".class_stats", "DROP TABLE " + q + ".class_df",
		"ALTER TABLE " + q + ".chunks DROP COLUMN access", "DROP INDEX IF EXISTS " + q + ".chunks_terms",
		"DELETE FROM " + q + ".schema_migrations WHERE version >= 2",
	} {
		if _, err := s.pool.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	s.Close()

	ro := open(t, u, fonte.StoreOptions{ReadOnly: true})
	if ro.classes {
		t.Fatal("a read-only store on a version 1 schema believes it keeps access classes")
	}
	checkReaders(t, ro, recs, "version 1, read-only")

	w := open(t, u, fonte.StoreOptions{Settings: testSettings})
	if !w.classes {
		t.Fatal("the writer's Open did not migrate the schema")
	}
	var version int
	if err := w.pool.QueryRow(ctx, "SELECT max(version) FROM "+q+".schema_migrations").Scan(&version); err != nil {
		t.Fatal(err)
	}
	if version != latestVersion {
		t.Fatalf("schema version %d after the migration, want %d", version, latestVersion)
	}
	checkReaders(t, w, recs, "migrated")
	// And the migrated counts are kept by later commits.
	extra := corpus(32, 10, 4)
	labelled(extra, 4)
	for i := range extra {
		extra[i].Doc.ID = "extra/" + extra[i].Doc.ID
		for j := range extra[i].Chunks {
			extra[i].Chunks[j].DocID = extra[i].Doc.ID
		}
	}
	put(t, w, extra...)
	checkReaders(t, w, append(recs, extra...), "migrated, then a commit")
}

// TestRestrictedLexicalUsesIndexes checks that a restricted reader's
// statements read the per-class tables and the terms index, never the
// chunks table whole: what keeps their cost from growing with the
// collection.
func TestRestrictedLexicalUsesIndexes(t *testing.T) {
	ctx := context.Background()
	s := open(t, newCollection(t), fonte.StoreOptions{Settings: testSettings})
	recs := corpus(41, 60, 4)
	labelled(recs, 5)
	put(t, s, recs...)
	args := []any{[]string{"policy"}}
	cond := "terms && $1::text[]" + s.filterSQL(fonte.Filter{Restricted: true, Labels: []string{"hr"}}, &args)
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SET enable_seqscan = off"); err != nil {
		t.Fatal(err)
	}
	var plan []string
	rows, err := conn.Query(ctx, "EXPLAIN SELECT doc_id FROM "+s.table("chunks")+" WHERE "+cond, args...)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, line)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if p := strings.Join(plan, "\n"); !strings.Contains(p, "chunks_terms") && !strings.Contains(p, "chunks_access") {
		t.Errorf("the restricted candidates' plan uses neither the terms nor the access index:\n%s", p)
	}
}
