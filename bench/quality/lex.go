package main

import (
	"cmp"
	"math"
	"slices"
	"sort"

	"github.com/fonte-rag/fonte/analysis"
	"github.com/fonte-rag/fonte/lexical"
)

// Analysis chooses the analyzer of each language, as retrieve.Analyzers
// does: Default serves chunks and queries whose language has no entry.
type Analysis struct {
	ByLang  map[string]analysis.Analyzer
	Default analysis.Analyzer
}

func (a Analysis) of(lang string) analysis.Analyzer {
	if an, ok := a.ByLang[lang]; ok {
		return an
	}
	return a.Default
}

// Lex is one set indexed with one analysis, as retrieve.New builds its
// lexical leg: one index over every chunk's enriched text, each chunk
// analysed in its language.
type Lex struct {
	Set   *Set
	An    Analysis
	Ix    *lexical.Index
	BM    *lexical.BM25
	Opts  lexical.BM25Options
	Seqs  [][]uint32 // each chunk's analysed tokens as term ids, in order
	langs []string
}

// BuildLex indexes s with an and scores it with BM25 opts.
func BuildLex(s *Set, an Analysis, opts lexical.BM25Options, workers int) *Lex {
	l := &Lex{Set: s, An: an, Opts: opts, langs: s.Languages()}
	toks := make([][]string, len(s.Texts))
	l.Ix = lexical.NewIndexParallel(len(s.Texts), func(d int) []string {
		t := an.of(s.Langs[d]).Analyze(s.Texts[d])
		toks[d] = t
		return t
	}, an.Default, workers)
	l.BM = lexical.NewBM25Index(l.Ix, opts)
	l.Seqs = make([][]uint32, len(toks))
	for d, ts := range toks {
		seq := make([]uint32, len(ts))
		for i, t := range ts {
			id, _ := l.Ix.TermID(t)
			seq[i] = uint32(id)
		}
		l.Seqs[d] = seq
	}
	return l
}

// queryLangs is retrieve's rule: the query's language when known, else
// every language of the corpus.
func (l *Lex) queryLangs(lang string) []string {
	if lang != "" {
		return []string{lang}
	}
	if len(l.langs) == 0 {
		return []string{""}
	}
	return l.langs
}

// A Scorer scores every chunk for a query analysed in one language and
// returns the largest score a chunk could reach for it: retrieve ranks by
// the share score/max, keeping a chunk's best share over the query's
// languages.
type Scorer interface {
	Score(l *Lex, tokens []string) (scores []float64, max float64)
}

// ScorerFunc adapts a function to Scorer.
type ScorerFunc func(l *Lex, tokens []string) ([]float64, float64)

// Score calls f.
func (f ScorerFunc) Score(l *Lex, tokens []string) ([]float64, float64) { return f(l, tokens) }

// BM25Scorer is plain BM25: what retrieve ranks by today.
var BM25Scorer = ScorerFunc(func(l *Lex, tokens []string) ([]float64, float64) {
	return l.BM.ScoresTokens(tokens), l.BM.MaxScoreTokens(tokens)
})

type scored struct {
	doc   int
	score float64
}

func sortScored(out []scored) {
	slices.SortFunc(out, func(a, b scored) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return cmp.Compare(a.doc, b.doc)
	})
}

// Rank returns the depth best chunks for q by sc, as retrieve's
// lexicalTop: best share over the query's languages, ties by chunk number.
func (l *Lex) Rank(q Query, sc Scorer, depth int) []scored {
	langs := l.queryLangs(q.Lang)
	var best []float64
	for _, lang := range langs {
		scores, mx := sc.Score(l, l.An.of(lang).Analyze(q.Text))
		if mx <= 0 {
			continue
		}
		if best == nil {
			best = make([]float64, len(scores))
		}
		for d, s := range scores {
			if s > 0 {
				best[d] = max(best[d], s/mx)
			}
		}
	}
	var out []scored
	for d, s := range best {
		if s > 0 {
			out = append(out, scored{d, s})
		}
	}
	sortScored(out)
	return out[:min(depth, len(out))]
}

// idfOf returns the BM25 idf of a term id.
func idfOf(l *Lex, id int) float64 {
	v, _ := l.BM.IDF(l.Ix.Term(id))
	return v
}

