package vector

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
)

// DimensionError reports a vector whose length is not the index's
// dimension, typically vectors from two different embedding models.
type DimensionError struct {
	Want int // the index's dimension
	Got  int // the length of the vector offered
}

// Error names both dimensions, so the log says which model is which.
func (e *DimensionError) Error() string {
	return fmt.Sprintf("vector: vector has dimension %d, index has dimension %d", e.Got, e.Want)
}

// ErrNotFinite is returned by Add for a vector holding NaN or ±Inf, which
// would break every comparison it takes part in.
var ErrNotFinite = errors.New("vector: vector holds NaN or infinite values")

// Flat is an exact inner-product index: a search compares the query with
// every stored vector. Vectors are stored contiguously, row after row, so a
// search is a linear scan of one slice. It is the reference every
// approximate index is measured against, and the right choice up to a few
// hundred thousand vectors.
//
// A Flat is safe for concurrent use.
type Flat struct {
	mu   sync.RWMutex
	dim  int
	data []float32      // len(ids) rows of dim values
	ids  []uint64       // ids[i] is the id of row i
	row  map[uint64]int // id -> row, for replacing and deleting
}

// NewFlat returns an empty exact index for vectors of length dim. It panics
// if dim < 1.
func NewFlat(dim int) *Flat {
	if dim < 1 {
		panic(fmt.Sprintf("vector: NewFlat dimension %d, want at least 1", dim))
	}
	return &Flat{dim: dim, row: make(map[uint64]int)}
}

// Dim returns the length of the vectors the index holds.
func (f *Flat) Dim() int { return f.dim }

// Len returns the number of vectors in the index.
func (f *Flat) Len() int {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return len(f.ids)
}

// Add stores a copy of v under id. An id already present has its vector
// replaced, so re-indexing a changed chunk is one call. Add returns a
// *DimensionError if len(v) is not the index's dimension and ErrNotFinite
// if v holds NaN or infinities.
func (f *Flat) Add(id uint64, v []float32) error {
	if len(v) != f.dim {
		return &DimensionError{Want: f.dim, Got: len(v)}
	}
	if !finite(v) {
		return ErrNotFinite
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if r, ok := f.row[id]; ok {
		copy(f.data[r*f.dim:(r+1)*f.dim], v)
		return nil
	}
	f.row[id] = len(f.ids)
	f.ids = append(f.ids, id)
	f.data = append(f.data, v...)
	return nil
}

// Delete removes id and reports whether it was present. The last row moves
// into the hole, so deletion costs one row copy whatever the index size.
func (f *Flat) Delete(id uint64) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, ok := f.row[id]
	if !ok {
		return false
	}
	last := len(f.ids) - 1
	if r != last {
		copy(f.data[r*f.dim:(r+1)*f.dim], f.data[last*f.dim:])
		f.ids[r] = f.ids[last]
		f.row[f.ids[r]] = r
	}
	f.ids = f.ids[:last]
	f.data = f.data[:last*f.dim]
	delete(f.row, id)
	return true
}

// Search returns the k stored vectors with the highest inner product with
// q, best first, ties broken by ascending id. It returns fewer than k
// results when the index holds fewer, and nil when k < 1. The only
// allocation is the returned slice. Search panics if len(q) is not the
// index's dimension: the caller's embedder and the index disagree, a bug no
// result can paper over.
func (f *Flat) Search(q []float32, k int) []Result {
	f.checkQuery(q)
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.search(q, k)
}

