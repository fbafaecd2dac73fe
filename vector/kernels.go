package vector

import "math"

// Normalize scales v in place to unit L2 norm, so that inner products
// between normalised vectors are cosines. A zero vector, which has no
// direction, is left unchanged. The norm is accumulated in float64 so long
// vectors lose no precision.
func Normalize(v []float32) {
	var ss float64
	for _, x := range v {
		ss += float64(x) * float64(x)
	}
	if ss == 0 {
		return
	}
	inv := 1 / math.Sqrt(ss)
	for i, x := range v {
		v[i] = float32(float64(x) * inv)
	}
}

// sqDist returns the squared Euclidean distance between a and b, which
// must have the same length. Differences are taken before squaring, which
// is exact where the |a|²−2a·b+|b|² expansion cancels.
func sqDist(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; len(a)-i >= 4; i += 4 {
		x := a[i : i+4 : i+4]
		y := b[i : i+4 : i+4]
		d0, d1, d2, d3 := x[0]-y[0], x[1]-y[1], x[2]-y[2], x[3]-y[3]
		s0 += d0 * d0
		s1 += d1 * d1
		s2 += d2 * d2
		s3 += d3 * d3
	}
	for ; i < len(a); i++ {
		d := a[i] - b[i]
		s0 += d * d
	}
	return (s0 + s1) + (s2 + s3)
}

// finite reports whether every element of v is a finite number. A NaN in an
// index would make every comparison with it false and scramble the top-k.
func finite(v []float32) bool {
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return false
		}
	}
	return true
}
