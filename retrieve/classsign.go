package retrieve

import (
	"github.com/fonte-rag/fonte/vector"
)

// This file holds a restricted reader's cheaper dense scan: a first pass
// over the 1-bit copies of the classes it may read (vector.SignCodes)
// keeps SignCandidates rows, which are re-scored exactly from the float32
// rows. The copies are made from each class's own rows (its mean
// included), and the pass's cost and candidates follow from the readable
// classes alone, so a reader learns nothing through them of the chunks it
// may not read.

// SignCandidates is how many rows the 1-bit first pass keeps for exact
// re-scoring; 0 turns the pass off and every restricted reader scans its
// int8 copies exactly.
var SignCandidates = 0

// SignMinChunks is the number of readable chunks from which a restricted
// reader's dense leg takes the 1-bit pass: below it the exact int8 scan
// costs little.
var SignMinChunks = 20_000

// classSigns returns the 1-bit copies of the classes view v shows, each
// made on the first search that needs it from the class's int8 copy's
// rows (see classCodes) and kept.
func (a *accessClasses) classSigns(v *readerView, f *vector.FlatView) ([]*vector.SignCodes, error) {
	gs, err := a.classCodes(v, f, nil)
	if err != nil {
		return nil, err
	}
	ss := make([]*vector.SignCodes, 0, len(gs))
	i := 0
	for c, ok := range v.visible {
		if !ok || a.chunks[c] == 0 {
			continue
		}
		g := gs[i]
		a.signsOnce[c].Do(func() { a.signs[c] = f.SignCodes(g) })
		ss = append(ss, a.signs[c])
		i++
	}
	return ss, nil
}

// signLeg ranks the rows of the classes' 1-bit copies and re-scores the
// best cands of them exactly.
type signLeg struct {
	f     *vector.FlatView
	signs []*vector.SignCodes
	cands int
}

func (l signLeg) search(q []float32, k int, allow func(int) bool) []scored {
	return scoredOf(l.f.SearchSigned(q, k, l.cands, l.signs, byID(allow)))
}