// SearchBatch runs Search for every query and returns the results in query
// order. The whole batch sees one consistent state of the index. Queries
// are split into groups over GOMAXPROCS goroutines, and each group scans
// the index block by block, every query of the group in turn, so a block
// is read from memory once per group instead of once per query: a batch
// costs less than its queries one by one.
func (f *Flat) SearchBatch(qs [][]float32, k int) [][]Result {
	for _, q := range qs {
		f.checkQuery(q)
	}
	out := make([][]Result, len(qs))
	f.mu.RLock()
	defer f.mu.RUnlock()
	if k < 1 || len(f.ids) == 0 || len(qs) == 0 {
		return out
	}
	workers := min(runtime.GOMAXPROCS(0), len(qs))
	group := min((len(qs)+workers-1)/workers, maxGroup)
	groups := (len(qs) + group - 1) / group
	// The read lock is taken once here and not by the workers: a nested
	// RLock can deadlock behind a waiting writer.
	var next atomic.Int64
	work := func() {
		for {
			g := int(next.Add(1) - 1)
			if g >= groups {
				return
			}
			lo, hi := g*group, min((g+1)*group, len(qs))
			f.searchGroup(qs[lo:hi], k, out[lo:hi])
		}
	}
	var wg sync.WaitGroup
	for range min(workers, groups) - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	return out
}

// maxGroup bounds the queries scanned together: enough to reuse each block
// many times, few enough that their heaps stay in cache.
const maxGroup = 32

// blockBytes is the size of the row blocks a query group scans together,
// chosen to stay in a core's L2 cache.
const blockBytes = 256 << 10

// searchGroup writes into out the results of the queries qs, scanning the
// rows in cache-sized blocks; the caller holds the read lock.
func (f *Flat) searchGroup(qs [][]float32, k int, out [][]Result) {
	k = min(k, len(f.ids))
	tops := make([]topK, len(qs))
	for i := range tops {
		tops[i] = newTopK(k, make([]Result, 0, k))
	}
	rows := max(1, blockBytes/(4*f.dim))
	for lo := 0; lo < len(f.ids); lo += rows {
		hi := min(lo+rows, len(f.ids))
		data, ids := f.data[lo*f.dim:hi*f.dim], f.ids[lo:hi]
		for i, q := range qs {
			scanRows(&tops[i], q, data, ids, f.dim)
		}
	}
	for i := range tops {
		out[i] = tops[i].sorted()
	}
}

func (f *Flat) checkQuery(q []float32) {
	if len(q) != f.dim {
		panic(&DimensionError{Want: f.dim, Got: len(q)})
	}
}

// search is Search without locking; the caller holds at least a read lock.
func (f *Flat) search(q []float32, k int) []Result {
	if k < 1 || len(f.ids) == 0 {
		return nil
	}
	k = min(k, len(f.ids))
	t := newTopK(k, make([]Result, 0, k))
	scanRows(&t, q, f.data, f.ids, f.dim)
	return t.sorted()
}

// scanRows offers every row of data to t. It is shared by Flat and by the
// cells of IVF so both score candidates with the same arithmetic, which is
// what makes an IVF probing every cell return exactly Flat's results.
func scanRows(t *topK, q, data []float32, ids []uint64, dim int) {
	for i, id := range ids {
		s := Dot(q, data[i*dim:(i+1)*dim])
		if t.full() {
			// Inline reject: almost every row of a large index fails here.
			root := t.h[0]
			if s < root.Score || (s == root.Score && id > root.ID) {
				continue
			}
		}
		t.push(Result{ID: id, Score: s})
	}
}

// SearchFilter is Search restricted to the vectors whose id allow accepts,
// so a metadata filter applies before the top k are chosen rather than
// emptying a top k chosen without it. A nil allow accepts every id.
func (f *Flat) SearchFilter(q []float32, k int, allow func(id uint64) bool) []Result {
	if allow == nil {
		return f.Search(q, k)
	}
	f.checkQuery(q)
	f.mu.RLock()
	defer f.mu.RUnlock()
	if k < 1 || len(f.ids) == 0 {
		return nil
	}
	t := newTopK(min(k, len(f.ids)), make([]Result, 0, min(k, len(f.ids))))
	for i, id := range f.ids {
		if !allow(id) {
			continue
		}
		s := Dot(q, f.data[i*f.dim:(i+1)*f.dim])
		if t.full() {
			root := t.h[0]
			if s < root.Score || (s == root.Score && id > root.ID) {
				continue
			}
		}
		t.push(Result{ID: id, Score: s})
	}
	return t.sorted()
}
