package disk_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/disk"
)

func Example() {
	tmp, _ := os.MkdirTemp("", "fonte-example")
	defer os.RemoveAll(tmp)
	dir := filepath.Join(tmp, ".fonte")
	cfg := disk.Config{Analyzer: "fonte-analysis/v1 en", Chunker: "window/v1 size=3", Embedder: "example/2", Dim: 2}

	s, err := disk.Open(dir, cfg, disk.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	doc := fonte.Document{ID: "refunds.md", Title: "Refunds", Text: "Refunds take 5 days."}
	err = s.Write(context.Background(), func(tx *disk.Tx) error {
		if info, ok := tx.Base().Info(doc.ID); ok && info.SHA256 == doc.SHA256 {
			return nil // unchanged: nothing to embed
		}
		return tx.Put(disk.Record{
			Doc:     doc,
			Chunks:  []fonte.Chunk{{ID: "refunds.md#0", Text: doc.Text, End: len(doc.Text)}},
			Vectors: [][]float32{{0.6, 0.8}},
		})
	})
	if err != nil {
		log.Fatal(err)
	}

	snap, err := s.Snapshot()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(snap.Generation(), snap.NumDocs(), snap.NumChunks(), snap.Chunk(0).DocID, snap.Vector(0))
	// Output: 1 1 1 refunds.md [0.6 0.8]
}
