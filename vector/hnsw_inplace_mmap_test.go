//go:build unix

package vector

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// mapReadOnly maps the file at path read-only, as the store maps its
// blobs: a write to the mapping kills the process.
func mapReadOnly(t testing.TB, path string) []byte {
	t.Helper()
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		t.Fatal(err)
	}
	data, err := unix.Mmap(fd, 0, int(st.Size), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		t.Fatalf("mapping %s: %v", path, err)
	}
	return data
}

// TestHNSWInPlaceReadOnlyMap opens a form written to a file and mapped
// read-only, views it, answers as the original graph, then Adds, Deletes
// and Compacts (a write to the mapping would crash the test), and after
// the mapping is released searches again (a reference left into it would
// crash the test too), answering as a DecodeHNSWLinks copy given the same
// changes.
func TestHNSWInPlaceReadOnlyMap(t *testing.T) {
	f := newInPlaceFixture(t, 1500, 24, 8, true)
	path := filepath.Join(t.TempDir(), "graph.bin")
	if err := os.WriteFile(path, f.g.AppendInPlace(nil), 0o644); err != nil {
		t.Fatal(err)
	}
	data := mapReadOnly(t, path)
	mapped := true
	defer func() {
		if mapped {
			unix.Munmap(data)
		}
	}()
	h, err := OpenHNSWInPlace(data, f.rowOf(f.g.AppendNodeIDs(nil)))
	if err != nil {
		t.Fatal(err)
	}
	if !inside(h.nodes, data) || !inside(h.codes, data) || !inside(h.ids, data) {
		t.Fatal("the graph copied the mapping instead of viewing it")
	}
	if err := VerifyHNSWInPlace(data); err != nil {
		t.Fatal(err)
	}
	sameAnswers(t, "mapped", f.g, h, f.queries)
	sameNodeAnswers(t, "mapped", f.g, h, f.queries)
	d := f.decoded(t)
	for _, g := range []*HNSW{d, h} {
		// Replacing id 20 sets its tombstone bit first: a write into
		// the mapping unless the graph copied it.
		if err := g.Add(20, f.spare.Row(2)); err != nil {
			t.Fatal(err)
		}
		if err := g.Add(8000, f.spare.Row(0)); err != nil {
			t.Fatal(err)
		}
		g.Delete(4)
		g.Compact()
		if err := g.Add(8001, f.spare.Row(1)); err != nil {
			t.Fatal(err)
		}
	}
	if err := unix.Munmap(data); err != nil {
		t.Fatal(err)
	}
	mapped = false
	sameAnswers(t, "changed, unmapped", d, h, f.queries)
	sameNodeAnswers(t, "changed, unmapped", d, h, f.queries)
	if r := h.Search(f.spare.Row(1), 1); len(r) != 1 || r[0].ID != 8001 {
		t.Fatalf("after the changes: %v", r)
	}
}
