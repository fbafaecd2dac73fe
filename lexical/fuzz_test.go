package lexical

import (
	"reflect"
	"testing"

	"github.com/fonte-rag/fonte/analysis"
)

// FuzzDecodeBM25 feeds resealed mutations of a BM25 model to the decoder:
// it rejects them, or returns a model that scores without panicking and
// re-encodes to bytes decoding to the same model.
func FuzzDecodeBM25(f *testing.F) {
	an := analysis.Sklearn()
	good, _ := NewBM25([]string{"apple banana apple", "banana cherry", "", "cherry"}, an, DefaultBM25Options()).MarshalBinary()
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte(bm25Magic + "\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) >= len(bm25Magic)+4 {
			copy(data, bm25Magic)
			data = reseal(data)
		}
		m, err := DecodeBM25(data, an)
		if err != nil {
			return
		}
		again, _ := m.MarshalBinary()
		back, err := DecodeBM25(again, an)
		if err != nil || !reflect.DeepEqual(back, m) {
			t.Fatalf("re-encoding a decoded model: %v", err)
		}
		m.TopK([]string{"apple", "cherry", "zzz"}, 3, nil)
	})
}
