package vector

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

// linksFixture returns an External pair's index with tombstones and upper
// layers, the ids' live rows, and the queries.
func linksFixture(t *testing.T, quantize bool) *externalPair {
	t.Helper()
	p := newExternalPair(t, 3000, 24, quantize)
	for id := uint64(3); id < 3000; id += 7 {
		p.own.Delete(id)
		p.ext.Delete(id)
		p.release(id)
	}
	if p.ext.deleted == 0 || p.ext.top < 1 {
		t.Fatalf("fixture with %d tombstones and top layer %d, want both", p.ext.deleted, p.ext.top)
	}
	return p
}

func (p *externalPair) vectorOf(id uint64) ([]float32, bool) {
	v, ok := p.rows[id]
	return v, ok
}

// TestHNSWLinksRoundTrip: EncodeLinks writes the graph without the live
// vectors, and DecodeHNSWLinks over the same rows gives an External index
// that answers every query exactly as the original, refers to the rows
// given, encodes again to the same bytes (and with Encode to the
// original's), and goes on changing exactly as a DecodeHNSW copy does; an
// External index's Encode decodes with DecodeHNSW as an owning index.
func TestHNSWLinksRoundTrip(t *testing.T) {
	for _, quantize := range []bool{false, true} {
		p := linksFixture(t, quantize)
		for _, src := range []*HNSW{p.own, p.ext} {
			full := encoded(t, src.Encode)
			links := encoded(t, src.EncodeLinks)
			if saved := len(full) - len(links); saved != 4*24*src.Len() {
				t.Fatalf("EncodeLinks is %d bytes smaller than Encode, want the %d live vectors' %d", saved, src.Len(), 4*24*src.Len())
			}
			d, err := DecodeHNSWLinks(bytes.NewReader(links), p.vectorOf)
			if err != nil {
				t.Fatal(err)
			}
			if !d.Options().External || (d.codec != nil) != quantize || d.Len() != src.Len() {
				t.Fatalf("decoded External %v, codec %v, %d vectors of %d", d.Options().External, d.codec != nil, d.Len(), src.Len())
			}
			for id, row := range p.rows {
				if n := d.byID[id]; &d.rows[n][0] != &row[0] {
					t.Fatalf("id %d: the decoded index copied its row", id)
				}
			}
			sameAnswers(t, "decoded", src, d, p.queries)
			if again := encoded(t, d.EncodeLinks); !bytes.Equal(again, links) {
				t.Fatal("EncodeLinks of the decoded index differs")
			}
			if again := encoded(t, d.Encode); !bytes.Equal(again, full) {
				t.Fatal("Encode of the decoded index differs from the original's")
			}

			// The same changes to a DecodeHNSW copy and to the links
			// decode keep them alike.
			o, err := DecodeHNSW(bytes.NewReader(full))
			if err != nil {
				t.Fatal(err)
			}
			if o.external || o.rows != nil {
				t.Fatal("DecodeHNSW gave an External index")
			}
			sameAnswers(t, "DecodeHNSW of Encode", src, o, p.queries)
			rng := rand.New(rand.NewPCG(31, 32))
			for i := range 200 {
				v := gaussVector(rng, 24)
				for _, h := range []*HNSW{o, d} {
					if err := h.Add(uint64(10000+i), v); err != nil {
						t.Fatal(err)
					}
					h.Delete(uint64(i * 11))
				}
			}
			sameAnswers(t, "after Add and Delete", o, d, p.queries)
			o.Compact()
			d.Compact()
			checkGraph(t, d)
			if d.deleted != 0 || !sameGraph(o, d) {
				t.Fatal("after Compact the graphs differ")
			}
			sameAnswers(t, "after Compact", o, d, p.queries)
		}
	}
}

// TestHNSWLinksRefusals: each decoder refuses the other's encoding with
// an ErrFormat that names the right decoder; damaged or truncated
// encodings fail with ErrFormat, from a file-like reader and from a
// stream; missing or wrong-length vectors fail naming the id.
func TestHNSWLinksRefusals(t *testing.T) {
	p := linksFixture(t, false)
	full := encoded(t, p.ext.Encode)
	links := encoded(t, p.ext.EncodeLinks)
	if _, err := DecodeHNSW(bytes.NewReader(links)); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "DecodeHNSWLinks") {
		t.Fatalf("DecodeHNSW of EncodeLinks' output: %v", err)
	}
	if _, err := DecodeHNSWLinks(bytes.NewReader(full), p.vectorOf); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "with DecodeHNSW") {
		t.Fatalf("DecodeHNSWLinks of Encode's output: %v", err)
	}
	for _, wrap := range []func(io.Reader) io.Reader{known, unknown} {
		decode := func(b []byte) error {
			_, err := DecodeHNSWLinks(wrap(bytes.NewReader(b)), p.vectorOf)
			return err
		}
		for cut := 0; cut < len(links); cut += 1 + cut/3 {
			if err := decode(links[:cut]); !errors.Is(err, ErrFormat) {
				t.Fatalf("truncated to %d of %d bytes: %v", cut, len(links), err)
			}
		}
		for _, at := range []int{9, 20, 60, 70, len(links) / 3, len(links) / 2, len(links) - 10} {
			bad := bytes.Clone(links)
			bad[at] ^= 0x41
			if err := decode(bad); !errors.Is(err, ErrFormat) {
				t.Fatalf("byte %d damaged: %v", at, err)
			}
		}
	}

	var missing uint64 = 2998
	if _, ok := p.rows[missing]; !ok {
		t.Fatal("fixture: id 2998 is not live")
	}
	_, err := DecodeHNSWLinks(bytes.NewReader(links), func(id uint64) ([]float32, bool) {
		if id == missing {
			return nil, false
		}
		return p.vectorOf(id)
	})
	if err == nil || !strings.Contains(err.Error(), "id 2998") {
		t.Fatalf("a vector missing: %v", err)
	}
	_, err = DecodeHNSWLinks(bytes.NewReader(links), func(id uint64) ([]float32, bool) {
		v, ok := p.vectorOf(id)
		if id == missing {
			v = v[:23]
		}
		return v, ok
	})
	if err == nil || !strings.Contains(err.Error(), "id 2998 has 23 values") {
		t.Fatalf("a vector of the wrong length: %v", err)
	}
	if _, err := DecodeHNSWLinks(bytes.NewReader(links), nil); err == nil {
		t.Fatal("a nil vectorOf was accepted")
	}
}
