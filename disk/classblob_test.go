package disk

import (
	"encoding/binary"
	"fmt"
	"slices"
	"testing"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/retrieve"
	"github.com/fonte-rag/fonte/vector"
)

// labelledRecords are n one-chunk records, every third labelled hr.
func labelledRecords(n int) []Record {
	var recs []Record
	for i := range n {
		r := makeRecord(fmt.Sprintf("doc%04d", i), 1, 1, 8)
		if i%3 == 0 {
			r.Doc.Tags = append(r.Doc.Tags, fonte.AccessTag("hr"))
		}
		recs = append(recs, r)
	}
	return recs
}

// classBlobsOf returns snap's class blobs by labels, as their graphs'
// node keys.
func classBlobsOf(t *testing.T, snap *Snapshot) map[string][]uint64 {
	t.Helper()
	out := map[string][]uint64{}
	for _, name := range snap.BlobNames() {
		if !isClassBlob(name) {
			continue
		}
		b, err := snap.MapBlob(name)
		if err != nil {
			t.Fatal(err)
		}
		cb, err := parseClassBlob(b)
		if err != nil {
			t.Fatal(err)
		}
		if name != classBlobName(cb.labels) {
			t.Fatalf("blob %s holds the class %v", name, cb.labels)
		}
		gb, err := parseGraphBlob(cb.graph)
		if err != nil {
			t.Fatal(err)
		}
		out[fmt.Sprint(cb.labels)] = slices.Sorted(slices.Values(gb.nodeKeys))
	}
	return out
}

// keysWhere returns the keys of recs' chunks whose document keep accepts,
// sorted.
func keysWhere(recs []Record, keep func(r Record) bool) []uint64 {
	var out []uint64
	for _, r := range recs {
		if keep(r) {
			for i, c := range r.Chunks {
				out = append(out, retrieve.ChunkKey(c.ID, r.TextHashes[i]))
			}
		}
	}
	slices.Sort(out)
	return out
}

func isHR(r Record) bool { return slices.Contains(r.Doc.Tags, fonte.AccessTag("hr")) }

