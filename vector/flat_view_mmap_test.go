//go:build linux || darwin

package vector

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"unsafe"
)

// TestFlatViewOverReadOnlyMapping searches a view whose rows and int8
// blocks lie in a file mapped read-only, as a store's segments do: any
// write into them would fault and kill the test. Its results must be a
// Flat's over the same rows.
func TestFlatViewOverReadOnlyMapping(t *testing.T) {
	defer forceInt8Path()()
	rng := rand.New(rand.NewPCG(71, 72))
	const dim = 100
	sizes := []int{1, 300, 7, 1}
	var rows [][]float32
	for range sum(sizes) {
		rows = append(rows, gaussVector(rng, dim))
	}
	rows[5] = rows[200] // a tie across parts

	// The file: each part's rows, then its int8 block's codes, scales and
	// sums, every section starting on a 64-byte boundary.
	var file []byte
	type section struct{ off, n int }
	put := func(p unsafe.Pointer, n int) section {
		file = append(file, make([]byte, (64-len(file)%64)%64)...)
		s := section{len(file), n}
		file = append(file, unsafe.Slice((*byte)(p), n)...)
		return s
	}
	type partAt struct {
		data, codes, scale, sum section
		bound                   Int8Block
	}
	var at []partAt
	r := 0
	for _, n := range sizes {
		var data []float32
		for _, v := range rows[r : r+n] {
			data = append(data, v...)
		}
		r += n
		b := QuantizeBlock(dim, data)
		at = append(at, partAt{
			data:  put(unsafe.Pointer(&data[0]), 4*len(data)),
			codes: put(unsafe.Pointer(&b.Codes[0]), len(b.Codes)),
			scale: put(unsafe.Pointer(&b.Scale[0]), 4*len(b.Scale)),
			sum:   put(unsafe.Pointer(&b.Sum[0]), 4*len(b.Sum)),
			bound: Int8Block{Stride: b.Stride, MaxErr: b.MaxErr, MaxNorm: b.MaxNorm},
		})
	}
	path := filepath.Join(t.TempDir(), "rows")
	if err := os.WriteFile(path, file, 0o600); err != nil {
		t.Fatal(err)
	}
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	m, err := syscall.Mmap(int(fh.Fd()), 0, len(file), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		t.Fatalf("mapping %s: %v", path, err)
	}
	defer syscall.Munmap(m)

	var parts []FlatPart
	for _, a := range at {
		b := a.bound
		b.Codes = unsafe.Slice((*int8)(unsafe.Pointer(&m[a.codes.off])), a.codes.n)
		b.Scale = unsafe.Slice((*float32)(unsafe.Pointer(&m[a.scale.off])), a.scale.n/4)
		b.Sum = unsafe.Slice((*int32)(unsafe.Pointer(&m[a.sum.off])), a.sum.n/4)
		parts = append(parts, FlatPart{
			Data: unsafe.Slice((*float32)(unsafe.Pointer(&m[a.data.off])), a.data.n/4),
			Int8: &b,
		})
	}
	parts[2].Int8 = nil // one part scanned in float32
	v, err := NewFlatView(dim, parts)
	if err != nil {
		t.Fatal(err)
	}
	queries := [][]float32{gaussVector(rng, dim), rows[200], rows[308]}
	for _, lv := range int8Levels() {
		withInt8Level(lv, func() {
			checkViewEqualsFlat(t, v, flatOf(t, dim, rows, FlatOptions{}), queries)
		})
	}
}
