package vector

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The decoders' fuzz targets. Each input is decoded as it is and resealed
// (its last four bytes replaced by the checksum of the rest), since a
// mutated encoding almost always fails its checksum first and the checks
// behind it would go unexercised; a blob can also be damaged before it is
// checksummed. Each is decoded from a reader that knows its length (as
// disk hands the graph blob over) and from a stream that does not: both
// must agree, a rejection must wrap ErrFormat, a decode from the known
// length must allocate at most a small multiple of the input, and an
// accepted index must re-encode to exactly the bytes read and answer
// searches (and for HNSW deletes, adds and compactions) without
// panicking.

// sealed returns b as is and, when it differs, resealed.
func sealed(b []byte) [][]byte {
	if len(b) < 4 {
		return [][]byte{b}
	}
	r := bytes.Clone(b)
	binary.LittleEndian.PutUint32(r[len(r)-4:], crc32.Checksum(r[:len(r)-4], castagnoli))
	if bytes.Equal(r, b) {
		return [][]byte{b}
	}
	return [][]byte{b, r}
}

// decodeBudget is the most a decode of b may allocate: the decoder's
// buffers, and a multiple of the input for what it decodes (node blocks
// padded to cache lines, the id map, Int8 codes a cache line each).
func decodeBudget(b []byte) uint64 { return 256<<10 + 64*uint64(len(b)) }

