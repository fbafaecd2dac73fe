package vector

// This file holds the inner-product kernel alone so that an assembly
// (AVX2/FMA) version can replace it behind a build tag without touching the
// callers.

// Dot returns the inner product of a and b. It panics if their lengths
// differ: a silent truncation would turn a dimension bug into wrong scores.
func Dot(a, b []float32) float32 {
	if len(a) != len(b) {
		panic("vector: Dot of slices with different lengths")
	}
	// Eight independent accumulators keep eight multiply-adds in flight
	// instead of one serial chain; with them pure Go runs at several times
	// the speed of the naive loop. The reslicing lets the compiler drop the
	// bounds checks inside the loop.
	var s0, s1, s2, s3, s4, s5, s6, s7 float32
	i := 0
	for ; len(a)-i >= 8; i += 8 {
		x := a[i : i+8 : i+8]
		y := b[i : i+8 : i+8]
		s0 += x[0] * y[0]
		s1 += x[1] * y[1]
		s2 += x[2] * y[2]
		s3 += x[3] * y[3]
		s4 += x[4] * y[4]
		s5 += x[5] * y[5]
		s6 += x[6] * y[6]
		s7 += x[7] * y[7]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))
}
