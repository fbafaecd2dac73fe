package vector

import "math"

// This file holds the exact search over rows that may lie in several
// parts, each with or without its int8 copy: Flat's and FlatInt8's rows
// are one part, a FlatView's are the store's segments.

// rowPart is one run of consecutive rows: n rows of float32 values and
// their int8 copy, nil when the part is scored in float32.
type rowPart struct {
	data []float32
	b    *Int8Block
	n    int
}

// rowParts is the rows an exact search scans: the parts one after the
// other, row r of the whole being row r - (rows before its part) of its
// part.
type rowParts struct {
	parts []rowPart
	ids   []uint64  // ids[r] is the id of row r; nil: the id of row r is r
	dim   int       // values a row
	bound int8Bound // over the int8 copies of all the parts
}

// id returns the id of row r.
func (rs *rowParts) id(r int) uint64 {
	if rs.ids == nil {
		return uint64(r)
	}
	return rs.ids[r]
}

// RowRange is the rows Lo..Hi-1 of an exact index, numbered over all its
// parts.
type RowRange struct{ Lo, Hi int }

// rowSel is the rows a scan reads: those inside ranges (nil: every row)
// that allow accepts (nil: all of them).
type rowSel struct {
	ranges []RowRange
	allow  func(uint64) bool
}

// scan scores every row sel selects with q and hands the scores to sink a
// run at a time, with the number of the run's first row. A part with an
// int8 copy is scored by the int8 kernel with q8 when q8 is not nil; other
// parts are scored in float32 by dotRows, whose scores are Dot's. buf
// holds the scores of a run: at least scoreBlock values. With ranges the
// scan reads only their rows, so its cost follows the rows selected, not
// the index's size.
func (rs *rowParts) scan(q []float32, q8 *flat8Query, buf []float32, sel rowSel, sink func(row int, scores []float32)) {
	dim := rs.dim
	score := func(p *rowPart, lo, hi int) []float32 {
		sc := buf[:hi-lo]
		if q8 != nil && p.b != nil {
			p.b.score(q8, lo, sc)
		} else {
			dotRows(q, p.data[lo*dim:hi*dim], sc)
		}
		return sc
	}
	// runs calls each with every run a..r-1 of allowed rows within lo..hi-1
	// of the part whose first row is start.
	runs := func(start, lo, hi int, each func(a, r int)) {
		for r := lo; r < hi; {
			for r < hi && !sel.allow(rs.id(start+r)) {
				r++
			}
			a := r
			for r < hi && sel.allow(rs.id(start+r)) {
				r++
			}
			if a < r {
				each(a, r)
			}
		}
	}
	// sinkAllowed hands the scores sc of rows lo..lo+len(sc)-1 of a part
	// whose first row is start to sink, a run of allowed rows at a time.
	sinkAllowed := func(start, lo int, sc []float32) {
		if sel.allow == nil {
			sink(start+lo, sc)
			return
		}
		runs(start, lo, lo+len(sc), func(a, r int) { sink(start+a, sc[a-lo:r-lo]) })
	}
	// block scans rows lo..hi-1 of part p, whose first row is start. Runs
	// of allowed rows are scored a run at a time, so a selective filter
	// saves the kernel's reads as well as the re-scoring.
	block := func(p *rowPart, start, lo, hi int) {
		if sel.allow == nil {
			sink(start+lo, score(p, lo, hi))
			return
		}
		runs(start, lo, hi, func(a, r int) { sink(start+a, score(p, a, r)) })
	}
	if sel.ranges == nil {
		start := 0
		for i := range rs.parts {
			p := &rs.parts[i]
			for lo := 0; lo < p.n; lo += scoreBlock {
				block(p, start, lo, min(lo+scoreBlock, p.n))
			}
			start += p.n
		}
		return
	}
	// The ranges are sorted, so their parts are found walking forward;
	// cur is the first row not yet scanned. A block of a part that many
	// short ranges cut is scored whole, once, and each range's rows are
	// taken from it: a kernel call per range of a row or two costs more
	// than the rows between them.
	i, start, next, cur := 0, 0, 0, 0
	for next < len(sel.ranges) {
		rg := sel.ranges[next]
		lo := max(rg.Lo, cur)
		if lo >= rg.Hi {
			next++
			continue
		}
		for i < len(rs.parts) && lo >= start+rs.parts[i].n {
			start += rs.parts[i].n
			i++
		}
		if i == len(rs.parts) {
			return
		}
		p := &rs.parts[i]
		end := min(lo+scoreBlock, start+p.n)
		last := next + 1
		for last < len(sel.ranges) && sel.ranges[last].Lo < end {
			last++
		}
		if last-next >= shortRanges {
			// Every range but the last ends inside the block.
			hi := min(end, sel.ranges[last-1].Hi)
			sc := score(p, lo-start, hi-start)
			for _, r := range sel.ranges[next:last] {
				if a, b := max(r.Lo, lo), min(r.Hi, hi); a < b {
					sinkAllowed(start, a-start, sc[a-lo:b-lo])
				}
			}
			cur, next = hi, last-1
			continue
		}
		hi := min(rg.Hi, end)
		block(p, start, lo-start, hi-start)
		cur = hi
	}
}

