package vector

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkSignEstimate measures the 1-bit estimate of every row of a
// set of 500,000 rows at 384 dimensions (24 MB of sign codes, past the
// caches), as a restricted reader of half a million chunks pays on each
// query: the popcount kernel and the estimates, without the candidates.
func BenchmarkSignEstimate(b *testing.B) {
	const n, dim = 500_224, 384 // whole blocks of scoreBlock rows
	rng := rand.New(rand.NewPCG(13, 14))
	words := dim / 64
	s := &SignCodes{words: words, bits: make([]uint64, n*words), factor: make([]float32, n), pop: make([]uint16, n)}
	for i := range s.bits {
		s.bits[i] = rng.Uint64()
	}
	for r := range n {
		s.factor[r] = rng.Float32()
		s.pop[r] = uint16(rng.IntN(dim))
	}
	sq := newSignQuery(gaussVector(rng, dim), words)
	var acc [scoreBlock]int32
	var out [scoreBlock]float32
	var masks [scoreBlock / signLanes]uint8
	b.SetBytes(int64(len(s.bits) * 8))
	for b.Loop() {
		for lo := 0; lo < n; lo += scoreBlock {
			s.estimate(&sq, 0.1, 0.5, lo, acc[:], out[:], masks[:])
		}
	}
}
