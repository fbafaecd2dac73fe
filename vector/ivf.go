package vector

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
)

// ErrNotTrained is returned by IVF.Add before the index has been trained:
// without centroids there is no cell to put a vector in.
var ErrNotTrained = errors.New("vector: IVF index is not trained")

// IVF is an inverted-file index: k-means splits the space into cells, each
// vector is stored in the cell of its nearest centroid, and a search
// compares the query with the centroids and then only with the vectors of
// the nProbe best cells. nProbe trades work for recall; probing every cell
// is an exact search.
//
// Cells are Voronoi regions (nearest centroid by Euclidean distance, as
// k-means defines them), and a query probes the cells whose centroids have
// the highest inner product with it, as the seed's listing does. Vectors
// within a cell are stored contiguously.
//
// An IVF is safe for concurrent use.
type IVF struct {
	mu        sync.RWMutex
	dim       int
	cells     int
	rng       *rand.Rand
	centroids []float32 // cells rows of dim values; nil until trained
	lists     []cellList
	where     map[uint64]slot
	scratch   sync.Pool // *[]Result of length cells, for ranking centroids
}

// cellList is the contents of one cell, stored like a Flat.
type cellList struct {
	ids  []uint64
	data []float32
}

// slot locates a stored vector.
type slot struct {
	cell int32
	row  int32
}

// NewIVF returns an untrained index for vectors of length dim split into
// cells cells. rng drives k-means in Train; nil means a fixed seed, so an
// index is reproducible unless the caller asks otherwise. NewIVF panics if
// dim or cells is below 1.
func NewIVF(dim, cells int, rng *rand.Rand) *IVF {
	if dim < 1 || cells < 1 {
		panic(fmt.Sprintf("vector: NewIVF dimension %d, cells %d, want both at least 1", dim, cells))
	}
	if rng == nil {
		rng = rand.New(rand.NewPCG(0, 0))
	}
	return &IVF{dim: dim, cells: cells, rng: rng, where: make(map[uint64]slot)}
}

// Dim returns the length of the vectors the index holds.
func (x *IVF) Dim() int { return x.dim }

// Cells returns the number of cells.
func (x *IVF) Cells() int { return x.cells }

// Len returns the number of vectors in the index.
func (x *IVF) Len() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return len(x.where)
}

// Trained reports whether the index has centroids.
func (x *IVF) Trained() bool {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.centroids != nil
}

// Centroids returns a copy of the centroids (Cells rows of Dim values), or
// nil before training.
func (x *IVF) Centroids() []float32 {
	x.mu.RLock()
	defer x.mu.RUnlock()
	if x.centroids == nil {
		return nil
	}
	return append([]float32(nil), x.centroids...)
}

// CellSizes returns the number of vectors in each cell.
func (x *IVF) CellSizes() []int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	out := make([]int, len(x.lists))
	for c, l := range x.lists {
		out[c] = len(l.ids)
	}
	return out
}

// Train learns the centroids from data (row-major, len(data)/Dim rows) with
// KMeans and default options. Training does not add the data. Vectors
// already in the index are moved to the cells of the new centroids.
func (x *IVF) Train(data []float32) error {
	return x.TrainWith(data, KMeansOptions{})
}

