package vector

import (
	"math"
	"math/bits"
)

// This file holds a gathered set's 1-bit copy: one sign bit a value, an
// eighth of the int8 copy's bytes, for a first pass that ranks the set's
// rows roughly and keeps a few hundred of them for the exact re-scoring.
//
// Why: a restricted reader's exact scan of its int8 copies reads every
// readable row's codes (384 bytes at 384 dimensions); at 150,000 readable
// rows that is 58 MB a query, several milliseconds of memory bandwidth.
// The signs of the rows about their set's mean, scored against a 4-bit
// query with popcounts (the estimator of RaBitQ, Gao and Long, SIGMOD
// 2024, without its rotation), read 48 bytes a row.

// SignCodes is the 1-bit copy of a Gathered's rows: for each row x, the
// signs of x - c, c the mean of the set's rows, and the factor that
// scales the signs' inner product with a query into an estimate of
// <q, x - c>. It is made from the set's rows alone. FlatView.SearchSigned
// searches a list of them.
type SignCodes struct {
	g      *Gathered
	center []float32
	words  int      // uint64 words a row
	bits   []uint64 // the rows' words, in blocks (see signLanes): bit i set when x_i > c_i
	factor []float32
	pop    []uint16 // set bits a row
}

// Bytes returns the memory s's own slices take (not its Gathered's).
func (s *SignCodes) Bytes() int {
	return 4*len(s.center) + 8*len(s.bits) + 4*len(s.factor) + 2*len(s.pop)
}

// Len returns the number of rows s holds.
func (s *SignCodes) Len() int { return s.g.Len() }

// SignCodes returns the 1-bit copy of g's rows, which must be rows of f
// (g made by f.Gather). It reads each row twice: once for the mean, once
// for the signs.
func (f *FlatView) SignCodes(g *Gathered) *SignCodes {
	dim := f.rows.dim
	n := g.Len()
	s := &SignCodes{g: g, center: make([]float32, dim), words: (dim + 63) / 64}
	if n == 0 {
		return s
	}
	sum := make([]float64, dim)
	for _, id := range g.ids {
		for i, v := range f.row(int(id)) {
			sum[i] += float64(v)
		}
	}
	for i := range sum {
		s.center[i] = float32(sum[i] / float64(n))
	}
	s.bits = make([]uint64, signRows(n)*s.words)
	// Padded to whole blocks: a kernel reads a block's factors and counts
	// at once.
	s.factor = make([]float32, signRows(n))
	s.pop = make([]uint16, signRows(n))
	w := make([]uint64, s.words)
	for r, id := range g.ids {
		clear(w)
		var l1, l2 float64
		for i, v := range f.row(int(id)) {
			d := float64(v) - float64(s.center[i])
			l1 += math.Abs(d)
			l2 += d * d
			if d > 0 {
				w[i>>6] |= 1 << (i & 63)
			}
		}
		// With unit signs u (±1), <q, x-c> ≈ |x-c|²/|x-c|₁ · <q, u>: the
		// projection of x-c on u, scaled back to x-c's length.
		if l1 > 0 {
			s.factor[r] = float32(l2 / l1)
		}
		pc := 0
		for i, x := range w {
			pc += bits.OnesCount64(x)
			s.bits[signWord(r, i, s.words)] = x
		}
		s.pop[r] = uint16(pc)
	}
	return s
}

// signLanes is the rows of a block of a SignCodes' bits: a block holds
// word 0 of its signLanes rows side by side, then word 1, and so on, so
// that a vector kernel counts the bits of signLanes rows at once, one
// word of each per load, with no sum across a register's lanes.
const signLanes = 8

// signRows is n rounded up to whole blocks of signLanes rows.
func signRows(n int) int { return (n + signLanes - 1) / signLanes * signLanes }

// signWord is the index in a SignCodes' bits of word i of row r, with
// words words a row.
func signWord(r, i, words int) int {
	return (r/signLanes*words+i)*signLanes + r%signLanes
}

