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
// A single-query scan of float32 rows is bound by memory bandwidth, so
// Flat also keeps an int8 copy of every row (codes and a scale, as
// FlatInt8 stores them), built as vectors are added. Search and
// SearchFilter scan the codes, a quarter of the bytes, and re-score in
// float32 every row that a proven bound on the int8 error cannot rule
// out: the results are exactly those of the float32 scan, the same ids,
// scores and order. The copy costs a quarter more memory: about 1.25 times
// the float32 vectors (dim+8 bytes a vector beside 4·dim), 1,928 bytes a
// vector at dimension 384 against 1,536. SearchBatch, which reads each
// row once for a group of queries, scans the float32 rows.
// FlatOptions.NoInt8 leaves the copy out. FlatView searches rows that a
// Flat does not own, such as a store's mapped files, with the same copy
// made by QuantizeBlock, and returns the same results.
//
// A Flat is safe for concurrent use.
type Flat struct {
	mu    sync.RWMutex
	dim   int
	data  []float32      // len(ids) rows of dim values
	ids   []uint64       // ids[i] is the id of row i
	row   map[uint64]int // id -> row, for replacing and deleting
	rows8 Int8Block      // the int8 copy of data; empty when !has8
	has8  bool           // the int8 copy is kept: the options and the dimension allow it

	scratch sync.Pool // *flat8Scratch
}

// FlatOptions configures a Flat made by NewFlatWith.
type FlatOptions struct {
	// NoInt8 keeps no int8 copy of the rows: the index holds the float32
	// rows alone (4·dim bytes a vector, a fifth less than the default at
	// dimension 384) and every search scans them in float32, bound by
	// memory bandwidth. The results are the same either way. The
	// encoding does not record it: DecodeFlat returns a Flat with the
	// default options.
	NoInt8 bool
}

// NewFlat returns an empty exact index for vectors of length dim, with the
// default options: an int8 copy of the rows for single-query searches. It
// panics if dim < 1.
func NewFlat(dim int) *Flat { return NewFlatWith(dim, FlatOptions{}) }

// NewFlatWith returns an empty exact index for vectors of length dim with
// the options o. It panics if dim < 1.
func NewFlatWith(dim int, o FlatOptions) *Flat {
	if dim < 1 {
		panic(fmt.Sprintf("vector: NewFlat dimension %d, want at least 1", dim))
	}
	return &Flat{dim: dim, row: make(map[uint64]int), rows8: newInt8Rows(dim), has8: !o.NoInt8 && dim <= maxFlatInt8Dim}
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
	if err := checkVector(v, f.dim); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	r, ok := f.row[id]
	if ok {
		copy(f.data[r*f.dim:(r+1)*f.dim], v)
	} else {
		r = len(f.ids)
		f.row[id] = r
		f.ids = append(f.ids, id)
		f.data = append(f.data, v...)
	}
	if f.has8 {
		f.rows8.set(r, v)
	}
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
		if f.has8 {
			f.rows8.move(r, last)
		}
	}
	f.ids = f.ids[:last]
	f.data = f.data[:last*f.dim]
	if f.has8 {
		f.rows8.truncate(last)
	}
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

// maxGroup bounds the queries scanned together: each pass over the index
// serves a whole group, so a larger group reads the index from memory
// fewer times; 256 packed queries of 384 values (393 KB) still sit in L2
// beside the block of rows.
const maxGroup = 256

// quadRows is the number of rows in the AVX-512 batch tile.
const quadRows = 6

// blockBytes is the size of the row blocks a query group scans together,
// chosen so that a block stays in a core's L2 cache while every query of
// the group is scored against it.
const blockBytes = 256 << 10

