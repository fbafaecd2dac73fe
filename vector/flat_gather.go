package vector

import (
	"fmt"
	"math"
	"sort"
)

// This file holds a FlatView's gathered int8 copies: the codes of a chosen
// set of its rows (an access class's, say) side by side, so that a search
// restricted to a few such sets reads a quarter of the float32 bytes, in
// long runs, however the sets' rows are scattered over the view.

// Gathered is the int8 copy of some of a FlatView's rows, kept contiguous
// in ascending row order. FlatView.Gather makes one;
// FlatView.SearchGathered searches a list of them. It holds Bytes of
// memory of its own and refers to no row of the view.
type Gathered struct {
	ids   []uint32 // the view's rows, ascending
	block Int8Block
}

// Len returns the number of rows g holds.
func (g *Gathered) Len() int { return len(g.ids) }

// Bytes returns the memory g's codes, scales, sums and row numbers take.
func (g *Gathered) Bytes() int {
	return len(g.block.Codes) + 4*len(g.block.Scale) + 4*len(g.block.Sum) + 4*len(g.ids)
}

// Gather returns the int8 copy of the view's rows ids, which must be
// ascending and within the view: bit for bit the codes QuantizeBlock makes
// for the same rows, so that SearchGathered's results are exact. It reads
// each row once.
func (f *FlatView) Gather(ids []int) (*Gathered, error) {
	if f.rows.dim > maxFlatInt8Dim {
		return nil, fmt.Errorf("vector: Gather: dimension %d has no int8 copy, want at most %d", f.rows.dim, maxFlatInt8Dim)
	}
	g := &Gathered{ids: make([]uint32, len(ids)), block: newInt8Rows(f.rows.dim)}
	g.block.Codes = make([]int8, 0, len(ids)*g.block.Stride)
	g.block.Scale = make([]float32, 0, len(ids))
	g.block.Sum = make([]int32, 0, len(ids))
	for i, id := range ids {
		if id < 0 || id >= f.n || id > math.MaxUint32 || (i > 0 && id <= ids[i-1]) {
			return nil, fmt.Errorf("vector: Gather: row %d (number %d of the list) is outside the view's %d rows or not after the one before", id, i, f.n)
		}
		g.ids[i] = uint32(id)
		g.block.set(i, f.row(id))
	}
	return g, nil
}

// row returns the view's row r, 0 <= r < f.n.
func (f *FlatView) row(r int) []float32 {
	p := sort.Search(len(f.starts), func(i int) bool { return f.starts[i] > r }) - 1
	lo := (r - f.starts[p]) * f.rows.dim
	return f.rows.parts[p].data[lo : lo+f.rows.dim]
}

// SearchGathered is SearchFilter over the rows gs hold alone (sets of
// distinct rows): the same ids, scores and order, ties by ascending id. A
// row outside them is neither read nor passed to filter, so the search
// costs what gs hold, whatever the view's size. It scans the codes and
// re-scores in float32, from the view's rows, every row the error bound
// cannot rule out; the bound is taken over gs alone, so rows outside them
// change nothing of the search, its time included.
func (f *FlatView) SearchGathered(q []float32, k int, gs []*Gathered, filter func(id uint64) bool) []Result {
	if len(q) != f.rows.dim {
		panic(&DimensionError{Want: f.rows.dim, Got: len(q)})
	}
	n := 0
	var bound int8Bound
	for _, g := range gs {
		n += g.Len()
		bound = bound.merge(g.block.bound())
	}
	if k < 1 || n == 0 {
		return nil
	}
	k = min(k, n)
	s := getFlat8Scratch(&f.scratch, Int8Stride(f.rows.dim))
	defer f.scratch.Put(s)
	if n >= flat8MinRows && (int8Kernel() || flat8Generic) {
		s.prepare(q)
		if bound.overflowSafe(&s.q) {
			return f.gathered8(s, q, k, gs, bound, filter)
		}
	}
	t := newTopK(k, make([]Result, 0, k))
	for _, g := range gs {
		for _, id := range g.ids {
			if filter == nil || filter(uint64(id)) {
				t.push(Result{ID: uint64(id), Score: dot(q, f.row(int(id)))})
			}
		}
	}
	return t.sorted()
}

// gathered8 is SearchGathered's int8 scan, search8's over gathered rows:
// it keeps a top k by int8 score and collects every row within twice the
// error bound of the k-th, then re-scores those in float32.
func (f *FlatView) gathered8(s *flat8Scratch, q []float32, k int, gs []*Gathered, bound int8Bound, filter func(uint64) bool) []Result {
	margin := 2 * bound.errorBound(&s.q, f.rows.dim)
	t := newTopK(k, make([]Result, 0, k))
	thr := float32(math.Inf(-1))
	cands := s.cands[:0]
	for _, g := range gs {
		for lo := 0; lo < g.Len(); lo += scoreBlock {
			sc := s.scores[:min(scoreBlock, g.Len()-lo)]
			g.block.score(&s.q, lo, sc)
			for i := 0; i < len(sc); i++ {
				i += firstGE(sc[i:], thr)
				if i == len(sc) {
					break
				}
				id := uint64(g.ids[lo+i])
				if filter != nil && !filter(id) {
					continue
				}
				// row holds the view's row number: the candidate is
				// re-scored from the view, not from g.
				cands = append(cands, flat8Cand{row: int(id), score: sc[i]})
				t.push(Result{ID: id, Score: sc[i]})
				if t.full() {
					thr = lowerThreshold(t.h[0].Score, margin)
				}
			}
		}
	}
	s.cands = cands[:0]
	if len(t.h) == 0 {
		return t.h // nothing allowed
	}
	if t.full() {
		thr = lowerThreshold(t.h[0].Score, margin)
	}
	exact := newTopK(len(t.h), t.h[:0])
	for _, cd := range cands {
		if cd.score >= thr {
			exact.push(Result{ID: uint64(cd.row), Score: dot(q, f.row(cd.row))})
		}
	}
	return exact.sorted()
}