// signQuery is a query quantised to 4 bits a value, q_i ≈ lo + step·u_i,
// u_i in 0..15, held as four bit planes (plane j has bit i set when bit j
// of u_i is), interleaved: word w of plane j is planes[4w+j].
type signQuery struct {
	planes   []uint64
	lo, step float64
	sum      float64 // Σ of the quantised values
}

func newSignQuery(q []float32, words int) signQuery {
	lo, hi := float64(q[0]), float64(q[0])
	for _, v := range q {
		lo, hi = min(lo, float64(v)), max(hi, float64(v))
	}
	sq := signQuery{planes: make([]uint64, 4*words), lo: lo, step: (hi - lo) / 15}
	for i, v := range q {
		u := 0
		if sq.step > 0 {
			u = int(math.Round((float64(v) - lo) / sq.step))
		}
		for j := range 4 {
			if u>>j&1 != 0 {
				sq.planes[4*(i>>6)+j] |= 1 << (i & 63)
			}
		}
		sq.sum += lo + sq.step*float64(u)
	}
	return sq
}

// signDotsGo is signDots in Go: codes in blocks of signLanes rows (see
// signLanes), len(out) a multiple of signLanes.
func signDotsGo(codes, planes []uint64, words int, out []int32) {
	for r := range out {
		acc := 0
		for i := range words {
			x := codes[signWord(r, i, words)]
			p := planes[4*i : 4*i+4]
			acc += bits.OnesCount64(x&p[0]) + 2*bits.OnesCount64(x&p[1]) + 4*bits.OnesCount64(x&p[2]) + 8*bits.OnesCount64(x&p[3])
		}
		out[r] = int32(acc)
	}
}

// estimate writes the estimated scores of rows lo..lo+len(out)-1 of s
// with query sq, whose inner product with s's mean is qc, and sets bit l
// of masks[b] when out[signLanes·b+l] >= thr: lo is a multiple of
// signLanes, out, acc and masks hold whole blocks (len(out) rounded up to
// signLanes rows; the scores past the set's rows are to be ignored).
func (s *SignCodes) estimate(sq *signQuery, qc float64, thr float32, lo int, acc []int32, out []float32, masks []uint8) {
	w := s.words
	c := signConsts{lo2: float32(2 * sq.lo), step2: float32(2 * sq.step), sum: float32(sq.sum), qc: float32(qc), thr: thr}
	if signEstimateKernel(s.bits[lo*w:(lo+len(out))*w], sq.planes, w, s.pop[lo:lo+len(out)], s.factor[lo:lo+len(out)], &c, out, masks) {
		return
	}
	acc = acc[:len(out)]
	signDots(s.bits[lo*w:(lo+len(acc))*w], sq.planes, w, acc)
	for r, a := range acc {
		// Σ over set bits of q_i, then <q, u> = 2·that - Σ q_i.
		set := sq.lo*float64(s.pop[lo+r]) + sq.step*float64(a)
		out[r] = float32(qc + float64(s.factor[lo+r])*(2*set-sq.sum))
	}
	for b := range masks {
		var m uint8
		for l, x := range out[b*signLanes : (b+1)*signLanes] {
			if x >= thr {
				m |= 1 << l
			}
		}
		masks[b] = m
	}
}

// signConsts are the constants of a block of estimates, as a kernel
// reads them: est = qc + factor·(lo2·pop + step2·count - sum), in float32.
type signConsts struct {
	lo2, step2, sum, qc, thr float32
}

