package vector

import (
	"math/rand/v2"
	"sort"
)

// bruteForce is the reference every index is checked against: score every
// vector with the same kernel, sort by (score desc, id asc), cut at k.
func bruteForce(vecs map[uint64][]float32, q []float32, k int) []Result {
	all := make([]Result, 0, len(vecs))
	for id, v := range vecs {
		all = append(all, Result{ID: id, Score: Dot(q, v)})
	}
	sort.Slice(all, func(i, j int) bool { return before(all[i], all[j]) })
	if k < 1 {
		return nil
	}
	if len(all) > k {
		all = all[:k]
	}
	if len(all) == 0 {
		return nil
	}
	return all
}

// tieVector draws a vector with coordinates in {-1, 0, 1}, so that many
// inner products are exactly equal and the id tie-break is exercised.
func tieVector(rng *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(rng.IntN(3) - 1)
	}
	return v
}

// gaussVector draws a normalised Gaussian vector.
func gaussVector(rng *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(rng.NormFloat64())
	}
	Normalize(v)
	return v
}

func equalResults(a, b []Result) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
