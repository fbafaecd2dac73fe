package main

import "math"

// SDM is Metzler and Croft's sequential dependence model (SIGIR 2005) over
// BM25 term weights: each pair of adjacent query terms is scored as two
// extra pseudo-terms, the ordered pair at distance 1 and the unordered
// pair within a window of 8 analysed tokens, each with its own idf from
// the number of chunks holding it and BM25's tf saturation; the three
// parts are mixed with the paper's weights, 0.85, 0.1 and 0.05.
func SDM(wT, wO, wU float64) Scorer {
	return ScorerFunc(func(l *Lex, tokens []string) ([]float64, float64) {
		scores := l.BM.ScoresTokens(tokens)
		mx := l.BM.MaxScoreTokens(tokens)
		for d := range scores {
			scores[d] *= wT
		}
		mx *= wT
		var ids []uint32
		for _, tok := range tokens {
			if id, ok := l.Ix.TermID(tok); ok {
				ids = append(ids, uint32(id))
			}
		}
		n := float64(l.Ix.N())
		k1, b := l.Opts.K1, l.Opts.B
		avg := l.Ix.AvgDocLen()
		unseen := math.Log(1 + (n+0.5)/0.5)
		for i := 0; i+1 < len(ids); i++ {
			a, c := ids[i], ids[i+1]
			if a == c {
				continue
			}
			// chunks holding both terms
			pa, pc := l.Ix.Postings(int(a)).Docs, l.Ix.Postings(int(c)).Docs
			ordered := map[int]float64{}
			unordered := map[int]float64{}
			for x, y := 0, 0; x < len(pa) && y < len(pc); {
				switch {
				case pa[x] < pc[y]:
					x++
				case pa[x] > pc[y]:
					y++
				default:
					d := int(pa[x])
					o, u := windows(l.Seqs[d], a, c, 8)
					if o > 0 {
						ordered[d] = o
					}
					if u > 0 {
						unordered[d] = u
					}
					x++
					y++
				}
			}
			for _, part := range []struct {
				w  float64
				tf map[int]float64
			}{{wO, ordered}, {wU, unordered}} {
				df := float64(len(part.tf))
				idf := math.Log(1 + (n-df+0.5)/(df+0.5))
				for d, f := range part.tf {
					scores[d] += part.w * idf * f * (k1 + 1) / (f + k1*(1-b+b*float64(l.Ix.DocLen(d))/avg))
				}
				if df == 0 {
					idf = unseen
				}
				mx += part.w * idf * (k1 + 1)
			}
		}
		return scores, mx
	})
}

// windows counts the ordered occurrences of a immediately followed by c,
// and the unordered windows of w tokens holding both.
func windows(seq []uint32, a, c uint32, w int) (ordered, unordered float64) {
	lastA, lastC := -1<<30, -1<<30
	for p, t := range seq {
		switch t {
		case a:
			if p-lastC < w {
				unordered++
			}
			lastA = p
		case c:
			if p-lastA == 1 {
				ordered++
			}
			if p-lastA < w {
				unordered++
			}
			lastC = p
		}
	}
	return ordered, unordered
}
