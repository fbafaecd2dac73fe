package engine

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/disk"
	"github.com/fonte-rag/fonte/retrieve"
)

// lowerPersistThreshold makes a test corpus of a few dozen chunks count as
// large, so the derived indexes are persisted.
func lowerPersistThreshold(t *testing.T, n int) {
	old := disk.PersistMinChunks
	disk.PersistMinChunks = n
	t.Cleanup(func() { disk.PersistMinChunks = old })
}

func derivedDocs(n int, marker string) []fonte.Document {
	var docs []fonte.Document
	for i := range n {
		text := fmt.Sprintf("Procedure %d covers topic %d and the form F-%03d; it is reviewed every %d months.", i, i%7, i, 1+i%12)
		if i == 3 {
			text += " " + marker
		}
		docs = append(docs, fonte.Document{ID: fmt.Sprintf("proc/%03d", i), Title: fmt.Sprintf("Procedure %d", i), Text: text})
	}
	return docs
}

func ids(hits []fonte.Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Chunk.ID)
	}
	return out
}

// TestDerivedIndexesPersist: from PersistMinChunks on, the lexical index
// and the HNSW graph are stored with the data, reused by the next open
// without a rebuild, updated in place when documents change, and a deleted
// document's terms leave the stored lexical index.
func TestDerivedIndexesPersist(t *testing.T) {
	lowerPersistThreshold(t, 20)
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "idx")
	s := Settings{IndexDir: dir, DenseIndex: retrieve.DenseHNSW}
	e, err := Open(ctx, s, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	const marker = "zanzibarite"
	if _, err := e.IndexDocuments(ctx, derivedDocs(60, marker), true, nil); err != nil {
		t.Fatal(err)
	}
	snap, err := e.local.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{disk.BlobLexical, disk.BlobGraph} {
		if _, ok := snap.Blob(name); !ok {
			t.Fatalf("blob %s missing after indexing %d chunks; blobs %v", name, snap.NumChunks(), snap.BlobNames())
		}
	}
	// The lexical index is stored in its in-place form, searched where the
	// blob's mapping holds it.
	if lx, _ := snap.Blob(disk.BlobLexical); !strings.HasPrefix(string(lx), "FDLX\x02") {
		t.Errorf("lexical blob starts %q, want version 2 (in place)", lx[:min(8, len(lx))])
	}
	// The graph refers to the segments' vectors instead of copying them.
	if g, _ := snap.Blob(disk.BlobGraph); len(g) >= 4*snap.Dim()*snap.NumChunks() {
		t.Errorf("graph blob of %d bytes holds a copy of the %d×%d vectors", len(g), snap.NumChunks(), snap.Dim())
	}
	queries := []string{"form F-017", "reviewed every 5 months", "topic 3 procedure", marker}
	var before [][]string
	for _, q := range queries {
		h, err := e.Search(ctx, q, SearchOptions{K: 5})
		if err != nil {
			t.Fatal(err)
		}
		before = append(before, ids(h))
	}
	if before[3][0] != "proc/003#0" {
		t.Fatalf("marker query found %v", before[3])
	}
	e.Close()

	// A new process: the search index comes from the blobs.
	r, err := Open(ctx, s, OpenOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	for i, q := range queries {
		h, err := r.Search(ctx, q, SearchOptions{K: 5})
		if err != nil {
			t.Fatal(err)
		}
		if got := ids(h); !slices.Equal(got, before[i]) {
			t.Errorf("%q after reopening: %v, before %v", q, got, before[i])
		}
	}
	rv, err := r.local.View()
	if err != nil {
		t.Fatal(err)
	}
	if b := rv.Index.Built(); b.BM25 || b.Graph {
		t.Fatalf("reopening rebuilt %+v instead of decoding the blobs", b)
	}
	r.Close()

	// Change ten documents and drop five: the graph is updated, not rebuilt.
	e, err = Open(ctx, s, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	docs := derivedDocs(55, marker)
	for i := 40; i < 50; i++ {
		docs[i].Text += " Revised."
	}
	if _, err := e.IndexDocuments(ctx, docs, true, nil); err != nil {
		t.Fatal(err)
	}
	ev, err := e.local.View()
	if err != nil {
		t.Fatal(err)
	}
	g, keys := ev.Index.Graph()
	if g == nil || g.Len() != 55 || len(keys) != 55 {
		t.Fatalf("graph after the update: %v with %d keys", g, len(keys))
	}
	h, err := e.Search(ctx, "Revised procedure 45", SearchOptions{K: 3})
	if err != nil || len(h) == 0 || h[0].Chunk.ID != "proc/045#0" {
		t.Fatalf("search after the update: %v %v", ids(h), err)
	}

	// Delete the marker's document: no stored file keeps its word.
	if _, err := e.Delete(ctx, []string{"proc/003"}); err != nil {
		t.Fatal(err)
	}
	snap, _ = e.local.Snapshot()
	if _, ok := snap.Blob(disk.BlobLexical); !ok {
		t.Fatal("lexical blob not rewritten after the deletion")
	}
	files, _ := os.ReadDir(dir)
	for _, f := range files {
		b, _ := os.ReadFile(filepath.Join(dir, f.Name()))
		if bytes.Contains(b, []byte(marker)) || bytes.Contains(b, []byte(strings.TrimSuffix(marker, "e"))) {
			t.Errorf("%s still holds the deleted document's word", f.Name())
		}
	}
	if h, _ := e.Search(ctx, marker, SearchOptions{K: 3, Mode: retrieve.BM25}); len(h) != 0 {
		t.Errorf("deleted word still found: %v", ids(h))
	}
}

// TestOpenAcceptsAnotherAnalysis: an index recorded with another analysis
// (an older fonte's) opens for writing and reading without a rebuild; its
// chunks and vectors stay, and its lexical index follows the current
// analysis.
func TestOpenAcceptsAnotherAnalysis(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "idx")
	s := Settings{IndexDir: dir}
	s.defaults()
	chunker, err := s.chunkerName()
	if err != nil {
		t.Fatal(err)
	}
	st, err := disk.Open(dir, disk.Config{Analyzer: "fonte-analysis/v0 en", Chunker: chunker, Embedder: s.Embedder.Model(), Dim: s.Embedder.Dimension()}, disk.Options{})
	if err != nil {
		t.Fatal(err)
	}
	text := "Haemoglobin levels are measured every month."
	vec, _ := s.Embedder.Embed(ctx, []string{text})
	err = st.Write(ctx, func(tx *disk.Tx) error {
		return tx.Put(disk.Record{Doc: fonte.Document{ID: "a", Title: "Blood", Text: text, SHA256: "x"},
			Chunks: []fonte.Chunk{{ID: "a#0", DocID: "a", Text: text, End: len(text)}}, TextHashes: []string{"h"}, Vectors: [][]float32{vec[0]}})
	})
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, ro := range []bool{true, false} {
		e, err := Open(ctx, Settings{IndexDir: dir}, OpenOptions{ReadOnly: ro})
		if err != nil {
			t.Fatalf("read-only %v: %v", ro, err)
		}
		// "hemoglobin" meets "Haemoglobin" only under the current analysis.
		h, err := e.Search(ctx, "hemoglobin", SearchOptions{K: 1, Mode: retrieve.BM25})
		if err != nil || len(h) != 1 || h[0].Chunk.ID != "a#0" {
			t.Fatalf("read-only %v: %v %v", ro, ids(h), err)
		}
		if st, _ := e.Status(ctx); st.Analyzer != retrieve.DefaultAnalyzers().Name() {
			t.Errorf("status analysis %q", st.Analyzer)
		}
		e.Close()
	}
}
