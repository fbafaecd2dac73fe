package disk

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/fonte-rag/fonte/retrieve"
	"github.com/fonte-rag/fonte/vector"
)

// TestStoredGraphWalksOnCodes: the graph a store builds, persists and
// opens again has 32 links a node and searches a candidate list of
// storeEfSearch on Int8 codes, what keeps recall@10 against exact at a
// million clustered chunks (see storeGraph); the vector package's recall
// tests measure it.
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
	if o := g.Options(); !o.Quantize || o.EfSearch != storeEfSearch || o.M != 32 {
		t.Fatalf("reopened graph: Quantize %v, EfSearch %d, M %d; want true, %d, 32", o.Quantize, o.EfSearch, o.M, storeEfSearch)
	}
	if !g.HasCodes() {
		t.Fatal("the reopened graph holds no Int8 codes: it walks on the mapped float32 rows")
	}
}

// TestGraphBlobAllocatedOnce: encoding a quantized graph's blob allocates
// it once, at its final size, instead of growing it by copies (a blob of
// hundreds of megabytes at a million chunks, held twice while copied).
func TestGraphBlobAllocatedOnce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n, dim = 3000, 64
	g := vector.NewHNSW(dim, vector.HNSWOptions{Quantize: true, External: true, EfConstruction: 40})
	keys := make([]uint64, n)
	rows := make([][]float32, n)
	for i := range keys {
		keys[i] = uint64(i) * 7919
		rows[i] = make([]float32, dim)
		for j := range rows[i] {
			rows[i][j] = float32(rng.NormFloat64())
		}
	}
	if err := g.AddBatch(keys, rows, 1); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b := encodeGraphBlob(g, keys, [32]byte{1})
	runtime.ReadMemStats(&after)
	// Besides the blob: the map of keys to positions and the node ids.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(cap(b))+uint64(n)*48 {
		t.Fatalf("encoding a blob of %d bytes (capacity %d) allocated %d bytes: it grew by copies", len(b), cap(b), alloc)
	}
	if cap(b) > len(b)+len(b)/8 {
		t.Fatalf("blob of %d bytes allocated with a capacity of %d", len(b), cap(b))
	}
}

// TestPersistDerivedEncodesTheGraphOffHeap: the graph blob a commit
// writes is encoded outside the Go heap. On the heap, its hundreds of
// megabytes at a million chunks grew the heap past the collector's goal
// at once, while queries were served beside the write, and the queries
// that allocated during the collection that followed marked in its stead.
func TestPersistDerivedEncodesTheGraphOffHeap(t *testing.T) {
	defer func(old int) { PersistMinChunks = old }(PersistMinChunks)
	PersistMinChunks = 5
	// Wide vectors, so the codes make the blob the bulk of what the call
	// allocates; a blob over lazyBlobBytes, so the commit does not read
	// it back.
	cfg := testCfg
	cfg.Dim = 512
	s := mustOpen(t, t.TempDir(), cfg, Options{Dense: retrieve.DenseHNSW})
	var recs []Record
	for i := range 3000 {
		recs = append(recs, makeRecord(fmt.Sprintf("doc%04d", i), 1, 1, cfg.Dim))
	}
	putAll(t, s, recs...)
	if _, err := s.ViewLatest(); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if err := s.PersistDerived(t.Context(), false); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	blob, ok := mustSnapshot(t, s).blobs[BlobGraph]
	if !ok {
		t.Fatal("no graph blob persisted")
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc >= uint64(blob.entry.Size) {
		t.Fatalf("persisting a graph blob of %d bytes allocated %d bytes on the heap", blob.entry.Size, alloc)
	}
}

// TestHandedOverGraphSkipsTheOlderBlob: a build handed the previous
// view's graph does not open the older generation's graph blob, which
// copied its codes to the heap (hundreds of megabytes at a million
// chunks) while queries were served, only to drop them.
func TestHandedOverGraphSkipsTheOlderBlob(t *testing.T) {
	defer func(old int) { PersistMinChunks = old }(PersistMinChunks)
	PersistMinChunks = 5
	s := mustOpen(t, t.TempDir(), testCfg, Options{Dense: retrieve.DenseHNSW})
	var recs []Record
	for i := range 1100 { // the graph fits its codec from 1,000 vectors
		recs = append(recs, makeRecord(fmt.Sprintf("doc%04d", i), 1, 1, 8))
	}
	putAll(t, s, recs...)
	if _, err := s.ViewLatest(); err != nil {
		t.Fatal(err)
	}
	if err := s.PersistDerived(t.Context(), false); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ViewLatest(); err != nil { // the blobs' generation, from its blobs
		t.Fatal(err)
	}
	putAll(t, s, makeRecord("doc9999", 1, 1, 8))
	opened := graphBlobsOpened.Load()
	v, err := s.ViewLatest()
	if err != nil {
		t.Fatal(err)
	}
	if g, _ := v.Index.Graph(); g == nil || g.Len() != 1101 {
		t.Fatal("the new view does not search the handed-over graph brought up to date")
	}
	if n := graphBlobsOpened.Load() - opened; n != 0 {
		t.Fatalf("the build opened %d older graph blob(s) beside the graph it was handed", n)
	}
}
