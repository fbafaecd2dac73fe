package lexical

import (
	"encoding/binary"
	"testing"

	"github.com/fonte-rag/fonte/analysis"
)

// fuzzModel is the small model the in-place fuzz targets start from: a
// repeated word (frequency 3), an empty document, terms sharing prefixes.
func fuzzModel() *BM25 {
	return NewBM25([]string{"apple banana apple apple", "banana cherry", "", "cherry applet", "banana"}, analysis.Sklearn(), DefaultBM25Options())
}

// exercise runs every search and accessor on an opened model; the fuzz
// targets only check that none panics or reads out of bounds (the race
// detector's checkptr and Go's bounds checks would fail it).
func exercise(t *testing.T, m *BM25) {
	an := m.ix.an
	for _, q := range []string{"apple", "banana cherry banana", "applet zzz", "cherry apple banana applet", ""} {
		toks := an.Analyze(q)
		m.Scores(q)
		m.Search(q, 3)
		m.TopK(toks, 2, nil)
		m.TopKShare(toks, 4, func(d int) bool { return d%2 == 0 })
		withPruning(t, func() { m.TopK(toks, 1, nil) })
		m.MaxScoreTokens(toks)
		for d := range m.N() + 1 {
			m.ScoreDoc(toks, d)
		}
	}
	ix := m.Index()
	for id := range ix.NumTerms() {
		ix.Postings(id)
		ix.TermID(ix.Term(id))
	}
	for d := range ix.N() {
		ix.DocTerms(d)
	}
	NewTFIDFIndex(ix, TFIDFOptions{}).Search("banana apple", 2)
	if _, err := OpenBM25InPlace(m.AppendInPlace(nil), an); err != nil {
		t.Fatalf("re-encoding an opened model: %v", err)
	}
}

// FuzzOpenBM25InPlace feeds arbitrary bytes, magic restored and resealed,
// to the opener: it rejects them or returns a model that searches without
// panicking.
func FuzzOpenBM25InPlace(f *testing.F) {
	good := fuzzModel().AppendInPlace(nil)
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add(NewBM25(nil, analysis.Sklearn(), DefaultBM25Options()).AppendInPlace(nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) >= inplaceHeader+4 {
			copy(data, inplaceMagic)
			data = reseal(data)
		}
		m, err := OpenBM25InPlace(data, analysis.Sklearn())
		if err != nil {
			return
		}
		exercise(t, m)
	})
}

// FuzzInPlaceEdits damages a sound form in place, each edit a 2-byte
// offset past the magic and a byte to store there, so that most inputs get
// past the header's checks and reach the postings.
func FuzzInPlaceEdits(f *testing.F) {
	good := fuzzModel().AppendInPlace(nil)
	f.Add([]byte{})
	f.Add([]byte{byte(len(good) - 40), 0, 9})
	f.Add([]byte{byte(len(good) - 20), 0, 0, byte(len(good) - 30), 0, 0xff})
	f.Fuzz(func(t *testing.T, edits []byte) {
		data := append([]byte(nil), good...)
		body := data[len(inplaceMagic) : len(data)-4]
		for ; len(edits) >= 3; edits = edits[3:] {
			off := int(binary.LittleEndian.Uint16(edits)) % len(body)
			body[off] = edits[2]
		}
		m, err := OpenBM25InPlace(reseal(data), analysis.Sklearn())
		if err != nil {
			return
		}
		exercise(t, m)
	})
}
