package disk

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/fonte-rag/fonte"
)

// benchDocs builds chunks/per documents of per chunks each, dim-d vectors
// and about 400 bytes of text per chunk, from a fixed seed.
func benchDocs(chunks, per, dim int) []*docData {
	rng := rand.New(rand.NewPCG(1, 1))
	para := strings.Repeat("retrieval augmented generation over a folder of documents ", 7)[:400]
	var out []*docData
	for i := 0; i*per < chunks; i++ {
		id := fmt.Sprintf("docs/%06d.md", i)
		text := strings.Repeat(para, per)
		d := &docData{
			doc:  fonte.Document{ID: id, Title: "Document " + id, Source: id, Language: "en", SHA256: hashHex(id), Text: text},
			vecs: make([]float32, per*dim),
		}
		for j := range per {
			d.chunks = append(d.chunks, fonte.Chunk{
				ID: fmt.Sprintf("%s#%d", id, j), DocID: id, Title: d.doc.Title, Headings: []string{"Part", "Section"},
				Text: text[j*400 : (j+1)*400], Start: j * 400, End: (j + 1) * 400, Position: j,
			})
			d.hashes = append(d.hashes, hashHex(fmt.Sprint(id, j)))
		}
		for k := range d.vecs {
			d.vecs[k] = rng.Float32()*2 - 1
		}
		out = append(out, d)
	}
	return out
}

type countWriter struct{ n int64 }

func (w *countWriter) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }

// BenchmarkEncodeSegment encodes 100k chunks × 384-d as segments of the
// default size; MB/s counts file bytes.
func BenchmarkEncodeSegment(b *testing.B) {
	docs := benchDocs(100_000, 10, 384)
	groups := pack(docs, 384, DefaultSegmentBytes)
	var cw countWriter
	for _, g := range groups {
		encodeSegment(&cw, 384, g, false)
	}
	b.SetBytes(cw.n)
	b.ResetTimer()
	for b.Loop() {
		for _, g := range groups {
			if _, _, err := encodeSegment(io.Discard, 384, g, false); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// benchStore commits chunks × dim to a new store and returns it.
func benchStore(b *testing.B, chunks, dim int) (*Store, int64) {
	b.Helper()
	cfg := Config{Embedder: "bench", Dim: dim}
	s, err := Open(b.TempDir(), cfg, Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	docs := benchDocs(chunks, 10, dim)
	err = s.Write(context.Background(), func(tx *Tx) error {
		tx.mu.Lock()
		defer tx.mu.Unlock()
		for _, d := range docs {
			tx.puts[d.doc.ID] = d // skip Put's copy: the benchmark measures files
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	_, m, err := s.readManifest()
	if err != nil {
		b.Fatal(err)
	}
	var size int64
	for _, e := range m.Segments {
		size += e.Size
	}
	return s, size
}

// BenchmarkLoadSnapshot loads 100k chunks × 384-d from the files (in the
// page cache) into a snapshot, checksums included; MB/s counts file bytes.
func BenchmarkLoadSnapshot(b *testing.B) {
	benchLoad(b, 100_000)
}

// BenchmarkLoadSnapshot1M is the same at a million chunks (1.5 GB of
// vectors); it runs only with FONTE_DISK_BIG=1.
func BenchmarkLoadSnapshot1M(b *testing.B) {
	if os.Getenv("FONTE_DISK_BIG") == "" {
		b.Skip("set FONTE_DISK_BIG=1 to load a million chunks")
	}
	benchLoad(b, 1_000_000)
}

func benchLoad(b *testing.B, chunks int) {
	s, size := benchStore(b, chunks, 384)
	_, m, err := s.readManifest()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(size)
	b.ResetTimer()
	var reads atomic.Int64
	for b.Loop() {
		snap, err := loadSnapshot(s.dir, m, nil, &reads, nil)
		if err != nil {
			b.Fatal(err)
		}
		if snap.NumChunks() != chunks {
			b.Fatalf("%d chunks", snap.NumChunks())
		}
	}
}

// BenchmarkCommitOneDocument replaces one 10-chunk document in a store of
// 100k chunks × 384-d: one segment rewritten, the snapshot rebuilt.
func BenchmarkCommitOneDocument(b *testing.B) {
	s, _ := benchStore(b, 100_000, 384)
	r := makeRecord("docs/000500.md", 1, 10, 384)
	b.ResetTimer()
	v := 0
	for b.Loop() {
		v++
		r.Meta["version"] = fmt.Sprint(v)
		err := s.Write(context.Background(), func(tx *Tx) error { return tx.Put(r) })
		if err != nil {
			b.Fatal(err)
		}
	}
}
