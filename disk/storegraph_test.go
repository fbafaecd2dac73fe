package disk

import (
	"fmt"
	"testing"

	"github.com/fonte-rag/fonte/retrieve"
)

// TestStoredGraphWalksOnCodes: the graph a store builds, persists and
// opens again searches a candidate list of storeEfSearch on Int8 codes,
// the list that keeps recall@10 against exact at a million clustered
// chunks (see storeGraph); the vector package's recall tests measure it.
func TestStoredGraphWalksOnCodes(t *testing.T) {
	defer func(old int) { PersistMinChunks = old }(PersistMinChunks)
	PersistMinChunks = 5
	dir := t.TempDir()
	s := mustOpen(t, dir, testCfg, Options{Dense: retrieve.DenseHNSW})
	var recs []Record
	for i := range 1100 { // the graph fits its codec from 1,000 vectors
		recs = append(recs, makeRecord(fmt.Sprintf("doc%04d", i), 1, 1, 8))
	}
	putAll(t, s, recs...)
	if err := s.PersistDerived(t.Context(), false); err != nil {
		t.Fatal(err)
	}
	if !hasBlob(mustSnapshot(t, s), BlobGraph) {
		t.Fatal("no graph blob persisted")
	}
	s.Close()
	r := mustOpen(t, dir, testCfg, Options{Dense: retrieve.DenseHNSW, ReadOnly: true})
	v, err := r.ViewLatest()
	if err != nil {
		t.Fatal(err)
	}
	g, _ := v.Index.Graph()
	if g == nil {
		t.Fatal("the reopened store searches no graph")
	}
	if o := g.Options(); !o.Quantize || o.EfSearch != storeEfSearch {
		t.Fatalf("reopened graph: Quantize %v, EfSearch %d; want true, %d", o.Quantize, o.EfSearch, storeEfSearch)
	}
	if !g.HasCodes() {
		t.Fatal("the reopened graph holds no Int8 codes: it walks on the mapped float32 rows")
	}
}
