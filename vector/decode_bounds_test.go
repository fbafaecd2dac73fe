package vector

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// hostileHNSW is an HNSW header whose counts promise far more than
// follows: dimension 65,536, M 1,024 and n nodes, then pad zero bytes.
// The first fuzz finding was this shape: 149 bytes that made the decoder
// reserve 4,096 node blocks of 270 KB each, about 1.1 GB.
func hostileHNSW(n uint64, pad int) []byte {
	b := append([]byte(nil), hnswMagic[:]...)
	for _, x := range []uint32{hnswVersion, 1 << 16, 1 << 10, 200, 64} {
		b = binary.LittleEndian.AppendUint32(b, x)
	}
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(1/math.Log(16)))
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(DefaultTombstoneShare))
	b = append(b, 0) // flags
	b = binary.LittleEndian.AppendUint64(b, n)
	b = binary.LittleEndian.AppendUint32(b, 0) // entry
	b = binary.LittleEndian.AppendUint32(b, 1) // top+1
	return append(b, make([]byte, pad)...)
}

// hostileUpper is a valid empty HNSW encoding up to its upper-layer word
// count, which claims 2^31-1 words.
func hostileUpper() []byte {
	var buf bytes.Buffer
	NewHNSW(4, HNSWOptions{}).Encode(&buf)
	b := buf.Bytes()
	// An empty graph ends: u (uint64), codec flag (uint8), crc (uint32).
	b = b[:len(b)-8-1-4]
	return binary.LittleEndian.AppendUint64(b, math.MaxInt32)
}

// hostileFlat and hostileIVF claim 2^31-1 vectors of dimension 65,536,
// and 2^24 trained cells.
func hostileFlat() []byte {
	b := append([]byte(nil), flatMagic[:]...)
	b = binary.LittleEndian.AppendUint32(b, encodingVersion)
	b = binary.LittleEndian.AppendUint32(b, 1<<16)
	return binary.LittleEndian.AppendUint64(b, math.MaxInt32)
}

func hostileIVF(cellCount bool) []byte {
	b := append([]byte(nil), ivfMagic[:]...)
	b = binary.LittleEndian.AppendUint32(b, encodingVersion)
	if !cellCount {
		b = binary.LittleEndian.AppendUint32(b, 1<<16)    // dim
		b = binary.LittleEndian.AppendUint32(b, maxCells) // cells
		return append(b, 1)                               // trained
	}
	// One cell of dimension 2, its centroid, then a huge vector count.
	b = binary.LittleEndian.AppendUint32(b, 2)
	b = binary.LittleEndian.AppendUint32(b, 1)
	b = append(b, 1)
	b = append(b, make([]byte, 8)...)
	return binary.LittleEndian.AppendUint64(b, math.MaxInt32)
}

// allocated returns the bytes f allocates on the heap. The package's
// tests do not run in parallel, so the count is f's.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// stream hides the length of a reader, as a pipe would.
type stream struct{ r io.Reader }

func (s stream) Read(p []byte) (int, error) { return s.r.Read(p) }

// decodeAny decodes b, through wrap, as the kind its magic names, so one
// table can hold every decoder's hostile inputs.
func decodeAny(b []byte, wrap func(io.Reader) io.Reader) error {
	r := wrap(bytes.NewReader(b))
	var err error
	switch {
	case bytes.HasPrefix(b, hnswMagic[:]):
		_, err = DecodeHNSW(r)
	case bytes.HasPrefix(b, flatMagic[:]):
		_, err = DecodeFlat(r)
	default:
		_, err = DecodeIVF(r, nil)
	}
	return err
}

func known(r io.Reader) io.Reader   { return r }
func unknown(r io.Reader) io.Reader { return stream{r} }