// BM25Plus is Lv and Zhai's BM25+ (CIKM 2011): every matched query token
// adds delta·idf on top of BM25, a lower bound on the tf normalisation so
// that a long chunk that contains a term is never scored as if it nearly
// lacked it.
func BM25Plus(delta float64) Scorer {
	return ScorerFunc(func(l *Lex, tokens []string) ([]float64, float64) {
		scores := l.BM.ScoresTokens(tokens)
		for _, tok := range tokens {
			id, ok := l.Ix.TermID(tok)
			if !ok {
				continue
			}
			w := delta * idfOf(l, id)
			for _, d := range l.Ix.Postings(id).Docs {
				scores[d] += w
			}
		}
		mx := l.BM.MaxScoreTokens(tokens)
		return scores, mx * (l.Opts.K1 + 1 + delta) / (l.Opts.K1 + 1)
	})
}

// Proximity is BM25 plus Büttcher, Clarke and Lushman's term-proximity
// score (SIGIR 2006): walking a chunk's tokens, each pair of adjacent
// occurrences of two different query terms at distance δ adds
// idf(other)/δ² to each term's accumulator, and a term's accumulator is
// saturated like a BM25 tf, weighted by min(1, idf):
//
//	TP(d) = Σ_t min(1, idf_t) · acc_t·(k1+1) / (acc_t + k1·(1-b+b·len/avglen))
//
// Distances are in analysed tokens (stop words removed). Scale multiplies
// TP, 1 being the paper's.
func Proximity(scale float64) Scorer {
	return ScorerFunc(func(l *Lex, tokens []string) ([]float64, float64) {
		scores := l.BM.ScoresTokens(tokens)
		mx := l.BM.MaxScoreTokens(tokens)
		slot := map[uint32]int{}
		var idf []float64
		for _, tok := range tokens {
			id, ok := l.Ix.TermID(tok)
			if !ok {
				continue
			}
			if _, seen := slot[uint32(id)]; !seen {
				slot[uint32(id)] = len(idf)
				idf = append(idf, idfOf(l, id))
			}
		}
		if len(idf) < 2 {
			return scores, mx
		}
		k1, b := l.Opts.K1, l.Opts.B
		avg := l.Ix.AvgDocLen()
		bound := 0.0
		for _, w := range idf {
			bound += min(1, w) * (k1 + 1)
		}
		acc := make([]float64, len(idf))
		for d, s := range scores {
			if s == 0 {
				continue
			}
			clear(acc)
			prev, prevPos := -1, 0
			for pos, t := range l.Seqs[d] {
				i, ok := slot[t]
				if !ok {
					continue
				}
				if prev >= 0 && prev != i {
					dist := float64(pos - prevPos)
					acc[i] += idf[prev] / (dist * dist)
					acc[prev] += idf[i] / (dist * dist)
				}
				prev, prevPos = i, pos
			}
			norm := k1 * (1 - b + b*float64(l.Ix.DocLen(d))/avg)
			tp := 0.0
			for i, a := range acc {
				if a > 0 {
					tp += min(1, idf[i]) * a * (k1 + 1) / (a + norm)
				}
			}
			scores[d] += scale * tp
		}
		return scores, mx + scale*bound
	})
}

// RM3 is relevance-model feedback (Lavrenko and Croft; Abdul-Jaleel et
// al.'s RM3) as Anserini runs it: the fbDocs best chunks of a first BM25
// pass, each chunk's term distribution tf/len weighted by its BM25 score,
// summed, cut to the fbTerms heaviest terms and L1-normalised, then mixed
// with the query's own term distribution (weight alpha) into a weighted
// BM25 query over the whole index.
func RM3(fbDocs, fbTerms int, alpha float64) Scorer {
	return ScorerFunc(func(l *Lex, tokens []string) ([]float64, float64) {
		first := l.BM.ScoresTokens(tokens)
		var top []scored
		for d, s := range first {
			if s > 0 {
				top = append(top, scored{d, s})
			}
		}
		sortScored(top)
		top = top[:min(fbDocs, len(top))]
		if len(top) == 0 || len(tokens) == 0 {
			return first, l.BM.MaxScoreTokens(tokens)
		}
		rel := map[uint32]float64{}
		for _, t := range top {
			terms, freqs := l.Ix.DocTerms(t.doc)
			total := 0.0
			for i, id := range terms {
				if n := len([]rune(l.Ix.Term(int(id)))); n >= 2 && n <= 20 {
					total += float64(freqs[i])
				}
			}
			for i, id := range terms {
				if n := len([]rune(l.Ix.Term(int(id)))); n >= 2 && n <= 20 {
					rel[id] += t.score * float64(freqs[i]) / total
				}
			}
		}
		type tw struct {
			id uint32
			w  float64
		}
		var fb []tw
		for id, w := range rel {
			fb = append(fb, tw{id, w})
		}
		sort.Slice(fb, func(i, j int) bool {
			if fb[i].w != fb[j].w {
				return fb[i].w > fb[j].w
			}
			return fb[i].id < fb[j].id
		})
		fb = fb[:min(fbTerms, len(fb))]
		sum := 0.0
		for _, f := range fb {
			sum += f.w
		}
		weights := map[string]float64{}
		for _, tok := range tokens {
			weights[tok] += alpha / float64(len(tokens))
		}
		for _, f := range fb {
			weights[l.Ix.Term(int(f.id))] += (1 - alpha) * f.w / sum
		}
		scores := make([]float64, len(first))
		mx := 0.0
		for term, w := range weights {
			one := []string{term}
			mx += w * l.BM.MaxScoreTokens(one)
			if _, ok := l.Ix.TermID(term); !ok {
				continue
			}
			for d, s := range l.BM.ScoresTokens(one) {
				if s != 0 {
					scores[d] += w * s
				}
			}
		}
		return scores, mx
	})
}

