package disk

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte/lexical"
	"github.com/fonte-rag/fonte/retrieve"
)

// lexicalOfScratch is snap's lexical blob built from every chunk (a copy:
// the build's mapping goes with its model), checked against the blob the
// in-memory index encodes.
func lexicalOfScratch(t *testing.T, s *Store, snap *Snapshot) []byte {
	t.Helper()
	lex, err := s.buildLexical(snap, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if lex.reused != 0 || lex.full != "no previous view" {
		t.Fatalf("a build with no previous view reused %d chunks (full build because %q)", lex.reused, lex.full)
	}
	an := s.analyzers()
	idx, err := retrieve.New(retrieve.Corpus{Source: chunkSource{snap}}, an)
	if err != nil {
		t.Fatal(err)
	}
	if want := encodeLexicalBlob(idx.BM25(), corpusFingerprint(snap, an)); !bytes.Equal(lex.blob, want) {
		t.Fatalf("the lexical blob built from every chunk differs from the in-memory index's")
	}
	return bytes.Clone(lex.blob)
}

// lexRecord is makeRecord whose chunks' analysed text changes with the
// version (makeRecord's version is a single digit, which the analyzer
// drops).
func lexRecord(id string, v, n int) Record {
	r := makeRecord(id, v, n, testCfg.Dim)
	for i := range r.Chunks {
		r.Chunks[i].Headings = append(r.Chunks[i].Headings, fmt.Sprintf("revision%d", v))
	}
	return r
}

// TestLexicalMergeRandomWrites: a chain of random writes (documents
// added, replaced by new text or by the same text, deleted), with small
// segments so that commits rewrite and merge them and renumber the
// chunks, each followed by the writer's view build. Each build reuses the
// previous view's lexical index (one opened from the persisted blob after
// a reopen too) and gives byte for byte the blob built from every chunk.
func TestLexicalMergeRandomWrites(t *testing.T) {
	old := PersistMinChunks
	PersistMinChunks = 5
	t.Cleanup(func() { PersistMinChunks = old })
	ctx := t.Context()
	dir := t.TempDir()
	opts := Options{SegmentBytes: 3 << 10, TxMemory: 4 << 10}
	s := mustOpen(t, dir, testCfg, opts)
	rng := rand.New(rand.NewPCG(5, 6))
	version := map[string]int{} // live documents: their version
	next := 0
	write := func() {
		tx(t, s, func(tx *Tx) error {
			for id, v := range version {
				switch rng.IntN(12) {
				case 0:
					tx.Delete(id)
					delete(version, id)
				case 1: // the same text again
					if err := tx.Put(lexRecord(id, v, 1+len(id)%4)); err != nil {
						return err
					}
				case 2:
					version[id] = v + 1
					if err := tx.Put(lexRecord(id, v+1, 1+rng.IntN(4))); err != nil {
						return err
					}
				}
			}
			for range rng.IntN(12) {
				id := fmt.Sprintf("doc%03d", next)
				next++
				version[id] = 0
				if err := tx.Put(lexRecord(id, 0, 1+len(id)%4)); err != nil {
					return err
				}
			}
			return nil
		})
	}
	for range 20 {
		id := fmt.Sprintf("doc%03d", next)
		next++
		version[id] = 0
		putAll(t, s, lexRecord(id, 0, 1+len(id)%4))
	}
	// The first view: built from every chunk, reused by the next.
	v, err := s.ViewLatest()
	if err != nil {
		t.Fatal(err)
	}
	if v.lexical == nil || v.lexical.full == "" {
		t.Fatal("the first view's lexical index was not built from every chunk")
	}
	merged := 0
	for step := range 16 {
		if step == 8 {
			// A new Store: its first view opens the persisted blob, which
			// the next build reuses.
			if err := s.PersistDerived(ctx, false); err != nil {
				t.Fatal(err)
			}
			s.Close()
			s = mustOpen(t, dir, testCfg, opts)
			if v, err = s.ViewLatest(); err != nil {
				t.Fatal(err)
			}
			if v.lexical != nil {
				t.Fatal("the reopened store rebuilt its lexical index rather than opening the blob")
			}
		}
		write()
		if v, err = s.ViewLatest(); err != nil {
			t.Fatal(err)
		}
		snap := v.Snap
		if snap.NumChunks() < PersistMinChunks {
			t.Fatalf("step %d: %d chunks, too few for the writer's build", step, snap.NumChunks())
		}
		if v.lexical == nil {
			t.Fatalf("step %d: no lexical index built", step)
		}
		if v.lexical.full == "" {
			merged++
			if v.lexical.reused == 0 {
				t.Fatalf("step %d: merged, reusing %d chunks", step, v.lexical.reused)
			}
		}
		if want := lexicalOfScratch(t, s, snap); !bytes.Equal(v.lexical.blob, want) {
			t.Fatalf("step %d (%d chunks, %d reused, full build because %q): the blob differs from the one built from every chunk",
				step, snap.NumChunks(), v.lexical.reused, v.lexical.full)
		}
		if step%3 == 0 {
			if err := s.PersistDerived(ctx, false); err != nil {
				t.Fatal(err)
			}
		}
	}
	if merged < 14 {
		t.Fatalf("%d of 16 builds merged with the previous index", merged)
	}
}

// TestLexicalMergeFallsBack: a previous index that cannot be reused (its
// form damaged, built for other BM25 parameters, or another store's) makes the writer
// analyse every chunk, says why, and the blob is still the right one.
func TestLexicalMergeFallsBack(t *testing.T) {
	old := PersistMinChunks
	PersistMinChunks = 5
	t.Cleanup(func() { PersistMinChunks = old })
	s := mustOpen(t, t.TempDir(), testCfg, Options{})
	var recs []Record
	for i := range 8 {
		recs = append(recs, makeRecord(fmt.Sprintf("doc%d", i), 1, 3, testCfg.Dim))
	}
	putAll(t, s, recs...)
	prevSnap := mustSnapshot(t, s)
	built, err := s.buildLexical(prevSnap, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	putAll(t, s, makeRecord("doc9", 1, 2, testCfg.Dim), makeRecord("doc3", 2, 2, testCfg.Dim))
	snap := mustSnapshot(t, s)
	want := lexicalOfScratch(t, s, snap)
	an := s.analyzers()
	viewOf := func(snap *Snapshot, m *lexical.BM25) *View { return viewOver(t, s, snap, m) }
	prevView := func(m *lexical.BM25) *View { return viewOf(prevSnap, m) }
	// The same documents in another store (as a rebuild's old view is).
	elsewhere := mustOpen(t, t.TempDir(), testCfg, Options{})
	putAll(t, elsewhere, recs...)
	otherSnap := mustSnapshot(t, elsewhere)
	otherBuilt, err := elsewhere.buildLexical(otherSnap, 0, nil)
	if err != nil {
		t.Fatal(err)
	}

	// The sound previous index is merged.
	lex, err := s.buildLexical(snap, 0, prevView(built.m))
	if err != nil {
		t.Fatal(err)
	}
	if lex.full != "" || lex.reused != prevSnap.NumChunks()-3 || !bytes.Equal(lex.blob, want) {
		t.Fatalf("merging: reused %d of %d chunks (full build because %q), same blob %v", lex.reused, prevSnap.NumChunks(), lex.full, bytes.Equal(lex.blob, want))
	}

	// A frequency of the previous form flipped: its checksum fails.
	bad := slices.Clone(built.blob[lexicalFormOff:])
	bad[len(bad)-5] ^= 0x40
	damaged, err := lexical.OpenBM25InPlace(bad, an.Default)
	if err != nil {
		t.Fatal(err)
	}
	other := lexical.NewBM25Index(lexical.NewIndexTokens(prevSnap.NumChunks(), func(i int) []string {
		return an.Terms(prevSnap.Chunk(i), prevSnap.Lang(i))
	}, an.Default), lexical.BM25Options{K1: 2, B: 0.5})
	for _, c := range []struct {
		name string
		prev *View
		why  string
	}{
		{"damaged", prevView(damaged), "checksum"},
		{"other parameters", prevView(other), "other BM25 parameters"},
		{"another store", viewOf(otherSnap, otherBuilt.m), "another index"},
	} {
		lex, err := s.buildLexical(snap, 0, c.prev)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if lex.reused != 0 || !strings.Contains(lex.full, c.why) {
			t.Fatalf("%s: reused %d chunks, full build because %q, want a reason naming %q", c.name, lex.reused, lex.full, c.why)
		}
		if !bytes.Equal(lex.blob, want) {
			t.Fatalf("%s: the blob differs from the one built from every chunk", c.name)
		}
	}
}

// viewOver is a view of s's snap whose lexical model is m.
func viewOver(t *testing.T, s *Store, snap *Snapshot, m *lexical.BM25) *View {
	t.Helper()
	idx, err := retrieve.NewWith(retrieve.Corpus{Source: chunkSource{snap}, Owner: snap, Dim: snap.Dim(), Rows: snap.Rows(), Parts: snap.FlatParts()},
		s.analyzers(), retrieve.Options{BM25: m, Keys: snap.Keys()})
	if err != nil {
		t.Fatal(err)
	}
	return &View{Snap: snap, Index: idx}
}

// TestLexicalBuildCarriesBlockMaxima: a write's lexical build computes
// the block maxima of the terms the previous view's queries computed
// (here "lorem" and "ipsum", in every chunk, in a query long enough to
// take block-max), whether it merges or builds from every chunk, and
// none when the previous view's queries computed none; the new model
// ranks as a fresh one.
func TestLexicalBuildCarriesBlockMaxima(t *testing.T) {
	s := mustOpen(t, t.TempDir(), testCfg, Options{})
	var recs []Record
	for i := range 40 {
		recs = append(recs, makeRecord(fmt.Sprintf("doc%02d", i), 1, 5, testCfg.Dim))
	}
	putAll(t, s, recs...)
	prevSnap := mustSnapshot(t, s)
	built, err := s.buildLexical(prevSnap, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	putAll(t, s, makeRecord("doc40", 1, 3, testCfg.Dim), makeRecord("doc03", 2, 5, testCfg.Dim))
	snap := mustSnapshot(t, s)
	an := s.analyzers()
	query := an.Default.Analyze(strings.Repeat("lorem ipsum ", 100)) // 200 lists of about 200
	if lex, err := s.buildLexical(snap, 0, viewOver(t, s, prevSnap, built.m)); err != nil || lex.carried != 0 {
		t.Fatalf("with no maxima before the write: %d terms carried (%v)", lex.carried, err)
	}
	built.m.TopKShare(query, 10, nil)
	other := mustOpen(t, t.TempDir(), testCfg, Options{}) // its view is not reused: a full build
	putAll(t, other, recs...)
	otherSnap := mustSnapshot(t, other)
	otherBuilt, err := other.buildLexical(otherSnap, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	otherBuilt.m.TopKShare(query, 10, nil)
	for _, prev := range []*View{viewOver(t, s, prevSnap, built.m), viewOver(t, other, otherSnap, otherBuilt.m)} {
		lex, err := s.buildLexical(snap, 0, prev)
		if err != nil {
			t.Fatal(err)
		}
		if lex.carried != 2 {
			t.Fatalf("%d terms' block maxima carried (full build because %q), want 2", lex.carried, lex.full)
		}
		fresh, err := lexical.OpenBM25InPlace(bytes.Clone(lex.blob[lexicalFormOff:]), an.Default)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := lex.m.TopKShare(query, 10, nil), fresh.TopKShare(query, 10, nil); len(got) != 10 || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("after the carry: %v, a fresh model %v", got, want)
		}
	}
}

// TestViewCarriesBlockMaxima: the views that buildLexical does not build
// the model of (a store too small to persist it, and a read-only Store's
// view of a generation another process wrote) start with the block maxima
// the previous view's queries computed.
func TestViewCarriesBlockMaxima(t *testing.T) {
	for _, persisted := range []bool{false, true} {
		if persisted {
			old := PersistMinChunks
			PersistMinChunks = 5
			t.Cleanup(func() { PersistMinChunks = old })
		}
		dir := t.TempDir()
		w := mustOpen(t, dir, testCfg, Options{})
		var recs []Record
		for i := range 40 {
			recs = append(recs, makeRecord(fmt.Sprintf("doc%02d", i), 1, 5, testCfg.Dim))
		}
		putAll(t, w, recs...)
		query := w.analyzers().Default.Analyze(strings.Repeat("lorem ipsum ", 100))
		s, name := w, "a small store's writer"
		if persisted {
			if _, err := w.ViewLatest(); err != nil { // persists the lexical blob
				t.Fatal(err)
			}
			s, name = mustOpen(t, dir, testCfg, Options{ReadOnly: true}), "a reader"
		}
		before, err := s.ViewLatest()
		if err != nil {
			t.Fatal(err)
		}
		before.Index.BM25().TopKShare(query, 10, nil)
		if n := before.Index.BM25().BlockMaximaTerms(); n != 2 {
			t.Fatalf("%s: the query computed %d terms' block maxima, want 2", name, n)
		}
		putAll(t, w, makeRecord("new", 1, 3, testCfg.Dim))
		after, err := s.ViewLatest()
		if err != nil {
			t.Fatal(err)
		}
		m := after.Index.BM25()
		if m == before.Index.BM25() || after.Snap.NumChunks() != before.Snap.NumChunks()+3 {
			t.Fatalf("%s: no new view of the write", name)
		}
		if n := m.BlockMaximaTerms(); n != 2 {
			t.Fatalf("%s: the new view's model holds %d terms' block maxima before its first query, want 2", name, n)
		}
	}
}
