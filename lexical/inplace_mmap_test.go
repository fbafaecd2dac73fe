//go:build unix

package lexical

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/fonte-rag/fonte/analysis"
)

// TestInPlaceReadOnlyMap searches a form written to a file and mapped
// read-only, as the store maps its blobs: a write to the mapping would
// crash the test, and the answers are the original model's.
func TestInPlaceReadOnlyMap(t *testing.T) {
	docs, words := zipfCorpus(2000, 41)
	m := NewBM25(docs, analysis.Sklearn(), DefaultBM25Options())
	path := filepath.Join(t.TempDir(), "bm25.bin")
	if err := os.WriteFile(path, m.AppendInPlace(nil), 0o644); err != nil {
		t.Fatal(err)
	}
	file, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	st, err := file.Stat()
	if err != nil {
		t.Fatal(err)
	}
	data, err := syscall.Mmap(int(file.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		t.Fatalf("mapping %s: %v", path, err)
	}
	defer syscall.Munmap(data)
	flat, err := OpenBM25InPlace(data, analysis.Sklearn())
	if err != nil {
		t.Fatal(err)
	}
	if &flat.ix.flat.docs[0] != (*uint32)(unsafeAt(data, int(layoutOf(uint64(m.N()), uint64(m.ix.NumTerms()), uint64(m.ix.numPostings()), uint64(len(flat.ix.flat.dict)), 1)[secDocs]))) {
		t.Fatal("postings were copied, not viewed in the mapping")
	}
	rng := rand.New(rand.NewPCG(42, 43))
	var queries []string
	for range 40 {
		queries = append(queries, strings.Join(randomQuery(rng, words), " "))
	}
	compareModels(t, m, flat, queries, []int{1, 10, 100})
	compareIndexes(t, m.ix, flat.ix)
	if err := VerifyInPlace(data); err != nil {
		t.Fatal(err)
	}
}