// encoded returns what enc writes.
func encoded(t testing.TB, enc func(io.Writer) error) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := enc(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// seedHNSWs are small valid encodings: empty, a few nodes, tombstones, a
// fitted Int8 codec, several layers.
func seedHNSWs(t testing.TB) [][]byte {
	var seeds [][]byte
	seeds = append(seeds, encoded(t, NewHNSW(3, HNSWOptions{}).Encode))
	rng := rand.New(rand.NewPCG(5, 5))
	for _, o := range []HNSWOptions{{M: 2}, {M: 3, KeepPruned: true, Quantize: true, TombstoneShare: -1}, {M: 2, LevelMult: 3}} {
		h := NewHNSW(3, o)
		for i := range 12 {
			if err := h.Add(uint64(i*7), gaussVector(rng, 3)); err != nil {
				t.Fatal(err)
			}
		}
		if o.Quantize {
			h.Delete(14)
			h.Delete(21)
			h.fitPrefix(len(h.ids)) // a codec on a small index, as on a large one
		}
		seeds = append(seeds, encoded(t, h.Encode))
	}
	return seeds
}

func FuzzDecodeHNSW(f *testing.F) {
	for _, s := range seedHNSWs(f) {
		f.Add(s)
	}
	f.Add(hostileHNSW(4096, 149-61))
	f.Add(hostileHNSW(math.MaxInt32, 0))
	f.Add(hostileUpper())
	f.Fuzz(func(t *testing.T, raw []byte) {
		for _, b := range sealed(raw) {
			if h, ok := fuzzDecode(t, b, DecodeHNSW); ok {
				exerciseHNSW(t, h)
			}
		}
	})
}

// encodable is an index that encodes itself.
type encodable interface{ Encode(io.Writer) error }

// fuzzDecode decodes b from a reader that knows its length, within
// decodeBudget, and from a stream. Both must agree; a rejection must wrap
// ErrFormat; an accepted index must re-encode to exactly the bytes read.
// It returns the index and whether b was accepted.
func fuzzDecode[T encodable](t *testing.T, b []byte, decode func(io.Reader) (T, error)) (T, bool) {
	t.Helper()
	var x T
	var err error
	r := bytes.NewReader(b)
	if got := allocated(func() { x, err = decode(r) }); got > decodeBudget(b) {
		t.Fatalf("decoding %d bytes allocated %d", len(b), got)
	}
	_, serr := decode(stream{bytes.NewReader(b)})
	if err != nil && !errors.Is(err, ErrFormat) {
		t.Fatalf("rejected without ErrFormat: %v", err)
	}
	if (err == nil) != (serr == nil) || (serr != nil && !errors.Is(serr, ErrFormat)) {
		t.Fatalf("from a known length: %v; from a stream: %v", err, serr)
	}
	if err != nil {
		return x, false
	}
	if again := encoded(t, x.Encode); !bytes.Equal(again, b[:len(b)-r.Len()]) {
		t.Fatal("re-encoding gives other bytes than were decoded")
	}
	return x, true
}

// exerciseHNSW runs every operation on a decoded graph, however odd its
// shape, and checks what searches return.
func exerciseHNSW(t *testing.T, h *HNSW) {
	q := make([]float32, h.Dim())
	for i := range q {
		q[i] = float32(i%3) - 0.5
	}
	check := func(what string, res []Result, k int) {
		t.Helper()
		if len(res) > k || len(res) > h.Len() || (h.Len() > 0 && len(res) < min(k, h.Len())) {
			t.Fatalf("%s: %d results for k %d over %d vectors", what, len(res), k, h.Len())
		}
		for i, r := range res {
			if i > 0 && !before(res[i-1], r) {
				t.Fatalf("%s: results out of order: %v", what, res)
			}
			n, ok := h.byID[r.ID]
			if !ok || r.Score != Dot(q, h.vec(n)) {
				t.Fatalf("%s: result %v is not a stored vector's score", what, r)
			}
		}
	}
	check("Search", h.Search(q, 3), 3)
	check("SearchEf", h.SearchEf(q, 2, 1), 2)
	check("SearchFilter", h.SearchFilter(q, 3, func(id uint64) bool { return id%2 == 0 }), 3)
	ids := slices.Clone(h.ids)
	if len(ids) > 0 {
		h.Delete(ids[0])
		check("Search after Delete", h.Search(q, 3), 3)
	}
	if err := h.Add(math.MaxUint64, q); err != nil {
		t.Fatalf("Add to a decoded index: %v", err)
	}
	if len(ids) > 1 {
		h.Add(ids[len(ids)-1], q) // a replacement
	}
	check("Search after Add", h.Search(q, 3), 3)
	h.Compact()
	check("Search after Compact", h.Search(q, 3), 3)
	added := h.SearchFilter(q, 1, func(id uint64) bool { return id == math.MaxUint64 })
	if len(added) != 1 || added[0].Score != Dot(q, q) {
		t.Fatalf("the added vector is not found: %v", added)
	}
}

func FuzzDecodeFlat(f *testing.F) {
	f.Add(encoded(f, NewFlat(3).Encode))
	fl := NewFlat(2)
	for i := range 9 {
		fl.Add(uint64(i*5), []float32{float32(i), 1})
	}
	fl.Delete(10)
	f.Add(encoded(f, fl.Encode))
	f.Add(hostileFlat())
	f.Fuzz(func(t *testing.T, raw []byte) {
		for _, b := range sealed(raw) {
			x, ok := fuzzDecode(t, b, DecodeFlat)
			if !ok {
				continue
			}
			q := make([]float32, x.Dim())
			q[0] = 1
			if res := x.Search(q, 4); len(res) != min(4, x.Len()) {
				t.Fatalf("%d results of %d vectors", len(res), x.Len())
			}
		}
	})
}

func FuzzDecodeIVF(f *testing.F) {
	f.Add(encoded(f, NewIVF(3, 2, nil).Encode))
	x := NewIVF(2, 3, nil)
	data := []float32{1, 0, 0, 1, -1, 0, 0, -1, 1, 1, -1, -1}
	if err := x.Train(data); err != nil {
		f.Fatal(err)
	}
	for i := range 6 {
		x.Add(uint64(i), data[2*i:2*i+2])
	}
	f.Add(encoded(f, x.Encode))
	f.Add(hostileIVF(false))
	f.Add(hostileIVF(true))
	f.Fuzz(func(t *testing.T, raw []byte) {
		for _, b := range sealed(raw) {
			y, ok := fuzzDecode(t, b, func(r io.Reader) (*IVF, error) { return DecodeIVF(r, nil) })
			if !ok {
				continue
			}
			q := make([]float32, y.Dim())
			q[0] = 1
			if res, _ := y.Search(q, 4, y.Cells()); len(res) != min(4, y.Len()) {
				t.Fatalf("%d results of %d vectors, every cell probed", len(res), y.Len())
			}
		}
	})
}

// TestDecodeSeeds: the fuzz targets' valid seeds decode, so the fuzzers
// start from indexes that exercise every operation, not only rejections.
func TestDecodeSeeds(t *testing.T) {
	for i, s := range seedHNSWs(t) {
		h, err := DecodeHNSW(bytes.NewReader(s))
		if err != nil {
			t.Fatalf("seed %d: %v", i, err)
		}
		if i > 0 && h.Len() < 10 {
			t.Fatalf("seed %d holds %d vectors", i, h.Len())
		}
		if i == 2 && h.codec == nil {
			t.Fatal("the quantized seed has no codec")
		}
	}
}
