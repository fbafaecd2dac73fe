package vector

import (
	"fmt"
	"sync"
)

// FlatPart is one run of rows a FlatView searches, typically a segment of
// a store's files.
type FlatPart struct {
	// Data holds the part's rows, row after row, dim values each. It may
	// be read-only mapped memory: the view never writes it.
	Data []float32
	// Int8 is the int8 copy of Data that QuantizeBlock makes, or nil:
	// then the part is scanned in float32.
	Int8 *Int8Block
}

// FlatView is a read-only exact inner-product index over rows it does not
// own: the parts given to NewFlatView, searched where they lie, with no
// copy of any row. The ids of its rows are their numbers over all the
// parts in order: part 0's rows are 0..n0-1, part 1's follow, and so on.
//
// Its results are exactly those of a Flat holding the same rows added in
// order under the ids 0..n-1: the same ids, scores and order, ties broken
// by ascending id. One query at a time, the parts with an int8 copy are
// scanned in int8 and every row that the error bound (from the largest
// MaxErr and MaxNorm of the parts' copies) cannot rule out is re-scored in
// float32, as Flat does; the other parts are scanned in float32.
//
// A FlatView keeps its parts' slices, Data and the Int8 blocks' Codes,
// Scale and Sum, reachable for as long as it is: memory they point into,
// such as a mapping released by a finalizer, stays alive while the view
// does. The caller must not change the rows or blocks while the view is in
// use. A FlatView is safe for concurrent searches.
type FlatView struct {
	rows    rowParts    // the parts, their int8 copies in blocks
	blocks  []Int8Block // the parts' blocks (headers copied, codes not)
	starts  []int       // starts[i] is the number of part i's first row
	n       int         // rows over all the parts
	has8    bool        // some part has an int8 copy
	scratch sync.Pool   // *flat8Scratch
}

// NewFlatView returns the exact index over parts, rows of dim values. It
// checks the sizes of every part: Data a whole number of rows, and Int8,
// where given, a block for exactly those rows (see Int8Block.Check). It
// reads none of the rows, so that a view over mapped files opens without
// touching them; the rows must be finite, as Flat.Add requires.
func NewFlatView(dim int, parts []FlatPart) (*FlatView, error) {
	if dim < 1 {
		return nil, fmt.Errorf("vector: FlatView dimension %d, want at least 1", dim)
	}
	f := &FlatView{
		rows:   rowParts{parts: make([]rowPart, len(parts)), dim: dim},
		blocks: make([]Int8Block, len(parts)),
		starts: make([]int, len(parts)),
	}
	for i, p := range parts {
		if len(p.Data)%dim != 0 {
			return nil, fmt.Errorf("vector: FlatView part %d of %d holds %d values, not a whole number of rows of dimension %d: the part was cut short or made for another dimension",
				i, len(parts), len(p.Data), dim)
		}
		n := len(p.Data) / dim
		rp := rowPart{data: p.Data, n: n}
		if p.Int8 != nil {
			if err := p.Int8.check(dim, n); err != nil {
				return nil, fmt.Errorf("vector: FlatView part %d of %d (%d rows), its int8 block: %w", i, len(parts), n, err)
			}
			f.blocks[i] = *p.Int8
			rp.b = &f.blocks[i]
			f.rows.bound = f.rows.bound.merge(rp.b.bound())
			f.has8 = f.has8 || n > 0
		}
		f.rows.parts[i] = rp
		f.starts[i] = f.n
		f.n += n
	}
	return f, nil
}

// Len returns the number of rows over all the parts.
func (f *FlatView) Len() int { return f.n }

// Dim returns the length of the rows.
func (f *FlatView) Dim() int { return f.rows.dim }

// Search returns the k rows with the highest inner product with q, best
// first, ties broken by ascending id: exactly Flat's results for the same
// rows. It returns fewer than k results when the view holds fewer, and
// nil when k < 1 or the view is empty. The only allocation is the
// returned slice. Search panics if len(q) is not the view's dimension.
func (f *FlatView) Search(q []float32, k int) []Result {
	return f.SearchFilter(q, k, nil)
}

// SearchFilter is Search restricted to the rows whose id filter accepts,
// so that a metadata filter applies before the top k are chosen; a nil
// filter accepts every row. filter is called once for every row, from the
// searching goroutine. The results are exactly Flat.SearchFilter's.
func (f *FlatView) SearchFilter(q []float32, k int, filter func(id uint64) bool) []Result {
	return f.search(q, k, rowSel{allow: filter})
}

// SearchRanges is SearchFilter over the rows of ranges alone (sorted,
// disjoint, within the view): a row outside them is neither read nor
// passed to filter, so the search costs what the ranges hold, whatever
// the view's size. Nil ranges select no row.
func (f *FlatView) SearchRanges(q []float32, k int, ranges []RowRange, filter func(id uint64) bool) []Result {
	if ranges == nil {
		ranges = []RowRange{}
	}
	return f.search(q, k, rowSel{ranges: ranges, allow: filter})
}

func (f *FlatView) search(q []float32, k int, sel rowSel) []Result {
	if len(q) != f.rows.dim {
		panic(&DimensionError{Want: f.rows.dim, Got: len(q)})
	}
	if k < 1 || f.n == 0 {
		return nil
	}
	k = min(k, f.n)
	s := getFlat8Scratch(&f.scratch, Int8Stride(f.rows.dim))
	defer f.scratch.Put(s)
	// The same choice as Flat's (see use8): the results are the same
	// either way, only the speed differs.
	if f.has8 && f.n >= flat8MinRows && (int8Kernel() || flat8Generic) {
		s.prepare(q)
		if f.rows.bound.overflowSafe(&s.q) {
			return f.rows.search8(s, q, k, sel)
		}
	}
	return f.rows.search32(s, q, k, sel)
}
