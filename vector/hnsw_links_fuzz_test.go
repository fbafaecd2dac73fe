package vector

import (
	"bytes"
	"encoding/binary"
	"io"
	"testing"
)

// linksIndex encodes as EncodeLinks does, so fuzzDecode's re-encoding
// check applies to DecodeHNSWLinks.
type linksIndex struct{ *HNSW }

func (x linksIndex) Encode(w io.Writer) error { return x.EncodeLinks(w) }

// linksVectors returns a vectorOf for an input whose header says dim:
// every live id gets one of 16 overlapping windows of one buffer,
// allocated before the decode so that it does not count against the
// decoder's allocation budget. ok is false for a header too short or a
// dimension too large to serve.
func linksVectors(b []byte) (vectorOf func(uint64) ([]float32, bool), ok bool) {
	if len(b) < 16 {
		return func(uint64) ([]float32, bool) { return nil, false }, true // fails before any id
	}
	dim := int(binary.LittleEndian.Uint32(b[12:]))
	if dim < 1 || dim > 4096 {
		return nil, false
	}
	buf := make([]float32, dim+16)
	for i := range buf {
		buf[i] = float32(i%5) - 2
	}
	return func(id uint64) ([]float32, bool) {
		k := int(id % 16)
		return buf[k : k+dim : k+dim], true
	}, true
}

func FuzzDecodeHNSWLinks(f *testing.F) {
	for _, s := range seedHNSWs(f) {
		h, err := DecodeHNSW(bytes.NewReader(s))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(encoded(f, h.EncodeLinks))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		for _, b := range sealed(raw) {
			vectorOf, ok := linksVectors(b)
			if !ok {
				continue
			}
			decode := func(r io.Reader) (linksIndex, error) {
				h, err := DecodeHNSWLinks(r, vectorOf)
				return linksIndex{h}, err
			}
			if x, ok := fuzzDecode(t, b, decode); ok {
				if !x.external {
					t.Fatal("DecodeHNSWLinks returned an owning index")
				}
				exerciseHNSW(t, x.HNSW)
			}
		}
	})
}
