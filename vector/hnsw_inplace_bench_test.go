//go:build unix

package vector

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// inPlaceBenchSet is the graph of BenchmarkHNSWSearch100k as an External
// graph over the data set's rows, with its links-only encoding and its
// in-place form mapped read-only from a file, as the store maps it.
type inPlaceBenchSet struct {
	ext   *HNSW
	set   *hnswBenchSet
	links []byte
	form  []byte
	rowOf func(node int) []float32
}

var inPlaceBench *inPlaceBenchSet

// inPlaceBenchData builds the set once per process; the mapping lives as
// long as the process.
func inPlaceBenchData(b *testing.B) *inPlaceBenchSet {
	if inPlaceBench != nil {
		return inPlaceBench
	}
	h, s := benchIndex(b)
	var links bytes.Buffer
	if err := h.EncodeLinks(&links); err != nil {
		b.Fatal(err)
	}
	vectorOf := func(id uint64) ([]float32, bool) {
		if id >= uint64(s.data.Rows) {
			return nil, false
		}
		return s.data.Row(int(id)), true
	}
	ext, err := DecodeHNSWLinks(bytes.NewReader(links.Bytes()), vectorOf)
	if err != nil {
		b.Fatal(err)
	}
	ids := ext.AppendNodeIDs(nil)
	path := filepath.Join(os.TempDir(), "fonte-hnsw-inplace-bench.bin")
	if err := os.WriteFile(path, ext.AppendInPlace(nil), 0o644); err != nil {
		b.Fatal(err)
	}
	defer os.Remove(path)
	inPlaceBench = &inPlaceBenchSet{
		ext: ext, set: s, links: links.Bytes(), form: mapReadOnly(b, path),
		rowOf: func(node int) []float32 { return s.data.Row(int(ids[node])) },
	}
	return inPlaceBench
}

// BenchmarkOpenHNSWInPlace100k opens the in-place form of the 100k×384
// graph (M 16) from its read-only mapping: time and bytes allocated per
// open, to compare with BenchmarkDecodeHNSWLinks100k.
//
// go test -run '^$' -bench 'OpenHNSWInPlace100k|DecodeHNSWLinks100k' -benchmem ./vector/
func BenchmarkOpenHNSWInPlace100k(b *testing.B) {
	p := inPlaceBenchData(b)
	for b.Loop() {
		if _, err := OpenHNSWInPlace(p.form, p.rowOf); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(p.form)), "form-bytes")
}

// BenchmarkDecodeHNSWLinks100k decodes the links-only encoding of the same
// graph over the same rows, as the store opened its graph before.
func BenchmarkDecodeHNSWLinks100k(b *testing.B) {
	p := inPlaceBenchData(b)
	vectorOf := func(id uint64) ([]float32, bool) { return p.set.data.Row(int(id)), true }
	for b.Loop() {
		if _, err := DecodeHNSWLinks(bytes.NewReader(p.links), vectorOf); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(p.links)), "encoding-bytes")
}

// BenchmarkHNSWSearch100kInPlace searches the graph opened in place from
// its mapping and the decoded one, at ef 32, 64 and 128, twice in turn:
// the same links, so the same results, and the queries a second of each.
//
// go test -run '^$' -bench 'HNSWSearch100kInPlace' -benchtime 2x ./vector/
func BenchmarkHNSWSearch100kInPlace(b *testing.B) {
	p := inPlaceBenchData(b)
	h, err := OpenHNSWInPlace(p.form, p.rowOf)
	if err != nil {
		b.Fatal(err)
	}
	if !inside(h.nodes, p.form) {
		b.Fatal("the graph copied the mapping")
	}
	for i := range p.set.queries.Rows {
		q := p.set.queries.Row(i)
		if !equalResults(h.Search(q, hnswBenchK), p.ext.Search(q, hnswBenchK)) {
			b.Fatalf("query %d: the graph opened in place answers differently", i)
		}
	}
	// Two rounds, alternating, so that a load shared with other work
	// weighs on both alike.
	for range 2 {
		benchSearches(b, "inplace", h, p.set)
		benchSearches(b, "decoded", p.ext, p.set)
	}
	if err := unix.Munmap(p.form); err != nil {
		b.Fatal(err)
	}
	inPlaceBench = nil
}