// SearchSigned returns the top k of the rows ss hold (sets of distinct
// rows of f, each a SignCodes of one of f's Gathered) that filter accepts,
// among the cands rows the 1-bit estimate ranks first: those are scored
// from their int8 codes, and the ones the int8 error bound cannot rule
// out re-scored exactly from f's rows, so the answer is the exact top k of
// the cands rows, ranked by Dot's scores, ties by ascending id, as
// SearchGathered's. A true top-k row the estimate ranks below cands is
// missed, which is what the estimate's speed costs. With cands at least
// the rows held, it is SearchGathered's answer. A row outside ss is
// neither read nor passed to filter.
func (f *FlatView) SearchSigned(q []float32, k, cands int, ss []*SignCodes, filter func(id uint64) bool) []Result {
	if len(q) != f.rows.dim {
		panic(&DimensionError{Want: f.rows.dim, Got: len(q)})
	}
	n := 0
	var bound int8Bound
	for _, s := range ss {
		n += s.Len()
		bound = bound.merge(s.g.block.bound())
	}
	if k < 1 || n == 0 {
		return nil
	}
	cands = max(cands, k)
	if cands >= n {
		gs := make([]*Gathered, len(ss))
		for i, s := range ss {
			gs[i] = s.g
		}
		return f.SearchGathered(q, k, gs, filter)
	}
	kept := f.signPass(q, cands, ss, filter)
	if len(kept) == 0 {
		return nil // nothing allowed
	}
	sc := getFlat8Scratch(&f.scratch, Int8Stride(f.rows.dim))
	defer f.scratch.Put(sc)
	k = min(k, len(kept))
	exact := newTopK(k, make([]Result, 0, k))
	if !(int8Kernel() || flat8Generic) || !sc.prepareSafe(q, bound) {
		for _, c := range kept {
			id := ss[c.set].g.ids[c.row]
			exact.push(Result{ID: uint64(id), Score: dot(q, f.row(int(id)))})
		}
		return exact.sorted()
	}
	// The int8 scores of the kept rows, and the exact re-scoring of those
	// within twice the error bound of the k-th (see search8).
	margin := 2 * bound.errorBound(&sc.q, f.rows.dim)
	t := newTopK(k, make([]Result, 0, k))
	a := make([]float32, len(kept))
	for i, c := range kept {
		if i+signAhead < len(kept) {
			ahead := kept[i+signAhead]
			prefetchCodes(&ss[ahead.set].g.block, int(ahead.row))
		}
		ss[c.set].g.block.score(&sc.q, int(c.row), a[i:i+1])
		t.push(Result{ID: uint64(i), Score: a[i]})
	}
	thr := lowerThreshold(t.h[0].Score, margin)
	for i, c := range kept {
		if a[i] >= thr {
			id := ss[c.set].g.ids[c.row]
			exact.push(Result{ID: uint64(id), Score: dot(q, f.row(int(id)))})
		}
	}
	return exact.sorted()
}

// signAhead is how many kept rows ahead SearchSigned asks for a row's
// int8 codes: the rows are scattered, and each read a cache miss.
const signAhead = 8

// prepareSafe prepares s's int8 query from q and reports whether the int8
// scores of rows within bound cannot overflow.
func (s *flat8Scratch) prepareSafe(q []float32, bound int8Bound) bool {
	s.prepare(q)
	return bound.overflowSafe(&s.q)
}

// signPass returns the cands rows of ss that filter accepts with the
// best 1-bit estimates for q (fewer when fewer are accepted), in no
// particular order.
func (f *FlatView) signPass(q []float32, cands int, ss []*SignCodes, filter func(id uint64) bool) []signCand {
	sq := newSignQuery(q, (f.rows.dim+63)/64)
	qcs := make([]float64, len(ss)) // <q, each set's mean>
	for i, s := range ss {
		qcs[i] = float64(dot(q, s.center))
	}
	none := float32(math.Inf(-1))
	thr := none
	if filter == nil {
		thr = signSampleThreshold(&sq, qcs, ss, cands)
	}
	held := signScan(&sq, qcs, ss, cands, thr, filter)
	if len(held) < cands && thr != none {
		// The sample's threshold was above the cands-th best: again,
		// from none.
		held = signScan(&sq, qcs, ss, cands, none, filter)
	}
	if len(held) > cands {
		held, _ = bestOf(held, cands)
	}
	return held
}