// searchGroup writes into out the results of the queries qs, scanning the
// rows in cache-sized blocks; the caller holds the read lock. With an
// assembly tile kernel the queries are packed four at a time and each
// block is scored four queries by several rows per step (dotQuad), which
// loads each row chunk once per four queries and each query chunk once per
// several rows; otherwise each query scans the block in turn with dotRows.
// Either way the scores are bit-for-bit Dot's.
func (f *Flat) searchGroup(qs [][]float32, k int, out [][]Result) {
	k = min(k, len(f.ids))
	tops := make([]topK, len(qs))
	for i := range tops {
		tops[i] = newTopK(k, make([]Result, 0, k))
	}
	dim := f.dim
	rows := max(1, blockBytes/(4*dim))
	if rows > quadRows {
		rows -= rows % quadRows // whole AVX-512 tiles
	}
	scores := make([]float32, quadQueries*rows)
	if !hasQuad() {
		for lo := 0; lo < len(f.ids); lo += rows {
			hi := min(lo+rows, len(f.ids))
			data, ids := f.data[lo*dim:hi*dim], f.ids[lo:hi]
			for i, q := range qs {
				s := scores[:hi-lo]
				dotRows(q, data, s)
				offer(&tops[i], s, ids)
			}
		}
	} else {
		ql := quadLen(dim)
		nquads := (len(qs) + quadQueries - 1) / quadQueries
		packed := make([]float32, nquads*ql)
		for i := range nquads {
			packQuad(packed[i*ql:(i+1)*ql], qs[i*quadQueries:min((i+1)*quadQueries, len(qs))], dim)
		}
		for lo := 0; lo < len(f.ids); lo += rows {
			hi := min(lo+rows, len(f.ids))
			data, ids := f.data[lo*dim:hi*dim], f.ids[lo:hi]
			// While the block is scored, the next one is fetched into L2,
			// a slice per quad.
			next := f.data[hi*dim : min(hi+rows, len(f.ids))*dim]
			step := (len(next) + nquads - 1) / nquads
			for i := range nquads {
				prefetch(next[min(i*step, len(next)):min((i+1)*step, len(next))])
				dotQuad(packed[i*ql:(i+1)*ql], data, dim, hi-lo, scores, rows)
				for j := range min(quadQueries, len(qs)-i*quadQueries) {
					offer(&tops[i*quadQueries+j], scores[j*rows:j*rows+hi-lo], ids)
				}
			}
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
	if res, ok := f.search8(q, k, nil); ok {
		return res
	}
	t := newTopK(k, make([]Result, 0, k))
	scanRows(&t, q, f.data, f.ids, f.dim)
	return t.sorted()
}

// search8 runs the search on the int8 path, the rows one part, and
// reports false when it should not be taken (see use8) or cannot be (a
// query whose scores could overflow the error bound's assumptions); the
// caller holds at least a read lock and 1 <= k <= the number of rows.
func (f *Flat) search8(q []float32, k int, allow func(uint64) bool) ([]Result, bool) {
	if !f.use8() {
		return nil, false
	}
	s := getFlat8Scratch(&f.scratch, f.rows8.Stride)
	defer f.scratch.Put(s)
	s.prepare(q)
	if !f.rows8.bound().overflowSafe(&s.q) {
		return nil, false
	}
	part := [1]rowPart{{data: f.data, b: &f.rows8, n: len(f.ids)}}
	rs := rowParts{parts: part[:], ids: f.ids, dim: f.dim, bound: f.rows8.bound()}
	return rs.search8(s, q, k, rowSel{allow: allow}), true
}

// flat8MinRows is the size from which a single-query search scans the
// int8 codes: below it the float32 rows sit in cache, and quantising the
// query costs more than the bandwidth saved. Tests lower it to cover the
// int8 path on tiny indexes.
var flat8MinRows = 512

// flat8Generic makes the int8 path run with the pure-Go int8 kernel too;
// tests set it so that the path is covered under purego.
var flat8Generic = false

// use8 reports whether a single-query search should take the int8 path.
// Without an assembly int8 kernel (purego, other architectures) the
// pure-Go one is slower than the float32 scan it would save.
func (f *Flat) use8() bool {
	return f.has8 && len(f.ids) >= flat8MinRows && (int8Kernel() || flat8Generic)
}

// scoreBlock is the number of rows scored per kernel call in scanRows:
// the scores live on the stack and are still in L1 when the top-k pass
// reads them.
const scoreBlock = 256

// scanRows offers every row of data to t. It is shared by Flat and by the
// cells of IVF so both score candidates with the same arithmetic, which is
// what makes an IVF probing every cell return exactly Flat's results. Rows
// are scored a block at a time by dotRows, whose scores are bit-for-bit
// those of Dot.
func scanRows(t *topK, q, data []float32, ids []uint64, dim int) {
	var buf [scoreBlock]float32
	for lo := 0; lo < len(ids); lo += scoreBlock {
		hi := min(lo+scoreBlock, len(ids))
		s := buf[:hi-lo]
		dotRows(q, data[lo*dim:hi*dim], s)
		offer(t, s, ids[lo:hi])
	}
}

// offer pushes the candidates (ids[i], scores[i]) into t.
func offer(t *topK, scores []float32, ids []uint64) { offerFrom(t, scores, ids, 0) }

// offerFrom pushes the candidates of scores into t, the id of scores[i]
// being ids[base+i], or base+i when ids is nil (rows numbered as ids).
// Once t is full almost every candidate of a large index scores below the
// root, and firstGE skips those many scores per instruction; a score
// equal to the root's goes to push, which breaks the tie by id.
func offerFrom(t *topK, scores []float32, ids []uint64, base int) {
	if ids != nil {
		ids = ids[base : base+len(scores)]
	}
	id := func(i int) uint64 {
		if ids == nil {
			return uint64(base + i)
		}
		return ids[i]
	}
	i := 0
	for ; i < len(scores) && !t.full(); i++ {
		t.push(Result{ID: id(i), Score: scores[i]})
	}
	for i < len(scores) {
		i += firstGE(scores[i:], t.h[0].Score)
		if i == len(scores) {
			return
		}
		t.push(Result{ID: id(i), Score: scores[i]})
		i++
	}
}

// SearchFilter is Search restricted to the vectors whose id allow accepts,
// so a metadata filter applies before the top k are chosen rather than
// emptying a top k chosen without it. A nil allow accepts every id.
// Otherwise allow is called once for every stored id, from the searching
// goroutine with the index's read lock held, so it must not call the
// index's write methods. The results are exact, as Search's.
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
	k = min(k, len(f.ids))
	if res, ok := f.search8(q, k, allow); ok {
		return res
	}
	t := newTopK(k, make([]Result, 0, k))
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

// checkVector is what every index's Add requires of a vector: the index's
// dimension (a *DimensionError otherwise) and finite values (ErrNotFinite).
func checkVector(v []float32, dim int) error {
	if len(v) != dim {
		return &DimensionError{Want: dim, Got: len(v)}
	}
	if !finite(v) {
		return ErrNotFinite
	}
	return nil
}
