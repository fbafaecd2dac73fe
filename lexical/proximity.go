package lexical

// Proximity is the term-proximity score of Büttcher, Clarke and Lushman
// ("Term proximity scoring for ad-hoc retrieval on very large text
// collections", SIGIR 2006), the part their BM25TP adds to BM25. BM25 is a
// bag of words: a passage that holds a question's words side by side
// scores the same as one that holds them paragraphs apart. The paper walks
// the document's occurrences of query terms in order; every two
// consecutive occurrences of different terms t and u, d positions apart,
// add idf(u)/d² to t's accumulator and idf(t)/d² to u's. Each accumulator
// is then saturated and length-normalised as a BM25 term frequency is:
//
//	prox = Σ_t min(1, idf(t)) · acc(t)·(k1+1) / (acc(t) + k1·(1-b+b·dl/avgdl))
//
// and BM25TP is BM25 + prox, in BM25's own units, with no weight of its
// own to tune. A query term given twice (see retrieve's rank terms)
// counts twice, as it does in BM25's sum.
type Proximity struct {
	at     map[string]int // term -> its number
	idf    []float64      // per term
	count  []float64      // per term: how often the query gives it
	acc    []float64      // per term, reused across documents
	k1, b  float64
	avgLen float64
}

// NewProximity prepares the proximity score of a query: its analysed
// terms (repeats allowed), idf(i) the idf of terms[i] in the corpus, and
// BM25's k1 and b with the corpus's average document length. A
// Proximity is not safe for concurrent use.
func NewProximity(terms []string, idf func(i int) float64, k1, b, avgLen float64) *Proximity {
	p := &Proximity{at: make(map[string]int, len(terms)), k1: k1, b: b, avgLen: avgLen}
	for i, t := range terms {
		j, ok := p.at[t]
		if !ok {
			j = len(p.idf)
			p.at[t] = j
			p.idf = append(p.idf, idf(i))
			p.count = append(p.count, 0)
		}
		p.count[j]++
	}
	p.acc = make([]float64, len(p.idf))
	return p
}

// Score is the proximity score of a document given as its analysed terms
// in order (the same analysis the index uses, so that positions count
// index terms). A query of fewer than two distinct terms scores 0.
func (p *Proximity) Score(doc []string) float64 {
	if len(p.idf) < 2 || p.avgLen <= 0 {
		return 0
	}
	clear(p.acc)
	prev, prevAt := -1, 0
	for pos, t := range doc {
		j, ok := p.at[t]
		if !ok {
			continue
		}
		if prev >= 0 && prev != j {
			d := float64(pos - prevAt)
			p.acc[j] += p.idf[prev] / (d * d)
			p.acc[prev] += p.idf[j] / (d * d)
		}
		prev, prevAt = j, pos
	}
	norm := p.k1 * lengthNorm(p.b, float64(len(doc)), p.avgLen)
	score := 0.0
	for j, a := range p.acc {
		if a > 0 {
			score += p.count[j] * min(1, p.idf[j]) * a * (p.k1 + 1) / (a + norm)
		}
	}
	return score
}