// shortRanges is how many ranges starting within one block make the scan
// score the block whole.
const shortRanges = 4

// search32 returns the top k of the rows sel selects, scanned in
// float32: Dot's scores, best first, ties by ascending id. 1 <= k. The
// scores are held in s, whose query is not used.
func (rs *rowParts) search32(s *flat8Scratch, q []float32, k int, sel rowSel) []Result {
	t := newTopK(k, make([]Result, 0, k))
	// The scores go to sink, a function value, which escape analysis
	// cannot see into: a buffer on the stack would move to the heap.
	rs.scan(q, nil, s.scores[:], sel, func(lo int, sc []float32) { offerFrom(&t, sc, rs.ids, lo) })
	return t.sorted()
}

// search8 returns the exact top k of the rows sel selects: the same ids, Dot's float32 scores, best first and ties
// by ascending id, as search32. s holds the query prepared by
// s.prepare(q), and 1 <= k. sel.allow is called once for every row of
// sel.ranges.
//
// The int8 scan keeps a top k by int8 score A and collects every row whose
// A is within 2E of the k-th best (E from errorBound over every part's
// int8 copy); no other row can reach the float32 top k, since its
// S <= A + E < A_k - E <= the S of each of the k best by A, strictly. A
// part without an int8 copy is scanned in float32: its A is S, within E
// of itself. The candidates are re-scored with the float32 kernel, whose
// scores are bit for bit those of the scan.
func (rs *rowParts) search8(s *flat8Scratch, q []float32, k int, sel rowSel) []Result {
	margin := 2 * rs.bound.errorBound(&s.q, rs.dim)
	t := newTopK(k, make([]Result, 0, k))
	thr := float32(math.Inf(-1))
	cands := s.cands[:0]
	rs.scan(q, &s.q, s.scores[:], sel, func(lo int, sc []float32) {
		for i := 0; i < len(sc); i++ {
			i += firstGE(sc[i:], thr)
			if i == len(sc) {
				return
			}
			cands = append(cands, flat8Cand{row: lo + i, score: sc[i]})
			t.push(Result{ID: rs.id(lo + i), Score: sc[i]})
			if t.full() {
				thr = lowerThreshold(t.h[0].Score, margin)
			}
		}
	})
	s.cands = cands[:0]
	if len(t.h) == 0 {
		return t.h // nothing allowed
	}
	if t.full() {
		thr = lowerThreshold(t.h[0].Score, margin)
	}
	// exact reuses the result buffer of t, whose threshold is taken. The
	// candidates are in row order, so their part is found by walking the
	// parts alongside.
	exact := newTopK(len(t.h), t.h[:0])
	dim, p, start := rs.dim, 0, 0
	for _, cd := range cands {
		if cd.score < thr {
			continue
		}
		for cd.row >= start+rs.parts[p].n {
			start += rs.parts[p].n
			p++
		}
		r := cd.row - start
		exact.push(Result{ID: rs.id(cd.row), Score: dot(q, rs.parts[p].data[r*dim:(r+1)*dim])})
	}
	return exact.sorted()
}

// lowerThreshold returns a float32 no greater than score - margin.
func lowerThreshold(score float32, margin float64) float32 {
	want := float64(score) - margin
	thr := float32(want)
	if float64(thr) > want {
		thr = math.Nextafter32(thr, float32(math.Inf(-1)))
	}
	return thr
}