// TrainWith is Train with explicit k-means options.
func (x *IVF) TrainWith(data []float32, opts KMeansOptions) error {
	if len(data)%x.dim != 0 {
		return fmt.Errorf("vector: training data length %d is not a multiple of dimension %d", len(data), x.dim)
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	// k-means runs under the write lock because it draws from x.rng; an
	// index is trained once, before it serves.
	km, err := KMeans(data, x.dim, x.cells, x.rng, opts)
	if err != nil {
		return fmt.Errorf("vector: training IVF: %w", err)
	}
	old := x.lists
	x.centroids = km.Centroids
	x.lists = make([]cellList, x.cells)
	clear(x.where)
	for _, l := range old {
		for i, id := range l.ids {
			x.insert(id, l.data[i*x.dim:(i+1)*x.dim])
		}
	}
	return nil
}

// Add stores a copy of v under id in the cell of its nearest centroid,
// replacing any vector already stored under id. It returns ErrNotTrained
// before Train, a *DimensionError for a vector of the wrong length and
// ErrNotFinite for NaN or infinite values.
func (x *IVF) Add(id uint64, v []float32) error {
	if err := checkVector(v, x.dim); err != nil {
		return err
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.centroids == nil {
		return ErrNotTrained
	}
	x.remove(id)
	x.insert(id, v)
	return nil
}

// Delete removes id and reports whether it was present.
func (x *IVF) Delete(id uint64) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.remove(id)
}

// insert appends v to its nearest cell; the caller holds the write lock
// and has removed any previous vector under id.
func (x *IVF) insert(id uint64, v []float32) {
	c := x.nearest(v)
	l := &x.lists[c]
	x.where[id] = slot{cell: int32(c), row: int32(len(l.ids))}
	l.ids = append(l.ids, id)
	l.data = append(l.data, v...)
}

// remove deletes id by moving its cell's last vector into its place.
func (x *IVF) remove(id uint64) bool {
	s, ok := x.where[id]
	if !ok {
		return false
	}
	l := &x.lists[s.cell]
	r, last, d := int(s.row), len(l.ids)-1, x.dim
	if r != last {
		copy(l.data[r*d:(r+1)*d], l.data[last*d:])
		l.ids[r] = l.ids[last]
		x.where[l.ids[r]] = slot{cell: s.cell, row: int32(r)}
	}
	l.ids = l.ids[:last]
	l.data = l.data[:last*d]
	delete(x.where, id)
	return true
}

// nearest returns the cell whose centroid is nearest to v in Euclidean
// distance, the lower index on ties: the same rule k-means assigned the
// training rows by.
func (x *IVF) nearest(v []float32) int {
	best, bestD := 0, sqDist(v, x.centroids[:x.dim])
	for c := 1; c < x.cells; c++ {
		if d := sqDist(v, x.centroids[c*x.dim:(c+1)*x.dim]); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// Search returns the k best vectors by inner product with q among the
// cells of the nProbe centroids with the highest inner product with q,
// best first, ties by ascending id; nProbe is clamped to [1, Cells].
// compared is the work done: the candidates scanned plus the centroids
// compared, the measure the seed reports. Before training, or for k < 1,
// Search returns nil and 0. It panics if len(q) is not the dimension.
func (x *IVF) Search(q []float32, k, nProbe int) (results []Result, compared int) {
	if len(q) != x.dim {
		panic(&DimensionError{Want: x.dim, Got: len(q)})
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	if x.centroids == nil || k < 1 {
		return nil, 0
	}
	nProbe = min(max(nProbe, 1), x.cells)

	bufp, _ := x.scratch.Get().(*[]Result)
	if bufp == nil || cap(*bufp) < x.cells {
		b := make([]Result, 0, x.cells)
		bufp = &b
	}
	defer x.scratch.Put(bufp)
	// Rank the centroids with the same top-k heap; the "id" is the cell
	// index, so equal scores probe the lower cell first.
	ct := newTopK(nProbe, *bufp)
	for c := range x.cells {
		ct.push(Result{ID: uint64(c), Score: Dot(q, x.centroids[c*x.dim:(c+1)*x.dim])})
	}
	probe := ct.h

	candidates := 0
	for _, p := range probe {
		candidates += len(x.lists[p.ID].ids)
	}
	if candidates == 0 {
		return nil, x.cells
	}
	t := newTopK(min(k, candidates), make([]Result, 0, min(k, candidates)))
	for _, p := range probe {
		l := &x.lists[p.ID]
		scanRows(&t, q, l.data, l.ids, x.dim)
	}
	return t.sorted(), candidates + x.cells
}