// Coord multiplies BM25 by the share of the query's tokens the chunk
// contains (matched tokens / all tokens, repeats counted): Lucene's
// classic coordination factor, which bleve still applies to its
// disjunctions.
var Coord = ScorerFunc(func(l *Lex, tokens []string) ([]float64, float64) {
	scores := l.BM.ScoresTokens(tokens)
	matched := make([]float64, len(scores))
	for _, tok := range tokens {
		if id, ok := l.Ix.TermID(tok); ok {
			for _, d := range l.Ix.Postings(id).Docs {
				matched[d]++
			}
		}
	}
	for d := range scores {
		scores[d] *= matched[d] / float64(len(tokens))
	}
	return scores, l.BM.MaxScoreTokens(tokens)
})

// Rocchio is Rocchio feedback as Anserini runs it (alpha 1, beta 0.75,
// no negative documents): the query's term vector and the mean of the
// fbDocs best chunks' term-frequency vectors, each L2-normalised, summed;
// the query's terms are kept and the fbTerms heaviest other terms added,
// and the result is a weighted BM25 query over the whole index.
func Rocchio(fbDocs, fbTerms int, alpha, beta float64) Scorer {
	return ScorerFunc(func(l *Lex, tokens []string) ([]float64, float64) {
		first := l.BM.ScoresTokens(tokens)
		var top []scored
		for d, s := range first {
			if s > 0 {
				top = append(top, scored{d, s})
			}
		}
		sortScored(top)
		top = top[:min(fbDocs, len(top))]
		if len(top) == 0 {
			return first, l.BM.MaxScoreTokens(tokens)
		}
		q := map[string]float64{}
		for _, t := range tokens {
			q[t]++
		}
		norm := 0.0
		for _, v := range q {
			norm += v * v
		}
		norm = math.Sqrt(norm)
		weights := map[string]float64{}
		for t, v := range q {
			weights[t] = alpha * v / norm
		}
		fb := map[uint32]float64{}
		for _, t := range top {
			terms, freqs := l.Ix.DocTerms(t.doc)
			n := 0.0
			for _, f := range freqs {
				n += float64(f) * float64(f)
			}
			n = math.Sqrt(n)
			for i, id := range terms {
				fb[id] += beta * float64(freqs[i]) / n / float64(len(top))
			}
		}
		type tw struct {
			id uint32
			w  float64
		}
		var list []tw
		for id, w := range fb {
			list = append(list, tw{id, w})
		}
		sort.Slice(list, func(i, j int) bool {
			if list[i].w != list[j].w {
				return list[i].w > list[j].w
			}
			return list[i].id < list[j].id
		})
		added := 0
		for _, x := range list {
			term := l.Ix.Term(int(x.id))
			if _, inQuery := q[term]; inQuery {
				weights[term] += x.w
				continue
			}
			if added < fbTerms {
				weights[term] += x.w
				added++
			}
		}
		scores := make([]float64, len(first))
		mx := 0.0
		for term, w := range weights {
			one := []string{term}
			mx += w * l.BM.MaxScoreTokens(one)
			if _, ok := l.Ix.TermID(term); !ok {
				continue
			}
			for d, s := range l.BM.ScoresTokens(one) {
				if s != 0 {
					scores[d] += w * s
				}
			}
		}
		return scores, mx
	})
}

// TFIDFScorer is retrieve's TF-IDF mode: scikit-learn's cosine with
// sublinear tf over the same index.
func TFIDFScorer() Scorer {
	models := map[*Lex]*lexical.TFIDF{}
	return ScorerFunc(func(l *Lex, tokens []string) ([]float64, float64) {
		m, ok := models[l]
		if !ok {
			m = lexical.NewTFIDFIndex(l.Ix, lexical.TFIDFOptions{Sublinear: true})
			models[l] = m
		}
		return m.ScoresTokens(tokens), 1
	})
}