// signScan returns the rows of ss that filter accepts with estimates at
// or above thr: at least the best cands of them (all of them when fewer),
// unordered. Rows at or above thr are collected; when four times cands
// are held, the best cands are kept and thr rises to the worst of them:
// a few selections a query instead of a heap operation a row.
func signScan(sq *signQuery, qcs []float64, ss []*SignCodes, cands int, thr float32, filter func(id uint64) bool) []signCand {
	held := make([]signCand, 0, 4*cands)
	// scoreBlock is whole blocks of signLanes rows.
	var buf [scoreBlock]float32
	var acc [scoreBlock]int32
	var masks [scoreBlock / signLanes]uint8
	for si, s := range ss {
		for lo := 0; lo < s.Len(); lo += scoreBlock {
			m := min(scoreBlock, s.Len()-lo)
			rows := signRows(m)
			sc := buf[:rows]
			s.estimate(sq, qcs[si], thr, lo, acc[:], sc, masks[:rows/signLanes])
			for b, mb := range masks[:rows/signLanes] {
				for ; mb != 0; mb &= mb - 1 {
					i := b*signLanes + bits.TrailingZeros8(mb)
					// thr may have risen since the block was marked.
					if i >= m || sc[i] < thr {
						continue
					}
					if filter != nil && !filter(uint64(s.g.ids[lo+i])) {
						continue
					}
					held = append(held, signCand{set: int32(si), row: int32(lo + i), score: sc[i]})
					if len(held) == 4*cands {
						held, thr = bestOf(held, cands)
					}
				}
			}
		}
	}
	return held
}

// signSampleEvery is the rows of which the threshold sample estimates
// one block of signLanes, and signSampleMinRank the fewest sampled rows
// the threshold may stand above: fewer say too little of where the
// cands-th best lies.
const (
	signSampleEvery   = 16 * signLanes
	signSampleMinRank = 32
)

// signSampleThreshold estimates a first block of signLanes rows in every
// signSampleEvery of ss and returns the score above which the sample
// holds its share of twice cands rows: a threshold that about 2·cands of
// all the rows pass, so that signScan keeps few more than it needs from
// the start, instead of every row until its buffer first fills (at
// 500,000 rows, selections over 40,000 held rows were half the pass's
// time besides the kernel). It returns -Inf when the sample is too small
// to say.
func signSampleThreshold(sq *signQuery, qcs []float64, ss []*SignCodes, cands int) float32 {
	none := float32(math.Inf(-1))
	n := 0
	for _, s := range ss {
		n += s.Len()
	}
	sample := make([]signCand, 0, n/signSampleEvery+len(ss))
	var buf [signLanes]float32
	var acc [signLanes]int32
	var masks [1]uint8
	for si, s := range ss {
		for lo := 0; lo < s.Len(); lo += signSampleEvery {
			s.estimate(sq, qcs[si], none, lo, acc[:], buf[:], masks[:])
			for _, x := range buf[:min(signLanes, s.Len()-lo)] {
				sample = append(sample, signCand{score: x})
			}
		}
	}
	r := int(2 * float64(cands) * float64(len(sample)) / float64(n))
	if r < signSampleMinRank || r >= len(sample) {
		return none
	}
	_, thr := bestOf(sample, r)
	return thr
}

// signCand is a row the 1-bit pass holds: row row of set set.
type signCand struct {
	set, row int32
	score    float32
}

// bestOf reorders cs so that its first n (0 < n < len(cs)) hold the
// best n scores (of equal scores, which are kept follows cs's order), and returns them with the lowest
// score among them.
func bestOf(cs []signCand, n int) ([]signCand, float32) {
	lo, hi := 0, len(cs)-1
	for lo < hi {
		// Hoare-style partition about the middle element's score; equal
		// scores may fall on either side, in an order fixed by cs's.
		p := cs[lo+(hi-lo)/2].score
		i, j := lo, hi
		for i <= j {
			for cs[i].score > p {
				i++
			}
			for cs[j].score < p {
				j--
			}
			if i <= j {
				cs[i], cs[j] = cs[j], cs[i]
				i++
				j--
			}
		}
		switch {
		case n-1 <= j:
			hi = j
		case n-1 >= i:
			lo = i
		default:
			lo = hi
		}
	}
	cs = cs[:n]
	worst := cs[0].score
	for _, c := range cs {
		worst = min(worst, c.score)
	}
	return cs, worst
}