// TestClassGraphBlobs: a store persists a graph per access class, each
// holding its class's chunks and no other; reopened, it maps them as
// stored instead of building them; a deletion drops every class blob with
// the rest, and the blobs written after it hold no deleted chunk, not even
// as a tombstone.
func TestClassGraphBlobs(t *testing.T) {
	defer func(old, oldMin int) { PersistMinChunks, retrieve.ClassGraphMinChunks = old, oldMin }(PersistMinChunks, retrieve.ClassGraphMinChunks)
	PersistMinChunks, retrieve.ClassGraphMinChunks = 5, 200
	dir := t.TempDir()
	s := mustOpen(t, dir, testCfg, Options{Dense: retrieve.DenseHNSW})
	recs := labelledRecords(1500)
	putAll(t, s, recs...)
	if err := s.PersistDerived(t.Context(), false); err != nil {
		t.Fatal(err)
	}
	want := map[string][]uint64{
		"[]":                              keysWhere(recs, func(r Record) bool { return !isHR(r) }),
		fmt.Sprint([]string{"access:hr"}): keysWhere(recs, isHR),
	}
	checkBlobs := func(when string, want map[string][]uint64) {
		t.Helper()
		got := classBlobsOf(t, mustSnapshot(t, s))
		if len(got) != len(want) {
			t.Fatalf("%s: class blobs for %d classes, want %d", when, len(got), len(want))
		}
		for labels, keys := range want {
			if !slices.Equal(got[labels], keys) {
				t.Fatalf("%s: class %s's blob holds %d keys, want its %d chunks' alone", when, labels, len(got[labels]), len(keys))
			}
		}
	}
	checkBlobs("persisted", want)
	s.Close()

	r := mustOpen(t, dir, testCfg, Options{Dense: retrieve.DenseHNSW, ReadOnly: true})
	v, err := r.ViewLatest()
	if err != nil {
		t.Fatal(err)
	}
	cgs, err := v.Index.ClassGraphs()
	if err != nil {
		t.Fatal(err)
	}
	if len(cgs) != 2 {
		t.Fatalf("the reopened store has %d class graphs, want 2", len(cgs))
	}
	for _, cg := range cgs {
		if cg.Changed || cg.Graph.HasCodes() && cg.Graph.LoadCodes() == 0 {
			t.Fatalf("class %v: reopened, its graph was rebuilt or its codes read to the heap (changed %v)", cg.Labels, cg.Changed)
		}
	}
	hits, err := v.Index.Search(retrieve.Request{Mode: retrieve.Dense, K: 10, Vector: recs[3].Vectors[0], Filter: fonte.Filter{Restricted: true}})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 10 {
		t.Fatalf("a public reader got %d hits from the mapped class graphs, want 10", len(hits))
	}
	for _, h := range hits {
		if isHR(recs[docNumber(h.Chunk.DocID)]) {
			t.Fatalf("a public reader got %s, labelled hr", h.Chunk.ID)
		}
	}
	r.Close()

	s = mustOpen(t, dir, testCfg, Options{Dense: retrieve.DenseHNSW})
	defer s.Close()
	if _, err := s.ViewLatest(); err != nil {
		t.Fatal(err)
	}
	gone := recs[3] // labelled hr
	err = s.Write(t.Context(), func(tx *Tx) error {
		tx.Delete(gone.Doc.ID)
		DropDerived(tx)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	checkBlobs("after the deletion", nil)
	if err := s.PersistDerived(t.Context(), true); err != nil {
		t.Fatal(err)
	}
	want[fmt.Sprint([]string{"access:hr"})] = keysWhere(recs, func(r Record) bool { return isHR(r) && r.Doc.ID != gone.Doc.ID })
	checkBlobs("persisted after the deletion", want)
}

// docNumber is n of a document "docN".
func docNumber(id string) int {
	var n int
	fmt.Sscanf(id, "doc%d", &n)
	return n
}

// TestClassBlobDamaged: a class blob cut short anywhere, or with its
// labels' length damaged, is refused with an error, never read past its
// end.
func TestClassBlobDamaged(t *testing.T) {
	const n, dim = 50, 8
	g := vector.NewHNSW(dim, vector.HNSWOptions{External: true})
	keys := make([]uint64, n)
	rows := make([][]float32, n)
	positions := make([]uint32, n)
	for i := range keys {
		keys[i], positions[i] = uint64(i)*7919, uint32(i)
		rows[i] = makeVector(fmt.Sprint(i), 1, 0, dim)
	}
	if err := g.AddBatch(keys, rows, 1); err != nil {
		t.Fatal(err)
	}
	labels := []string{"access:fin", "access:hr"}
	b := encodeClassBlob(retrieve.ClassGraph{Labels: labels, Graph: g, Positions: positions}, [32]byte{3}, func(n int) []byte { return make([]byte, 0, n) })
	cb, err := parseClassBlob(b)
	if err != nil || !slices.Equal(cb.labels, labels) || !graphBlobFor(cb.graph, [32]byte{3}) {
		t.Fatalf("the blob as written: labels %v, err %v", cb.labels, err)
	}
	for cut := range len(b) {
		if cb, err := parseClassBlob(b[:cut]); err == nil && graphBlobFor(cb.graph, [32]byte{3}) {
			t.Fatalf("a blob cut at %d of %d bytes was taken for a graph", cut, len(b))
		}
	}
	for _, n := range []uint32{0xffffffff, uint32(len(b)), 3} {
		d := slices.Clone(b)
		binary.LittleEndian.PutUint32(d[len(classMagic):], n)
		if _, err := parseClassBlob(d); err == nil {
			t.Fatalf("labels of %d bytes: no error", n)
		}
	}
}