// TestDecodeHostileCounts: counts in a header that the bytes after it
// cannot hold are refused before anything is allocated for them, with an
// error naming the field; from a stream of unknown length, storage grows
// with the data and the input ends in a truncation error.
func TestDecodeHostileCounts(t *testing.T) {
	cases := []struct {
		name, field string
		b           []byte
	}{
		{"HNSW 149 bytes", "HNSW node count 4096", hostileHNSW(4096, 149-61)},
		{"HNSW nodes", "HNSW node count 2147483647", hostileHNSW(math.MaxInt32, 0)},
		{"HNSW nodes over the limit", "HNSW node count 18446744073709551615, over the limit", hostileHNSW(math.MaxUint64, 0)},
		{"HNSW upper words", "HNSW upper-layer word count 2147483647", hostileUpper()},
		{"Flat vectors", "Flat vector count 2147483647", hostileFlat()},
		{"IVF cells", "IVF cell count 16777216", hostileIVF(false)},
		{"IVF cell vectors", "IVF cell vector count 2147483647", hostileIVF(true)},
	}
	if n := len(cases[0].b); n != 149 {
		t.Fatalf("the finding's input is %d bytes, want 149", n)
	}
	for _, c := range cases {
		var err error
		got := allocated(func() { err = decodeAny(c.b, known) })
		if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), c.field) {
			t.Errorf("%s: %v, want ErrFormat naming %q", c.name, err, c.field)
		}
		// The decoder's own buffer is 32 KB; nothing else is reserved.
		if got > 128<<10 {
			t.Errorf("%s: decoding %d bytes allocated %d", c.name, len(c.b), got)
		}
		var serr error
		fromStream := allocated(func() { serr = decodeAny(c.b, unknown) })
		if !errors.Is(serr, ErrFormat) {
			t.Errorf("%s from a stream: %v, want ErrFormat", c.name, serr)
		}
		if fromStream > 2<<20 {
			t.Errorf("%s from a stream: decoding %d bytes allocated %d", c.name, len(c.b), fromStream)
		}
		t.Logf("%s: %d bytes allocated, %d from a stream: %v", c.name, got, fromStream, err)
	}
}

// TestDecodeFromFile: a file tells its length by seeking, so a hostile
// count in it is refused by name; the decoder seeks back to where it
// started and reads exactly its encoding, leaving what follows.
func TestDecodeFromFile(t *testing.T) {
	h := NewHNSW(3, HNSWOptions{M: 2})
	for i := range 20 {
		h.Add(uint64(i), []float32{float32(i), 1, -1})
	}
	var buf bytes.Buffer
	buf.WriteString("head")
	if err := h.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	buf.WriteString("next")
	path := filepath.Join(t.TempDir(), "graph")
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Seek(4, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	g, err := DecodeHNSW(f)
	if err != nil || g.Len() != 20 {
		t.Fatalf("decoding from a file: %v", err)
	}
	if rest, _ := io.ReadAll(f); string(rest) != "next" {
		t.Fatalf("after the encoding the file holds %q, want %q", rest, "next")
	}

	if err := os.WriteFile(path, hostileHNSW(4096, 149-61), 0o600); err != nil {
		t.Fatal(err)
	}
	hf, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer hf.Close()
	var derr error
	if got := allocated(func() { _, derr = DecodeHNSW(hf) }); got > 128<<10 {
		t.Errorf("decoding the hostile file allocated %d", got)
	}
	if !errors.Is(derr, ErrFormat) || !strings.Contains(derr.Error(), "HNSW node count 4096 needs") {
		t.Fatalf("hostile file: %v, want ErrFormat naming the node count", derr)
	}
}

// TestDecodeReservesExactly: from a reader that tells its length, the
// decoded arrays are reserved at their final size instead of grown, so
// decoding allocates about the index's own size (growing them allocated
// over four times the encoding's size).
func TestDecodeReservesExactly(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	// Over 4,096 nodes: the old decoder reserved that many and grew.
	h := NewHNSW(32, HNSWOptions{M: 4, EfConstruction: 16})
	for i := range 10000 {
		h.Add(uint64(i), gaussVector(rng, 32))
	}
	var buf bytes.Buffer
	if err := h.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	var err error
	got := allocated(func() { _, err = DecodeHNSW(bytes.NewReader(b)) })
	if err != nil {
		t.Fatal(err)
	}
	// Node blocks padded to cache lines, the id map and the decoder's
	// buffer come on top of the encoding's bytes.
	if limit := uint64(len(b))*3/2 + 256<<10; got > limit {
		t.Fatalf("decoding a %d-byte encoding allocated %d, want at most %d", len(b), got, limit)
	}
	t.Logf("decoding a %d-byte encoding allocated %d", len(b), got)
}
