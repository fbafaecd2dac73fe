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

// SignCandidates is the fewest rows the 1-bit first pass keeps for exact
// re-scoring; 0 turns the pass off and every restricted reader scans its
// int8 copies exactly. With 1,000 and SignPermille 20, chosen at 100,000
// and 300,000 synth chunks on seed 2 (BENCHMARKS.md, "Restricted
// readers: compact codes"), readers of half the chunks in whole folders
// kept recall@10 0.976 and 0.980 against the exact scan (0.979 on seed
// 3, out of sample), every other reader 1.000, at two thirds of the
// scan's processor time or less.
var SignCandidates = 1000

// SignPermille is the share of a reader's readable rows, in thousandths,
// that the 1-bit pass keeps when that is more than SignCandidates: the
// estimate ranks a row's true place within a band that widens with the
// rows scanned, so a fixed count loses recall as the corpus grows.
var SignPermille = 20

// signCands is the candidates the 1-bit pass keeps for a reader of
// chunks chunks.
func signCands(chunks int) int { return max(SignCandidates, chunks*SignPermille/1000) }

// SignMinChunks is the number of readable chunks from which a restricted
// reader's dense leg takes the 1-bit pass: below it the exact int8 scan
// costs little (1.1 ms of processor time for 30,000 rows at 384
// dimensions), and with the fewest candidates the pass lost recall
// (readers of 30,000 whole-folder chunks of 300,000 synth chunks, seed 2:
// recall@10 0.949 with 1,000 candidates).
var SignMinChunks = 50_000

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
