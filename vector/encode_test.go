package vector

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"
)

func TestFlatEncodeRoundTrip(t *testing.T) {
	_, f, _, queries := newTestIVF(t, 1200, 20, 10, 6)
	f.Delete(17) // the encoding must hold the post-delete layout
	var buf bytes.Buffer
	if err := f.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	encoded := bytes.Clone(buf.Bytes())
	buf.WriteString("trailing data belongs to the next reader")
	g, err := DecodeFlat(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if buf.String() != "trailing data belongs to the next reader" {
		t.Fatalf("decoder read past its encoding: %q left", buf.String())
	}
	if g.Len() != f.Len() || g.Dim() != f.Dim() {
		t.Fatalf("decoded %d×%d, want %d×%d", g.Len(), g.Dim(), f.Len(), f.Dim())
	}
	for qi := range queries.Rows {
		q := queries.Row(qi)
		if !equalResults(f.Search(q, 15), g.Search(q, 15)) {
			t.Fatalf("query %d: decoded index answers differently", qi)
		}
	}
	var again bytes.Buffer
	g.Encode(&again)
	if !bytes.Equal(encoded, again.Bytes()) {
		t.Fatal("re-encoding the decoded index gives other bytes")
	}
	// The decoded index is fully working: ids map to rows.
	if !g.Delete(18) || g.Delete(17) {
		t.Fatal("decoded index lost its id map")
	}
	checkCorruption(t, encoded, func(r io.Reader) error { _, err := DecodeFlat(r); return err })
}

func TestIVFEncodeRoundTrip(t *testing.T) {
	x, _, _, queries := newTestIVF(t, 1200, 20, 10, 7)
	x.Delete(3)
	var buf bytes.Buffer
	if err := x.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	encoded := bytes.Clone(buf.Bytes())
	y, err := DecodeIVF(&buf, nil)
	if err != nil {
		t.Fatal(err)
	}
	if y.Len() != x.Len() || y.Cells() != x.Cells() || y.Dim() != x.Dim() || !y.Trained() {
		t.Fatalf("decoded len %d cells %d dim %d", y.Len(), y.Cells(), y.Dim())
	}
	for qi := range queries.Rows {
		q := queries.Row(qi)
		for _, np := range []int{1, 3, 10} {
			a, ca := x.Search(q, 10, np)
			b, cb := y.Search(q, 10, np)
			if !equalResults(a, b) || ca != cb {
				t.Fatalf("query %d nProbe %d: decoded index answers differently", qi, np)
			}
		}
	}
	var again bytes.Buffer
	y.Encode(&again)
	if !bytes.Equal(encoded, again.Bytes()) {
		t.Fatal("re-encoding the decoded index gives other bytes")
	}
	if err := y.Add(5000, queries.Row(0)); err != nil || y.Len() != x.Len()+1 {
		t.Fatalf("Add to decoded index: %v", err)
	}
	checkCorruption(t, encoded, func(r io.Reader) error { _, err := DecodeIVF(r, nil); return err })

	// An untrained index round-trips too.
	buf.Reset()
	NewIVF(5, 4, nil).Encode(&buf)
	z, err := DecodeIVF(&buf, nil)
	if err != nil || z.Trained() || z.Cells() != 4 || z.Dim() != 5 {
		t.Fatalf("untrained round trip: %v", err)
	}
}

// checkCorruption asserts that damaged encodings fail with ErrFormat.
func checkCorruption(t *testing.T, good []byte, decode func(io.Reader) error) {
	t.Helper()
	cases := map[string][]byte{
		"empty":          nil,
		"truncated":      good[:len(good)/2],
		"no checksum":    good[:len(good)-4],
		"bad magic":      append([]byte("NOTFONTE"), good[8:]...),
		"future version": withU32(good, 8, encodingVersion+1),
		"zero dimension": withU32(good, 12, 0),
	}
	flipped := bytes.Clone(good)
	flipped[len(flipped)-10] ^= 0x40
	cases["flipped bit"] = flipped
	for name, b := range cases {
		if err := decode(bytes.NewReader(b)); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: %v, want ErrFormat", name, err)
		}
	}
	// One kind's encoding is not the other's.
	if _, err := DecodeIVF(bytes.NewReader(good), nil); err == nil {
		if _, err := DecodeFlat(bytes.NewReader(good)); err == nil {
			t.Error("an encoding decodes as both Flat and IVF")
		}
	}
}

func withU32(b []byte, off int, v uint32) []byte {
	c := bytes.Clone(b)
	binary.LittleEndian.PutUint32(c[off:], v)
	return c
}

type failWriter struct{ n int }

func (w *failWriter) Write(p []byte) (int, error) {
	if w.n -= len(p); w.n < 0 {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

func TestEncodeWriteError(t *testing.T) {
	f := NewFlat(8)
	for i := range 5000 {
		f.Add(uint64(i), make([]float32, 8))
	}
	if err := f.Encode(&failWriter{n: 1000}); err == nil {
		t.Fatal("write error not reported")
	}
}
