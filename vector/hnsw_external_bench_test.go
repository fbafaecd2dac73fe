//go:build unix

package vector

import (
	"bytes"
	"io"
	"runtime"
	"testing"
)

// BenchmarkHNSWSearch100kExternal searches the graph of
// BenchmarkHNSWSearch100k as an External index, decoded by
// DecodeHNSWLinks from its EncodeLinks encoding over the data set's rows
// (one contiguous matrix, as a memory-mapped segment would hold them):
// the same links, so the same results, with each vector away from its
// links. It logs the index's heap bytes a vector, the rows excluded.
//
// go test -run '^$' -bench 'HNSWSearch100k' -benchtime 1x ./vector/
// compares the owning and External searches.
func BenchmarkHNSWSearch100kExternal(b *testing.B) {
	h, s := benchIndex(b)
	var links bytes.Buffer
	if err := h.EncodeLinks(&links); err != nil {
		b.Fatal(err)
	}
	before := heapInUse()
	ext, err := DecodeHNSWLinks(&links, func(id uint64) ([]float32, bool) {
		if id >= uint64(s.data.Rows) {
			return nil, false
		}
		return s.data.Row(int(id)), true
	})
	if err != nil {
		b.Fatal(err)
	}
	perVec := float64(heapInUse()-before) / float64(s.data.Rows)
	runtime.KeepAlive(&links) // its bytes were in use before too
	b.Logf("External index: %.0f heap bytes a vector besides the rows", perVec)
	benchSearches(b, "float32", ext, s)
	benchSearches(b, "int8", quantizedCopy(ext), s)
}

// BenchmarkHNSWEncode100k writes the graph of BenchmarkHNSWSearch100k
// with Encode and with EncodeLinks, and reports the bytes of each.
func BenchmarkHNSWEncode100k(b *testing.B) {
	h, _ := benchIndex(b)
	for _, enc := range []struct {
		name string
		f    func(io.Writer) error
	}{{"Encode", h.Encode}, {"EncodeLinks", h.EncodeLinks}} {
		b.Run(enc.name, func(b *testing.B) {
			var buf bytes.Buffer
			for b.Loop() {
				buf.Reset()
				if err := enc.f(&buf); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(buf.Len()), "bytes")
		})
	}
}
