package vector

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
)

// FlatInt8Options configures a FlatInt8.
type FlatInt8Options struct {
	// KeepFloat keeps every vector's float32 values beside its int8
	// codes. Search then scans the codes, re-scores in float32 every
	// vector that a proven error bound cannot rule out, and returns
	// exactly what Flat returns for the same vectors: the same ids, the
	// same scores and the same order. Flat's own Search now works this
	// way (it keeps the same int8 copy), so a KeepFloat index holds about
	// as much memory as a Flat and searches at the same speed one query at
	// a time; its SearchBatch scans the codes too, where Flat's reads each
	// float32 row once for a group of queries.
	//
	// Without KeepFloat the index holds the codes only, about a quarter
	// of Flat's memory, and results are ranked and scored by the int8
	// approximation of the inner product.
	KeepFloat bool
}

// FlatInt8 is a linear-scan inner-product index over vectors scalar
// quantised to int8: each vector x is stored as codes c in [-127, 127]
// and one scale s = max|x_i|/127, so x ≈ s·c. A query is quantised the
// same way, the inner products of the codes are computed exactly in
// integers (AVX-512 VNNI or AVX2 where available), and the score is the
// product of the two scales and the integer inner product.
//
// Ties are broken by ascending id, as in Flat. A FlatInt8 is safe for
// concurrent use.
type FlatInt8 struct {
	mu   sync.RWMutex
	dim  int
	keep bool // float32 vectors kept, searches exact

	rows8 Int8Block      // the codes, row by row
	data  []float32      // the float32 vectors when keep, else nil
	ids   []uint64       // ids[i] is the id of row i
	row   map[uint64]int // id -> row

	scratch sync.Pool // *flat8Scratch
}

// NewFlatInt8 returns an empty int8 index for vectors of length dim. It
// panics if dim < 1 or dim > 131072 (where an inner product of codes could
// overflow 32 bits).
func NewFlatInt8(dim int, opts FlatInt8Options) *FlatInt8 {
	if dim < 1 || dim > maxFlatInt8Dim {
		panic(fmt.Sprintf("vector: NewFlatInt8 dimension %d, want 1 to %d", dim, maxFlatInt8Dim))
	}
	return &FlatInt8{
		dim:   dim,
		rows8: newInt8Rows(dim),
		keep:  opts.KeepFloat,
		row:   make(map[uint64]int),
	}
}

// Dim returns the length of the vectors the index holds.
func (f *FlatInt8) Dim() int { return f.dim }

// Exact reports whether searches return exact results (KeepFloat).
func (f *FlatInt8) Exact() bool { return f.keep }

// Len returns the number of vectors in the index.
func (f *FlatInt8) Len() int {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return len(f.ids)
}

// Add stores v, quantised (and copied when the float32 values are kept),
// under id; an id already present has its vector replaced. Add returns a
// *DimensionError if len(v) is not the index's dimension and ErrNotFinite
// if v holds NaN or infinities.
func (f *FlatInt8) Add(id uint64, v []float32) error {
	if err := checkVector(v, f.dim); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	r, ok := f.row[id]
	if !ok {
		r = len(f.ids)
		f.row[id] = r
		f.ids = append(f.ids, id)
		if f.keep {
			f.data = append(f.data, v...)
		}
	} else if f.keep {
		copy(f.data[r*f.dim:(r+1)*f.dim], v)
	}
	f.rows8.set(r, v)
	return nil
}

// Delete removes id and reports whether it was present. The last row
// moves into the hole.
func (f *FlatInt8) Delete(id uint64) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, ok := f.row[id]
	if !ok {
		return false
	}
	last := len(f.ids) - 1
	if r != last {
		f.rows8.move(r, last)
		if f.keep {
			copy(f.data[r*f.dim:(r+1)*f.dim], f.data[last*f.dim:])
		}
		f.ids[r] = f.ids[last]
		f.row[f.ids[r]] = r
	}
	f.ids = f.ids[:last]
	f.rows8.truncate(last)
	if f.keep {
		f.data = f.data[:last*f.dim]
	}
	delete(f.row, id)
	return true
}

func (f *FlatInt8) checkQuery(q []float32) {
	if len(q) != f.dim {
		panic(&DimensionError{Want: f.dim, Got: len(q)})
	}
}

// Search returns the k stored vectors with the highest score for q, best
// first, ties broken by ascending id, and fewer than k when the index
// holds fewer; nil when k < 1. With KeepFloat the scores and the order are
// exactly Flat's; without it they are the int8 approximations. Search
// panics if len(q) is not the index's dimension.
func (f *FlatInt8) Search(q []float32, k int) []Result {
	f.checkQuery(q)
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.search(q, k)
}

// SearchBatch runs Search for every query over GOMAXPROCS goroutines and
// returns the results in query order; the whole batch sees one state of
// the index.
func (f *FlatInt8) SearchBatch(qs [][]float32, k int) [][]Result {
	for _, q := range qs {
		f.checkQuery(q)
	}
	out := make([][]Result, len(qs))
	f.mu.RLock()
	defer f.mu.RUnlock()
	workers := min(runtime.GOMAXPROCS(0), len(qs))
	var next atomic.Int64
	work := func() {
		for {
			i := int(next.Add(1) - 1)
			if i >= len(qs) {
				return
			}
			out[i] = f.search(qs[i], k)
		}
	}
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	return out
}

// search is Search without locking.
func (f *FlatInt8) search(q []float32, k int) []Result {
	if k < 1 || len(f.ids) == 0 {
		return nil
	}
	k = min(k, len(f.ids))
	s := getFlat8Scratch(&f.scratch, f.rows8.Stride)
	defer f.scratch.Put(s)
	s.prepare(q)
	if f.keep {
		part := [1]rowPart{{data: f.data, b: &f.rows8, n: len(f.ids)}}
		rs := rowParts{parts: part[:], ids: f.ids, dim: f.dim, bound: f.rows8.bound()}
		if !rs.bound.overflowSafe(&s.q) {
			return rs.search32(s, q, k, rowSel{})
		}
		return rs.search8(s, q, k, rowSel{})
	}
	t := newTopK(k, make([]Result, 0, k))
	n := len(f.ids)
	for lo := 0; lo < n; lo += scoreBlock {
		sc := s.scores[:min(lo+scoreBlock, n)-lo]
		f.rows8.score(&s.q, lo, sc)
		offer(&t, sc, f.ids[lo:lo+len(sc)])
	}
	return t.sorted()
}
