// Package synth generates seeded synthetic vectors for experiments and
// benchmarks: Gaussian mixtures on the unit sphere, the data of the seed's
// approximate-index experiment.
//
// Every generator takes a *rand.Rand so the caller decides the seed, and
// the same seed gives the same vectors on every platform. Vectors are
// returned as a Matrix: one contiguous row-major []float32, so that
// 100,000 × 384 vectors are a single allocation a search index can copy or
// scan without chasing pointers.
package synth

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Matrix is a row-major matrix of float32 backed by one slice: row i is
// Data[i*Dim : (i+1)*Dim].
type Matrix struct {
	Data []float32
	Rows int
	Dim  int
}

// NewMatrix returns a zeroed rows × dim matrix.
func NewMatrix(rows, dim int) Matrix {
	if rows < 0 || dim < 0 {
		panic(fmt.Sprintf("synth: negative matrix size %d×%d", rows, dim))
	}
	return Matrix{Data: make([]float32, rows*dim), Rows: rows, Dim: dim}
}

// Row returns row i as a slice aliasing m.Data. Its capacity is capped so an
// append to it cannot overwrite the next row.
func (m Matrix) Row(i int) []float32 {
	return m.Data[i*m.Dim : (i+1)*m.Dim : (i+1)*m.Dim]
}

// Slices returns one slice per row, all aliasing m.Data: the [][]float32 view
// for APIs that want it, at the cost of one slice-header allocation.
func (m Matrix) Slices() [][]float32 {
	out := make([][]float32, m.Rows)
	for i := range out {
		out[i] = m.Row(i)
	}
	return out
}

// Mixture is a Gaussian mixture whose samples are projected on the unit
// sphere: a sample is a uniformly chosen centre plus N(0, 1) noise in every
// coordinate, then L2-normalised. With centres drawn N(0, 1)·scale, the
// scale sets how strong the cluster structure is against the unit noise
// (the seed uses 50 centres at scale 0.5 in 64 dimensions: weak clusters).
type Mixture struct {
	// Centres holds one centre per row. They are not normalised.
	Centres Matrix
}

// NewMixture draws centres × dim centres with coordinates N(0, 1)·scale.
func NewMixture(rng *rand.Rand, centres, dim int, scale float64) *Mixture {
	if centres < 1 || dim < 1 {
		panic(fmt.Sprintf("synth: mixture needs at least one centre and one dimension, got %d centres of dimension %d", centres, dim))
	}
	c := NewMatrix(centres, dim)
	for i := range c.Data {
		c.Data[i] = float32(rng.NormFloat64() * scale)
	}
	return &Mixture{Centres: c}
}

// Sample draws n normalised vectors from the mixture.
func (m *Mixture) Sample(rng *rand.Rand, n int) Matrix {
	out := NewMatrix(n, m.Centres.Dim)
	m.SampleInto(rng, out.Data)
	return out
}

// SampleInto fills dst, whose length must be a multiple of the mixture's
// dimension, with normalised samples; it allocates nothing, so a benchmark
// can regenerate data in place.
func (m *Mixture) SampleInto(rng *rand.Rand, dst []float32) {
	dim := m.Centres.Dim
	if len(dst)%dim != 0 {
		panic(fmt.Sprintf("synth: destination length %d is not a multiple of dimension %d", len(dst), dim))
	}
	for off := 0; off < len(dst); off += dim {
		c := m.Centres.Row(rng.IntN(m.Centres.Rows))
		row := dst[off : off+dim]
		// Sum in float64 so the norm of a float32 row is exact to float32
		// rounding, whatever the dimension.
		var ss float64
		for j := range row {
			x := float64(c[j]) + rng.NormFloat64()
			row[j] = float32(x)
			ss += x * x
		}
		scaleRow(row, ss)
	}
}

// Clustered draws n normalised dim-dimensional vectors around centres
// random centres at the given scale: NewMixture followed by Sample. To draw
// queries from the same process, keep the Mixture and call Sample again.
func Clustered(rng *rand.Rand, n, dim, centres int, scale float64) Matrix {
	return NewMixture(rng, centres, dim, scale).Sample(rng, n)
}

// Sphere draws n vectors uniformly on the unit sphere in dim dimensions
// (normalised standard Gaussians): data without any cluster structure.
func Sphere(rng *rand.Rand, n, dim int) Matrix {
	out := NewMatrix(n, dim)
	for off := 0; off < len(out.Data); off += dim {
		row := out.Data[off : off+dim]
		var ss float64
		for j := range row {
			x := rng.NormFloat64()
			row[j] = float32(x)
			ss += x * x
		}
		scaleRow(row, ss)
	}
	return out
}

// scaleRow divides row by sqrt(ss). An all-zero row stays zero: there is no
// direction to keep.
func scaleRow(row []float32, ss float64) {
	if ss == 0 {
		return
	}
	inv := 1 / math.Sqrt(ss)
	for j := range row {
		row[j] = float32(float64(row[j]) * inv)
	}
}
