package lexical

import (
	"bytes"
	"encoding"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte/analysis"
)

var (
	_ encoding.BinaryAppender  = (*Index)(nil)
	_ encoding.BinaryMarshaler = (*Index)(nil)
	_ encoding.BinaryAppender  = (*BM25)(nil)
	_ encoding.BinaryMarshaler = (*BM25)(nil)
)

func TestEncodeRoundTrip(t *testing.T) {
	docs, _ := zipfCorpus(500, 3)
	docs = append(docs, "", "a") // an empty document; one with no term left
	an := analysis.Sklearn()
	corpora := map[string]*Index{
		"synthetic": NewIndex(docs, an),
		"empty":     NewIndex(nil, an),
		"no terms":  NewIndex([]string{"", ""}, an),
		"tiny":      NewIndex([]string{"b a b", "", "c a", "A B C d"}, analysis.Seed001()),
	}
	for name, ix := range corpora {
		data, err := ix.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		got, err := DecodeIndex(data, ix.Analyzer())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(got, ix) {
			t.Errorf("%s: decoded index differs", name)
		}
		// Appending keeps what was there.
		prefixed, _ := ix.AppendBinary([]byte("xyz"))
		if !bytes.Equal(prefixed[3:], data) {
			t.Errorf("%s: AppendBinary differs from MarshalBinary", name)
		}
	}

	ix := corpora["synthetic"]
	m := NewBM25Index(ix, BM25Options{K1: 0.9, B: 0.4})
	data, _ := m.MarshalBinary()
	got, err := DecodeBM25(data, an)
	if err != nil {
		t.Fatal(err)
	}
	if got.Options() != m.Options() || !reflect.DeepEqual(got.Index(), ix) {
		t.Fatal("decoded model differs")
	}
	for _, q := range []string{docs[0][:20], "ra to ne", docs[7]} {
		if !slices.Equal(got.Scores(q), m.Scores(q)) {
			t.Errorf("%q: scores differ after decoding", q)
		}
	}
}

// reseal replaces the checksum at the end of data after an edit.
func reseal(data []byte) []byte {
	n := len(data) - 4
	binary.LittleEndian.PutUint32(data[n:], crc32.Checksum(data[:n], castagnoli))
	return data
}

func TestDecodeRejects(t *testing.T) {
	an := analysis.Sklearn()
	ix := NewIndex([]string{"apple banana apple", "banana cherry", "cherry"}, an)
	good, _ := ix.MarshalBinary()
	model, _ := NewBM25Index(ix, DefaultBM25Options()).MarshalBinary()

	// Encode by hand, as the format notes describe, to make data whose
	// checksum is right but whose content is not.
	build := func(lengths []uint64, terms []string, postings [][][2]uint64) []byte {
		b := []byte(indexMagic)
		b = binary.AppendUvarint(b, uint64(len(lengths)))
		for _, l := range lengths {
			b = binary.AppendUvarint(b, l)
		}
		b = binary.AppendUvarint(b, uint64(len(terms)))
		for _, term := range terms {
			b = binary.AppendUvarint(b, 0)
			b = binary.AppendUvarint(b, uint64(len(term)))
			b = append(b, term...)
		}
		for _, p := range postings {
			b = binary.AppendUvarint(b, uint64(len(p)))
			for _, gf := range p {
				b = binary.AppendUvarint(b, gf[0])
				b = binary.AppendUvarint(b, gf[1])
			}
		}
		return reseal(append(b, 0, 0, 0, 0))
	}
	if _, err := DecodeIndex(build([]uint64{2, 1}, []string{"a", "b"}, [][][2]uint64{{{0, 1}}, {{1, 0}}}), an); err != nil {
		t.Fatalf("hand-built valid index rejected: %v", err)
	}

	cases := map[string][]byte{
		"empty":           nil,
		"short":           good[:6],
		"other magic":     reseal(append([]byte("fonteXX\x01"), good[8:]...)),
		"model for index": model,
		"newer version":   reseal(append(append([]byte("fonteLX\x02"), good[8:len(good)-4]...), 0, 0, 0, 0)),
		"bad checksum":    append(slices.Clone(good[:len(good)-1]), good[len(good)-1]^1),
		"truncated":       reseal(append(slices.Clone(good[:len(good)-9]), 0, 0, 0, 0)),
		"trailing bytes":  reseal(append(append(slices.Clone(good[:len(good)-4]), 7), 0, 0, 0, 0)),
		"unsorted terms":  build([]uint64{1, 1}, []string{"b", "a"}, [][][2]uint64{{{0, 0}}, {{1, 0}}}),
		"repeated term":   build([]uint64{1, 1}, []string{"a", "a"}, [][][2]uint64{{{0, 0}}, {{1, 0}}}),
		"no postings":     build([]uint64{1}, []string{"a", "b"}, [][][2]uint64{{{0, 0}}, {}}),
		"doc out of range": build([]uint64{1, 1}, []string{"a"},
			[][][2]uint64{{{0, 0}, {2, 0}}}),
		"doc twice":       build([]uint64{2}, []string{"a"}, [][][2]uint64{{{0, 0}, {0, 0}}}),
		"length mismatch": build([]uint64{3}, []string{"a"}, [][][2]uint64{{{0, 1}}}),
		"huge count":      build([]uint64{math.MaxUint32}, nil, nil),
	}
	for name, data := range cases {
		_, err := DecodeIndex(data, an)
		if !errors.Is(err, ErrFormat) {
			t.Errorf("%s: err = %v, want ErrFormat", name, err)
		}
	}
	if _, err := DecodeIndex(cases["newer version"], an); err == nil || !strings.Contains(err.Error(), "version 2") {
		t.Errorf("newer version: %v", err)
	}

	// Every single-byte corruption of a model is caught, never a panic.
	for i := range model {
		bad := slices.Clone(model)
		bad[i] ^= 0x5a
		if _, err := DecodeBM25(bad, an); !errors.Is(err, ErrFormat) {
			t.Fatalf("byte %d flipped: err = %v", i, err)
		}
	}
	badOpts := slices.Clone(model)
	binary.LittleEndian.PutUint64(badOpts[8:], math.Float64bits(-1))
	if _, err := DecodeBM25(reseal(badOpts), an); !errors.Is(err, ErrFormat) {
		t.Errorf("negative k1: err = %v", err)
	}
}

// FuzzDecodeIndex feeds DecodeIndex arbitrary bytes, resealed so that most
// get past the checksum: it must return an error or a consistent index,
// never panic.
func FuzzDecodeIndex(f *testing.F) {
	good, _ := NewIndex([]string{"apple banana apple", "banana cherry", "", "cherry"}, analysis.Sklearn()).MarshalBinary()
	f.Add(good)
	f.Add([]byte(indexMagic + "\x00\x00\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) >= len(indexMagic)+4 {
			copy(data, indexMagic)
			data = reseal(data)
		}
		ix, err := DecodeIndex(data, analysis.Sklearn())
		if err != nil {
			return
		}
		again, _ := ix.MarshalBinary()
		if back, err := DecodeIndex(again, analysis.Sklearn()); err != nil || !reflect.DeepEqual(back, ix) {
			t.Fatalf("re-encoding a decoded index: %v", err)
		}
		NewBM25Index(ix, DefaultBM25Options()).TopK(ix.Terms(), 3, nil)
	})
}
