package main

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/fonte-rag/fonte/engine"
)

// TestByHashIsUnchanged: the concurrency phase passes the indexed
// documents by hash alone; the write must find every one of them
// unchanged (a hash that differed from IndexDocuments' own would have
// every document re-embedded and the index rewritten).
func TestByHashIsUnchanged(t *testing.T) {
	ctx := context.Background()
	c := corpus(3)
	docs := documents(c, 21)
	labelDocuments(docs[:20], 3, []float64{50})
	s := engine.Settings{IndexDir: filepath.Join(t.TempDir(), "idx"), Embedder: c.Embedder()}
	if _, _, err := indexInto(ctx, s, docs[:20]); err != nil {
		t.Fatal(err)
	}
	for i := range docs[:20] {
		docs[i] = byHash(docs[i])
	}
	rep, _, err := indexInto(ctx, s, docs)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Unchanged != 20 || rep.ChunksEmbedded != 1 || len(rep.Indexed) != 1 || rep.Chunks != 21 {
		t.Fatalf("unchanged %d, embedded %d, indexed %v, chunks %d; want 20, 1, [the new one], 21",
			rep.Unchanged, rep.ChunksEmbedded, rep.Indexed, rep.Chunks)
	}
}
