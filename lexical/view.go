package lexical

import (
	"math"
	"slices"

	"github.com/fonte-rag/fonte/internal/cores"
)

// A View is a BM25 model as a reader who may see only some documents
// would have it: N, the average length and every document frequency are
// those of the visible documents alone, so that a score, a share or a
// MaxScore computed through the view is the one an index of exactly the
// visible documents would give (bit for bit: the same expressions over
// the same numbers, summed in the same order). What the reader may not
// see then moves nothing the reader is shown.
//
// A view costs nothing to make; a query through it takes its terms'
// document frequencies from GroupFreqs when given (WithGroups), else
// counts their visible postings (one pass per term, remembered by the
// view for its next queries), and scores without the stored weights or
// bounds, which assume the whole corpus: exhaustively, or, for a query
// with many postings, choosing candidates first with bounds of its own
// (see view_prune.go). A view is for one goroutine: make one per search.
type View struct {
	m       *BM25
	visible func(doc int) bool
	n       int
	avg     float64
	df      map[int]int // by term id: its visible postings, once counted
	// groups, when set, holds every term's frequency per group of
	// documents, visibleGroups the groups shown (see WithGroups).
	groups        *GroupFreqs
	visibleGroups []bool
	// ranges, when set, are the visible documents as runs (WithRanges).
	ranges []uint32
}

// sees reports whether document d is visible: from its group when the
// view has groups (an index into two arrays, which the walks over long
// lists inline), else by asking visible.
func (v *View) sees(d uint32) bool {
	if v.groups != nil {
		return v.visibleGroups[v.groups.of[d]]
	}
	return v.visible(int(d))
}

// View returns the model restricted to the documents visible accepts, of
// which there are n with total analysed length total (the caller keeps
// those sums, e.g. per access label, rather than counting per query).
// visible must be safe for concurrent use: a long query's walks share it
// with a helper on another core (view_prune.go).
func (m *BM25) View(visible func(doc int) bool, n int, total uint64) *View {
	return &View{m: m, visible: visible, n: n, avg: avgLen(total, uint64(n))}
}

// N is the number of visible documents.
func (v *View) N() int { return v.n }

// ViewQuery is a query's terms with their idf over a view's documents,
// ready to score documents with.
type ViewQuery struct {
	v      *View
	tokens []string
	ids    []int     // per token: its term id, or -1 outside the vocabulary
	idf    []float64 // per token: its idf over the visible documents
	// repeat is, per token, how many tokens from it on are the same term
	// (0 for a token that repeats the one before it): a run of one term's
	// tokens walks its postings once and adds each weight once per token,
	// in the token-by-token order, so the sums keep every bit.
	repeat []int
}

// Query looks up tokens (analysed already) and computes each one's idf
// over the view's documents: a token no visible document holds gets the
// idf of a term in none, as MaxScoreTokens gives a token outside the
// vocabulary.
func (v *View) Query(tokens []string) *ViewQuery {
	q := &ViewQuery{v: v, tokens: tokens, ids: make([]int, len(tokens)), idf: make([]float64, len(tokens)), repeat: make([]int, len(tokens))}
	run := 0 // the first token of the current run
	for i, tok := range tokens {
		q.ids[i] = -1
		if i > 0 && tok == tokens[i-1] {
			q.ids[i], q.idf[i] = q.ids[i-1], q.idf[i-1]
			q.repeat[run]++
			continue
		}
		run = i
		q.repeat[i] = 1
		df := 0
		if id, ok := v.m.ix.TermID(tok); ok {
			q.ids[i] = id
			df = v.docFreq(id)
		}
		q.idf[i] = bm25IDF(v.n, df)
	}
	return q
}

// addRepeated adds w to *acc n times, one addition at a time: what n
// adjacent tokens of one term add, token by token.
func addRepeated(acc *float64, w float64, n int) {
	for range n {
		*acc += w
	}
}

// docFreq is the number of visible documents holding term id.
func (v *View) docFreq(id int) int {
	if v.groups != nil {
		return v.groups.DocFreq(id, v.visibleGroups)
	}
	if df, ok := v.df[id]; ok {
		return df
	}
	df := 0
	for _, d := range v.m.ix.docs(uint32(id)) {
		if v.sees(d) {
			df++
		}
	}
	if v.df == nil {
		v.df = map[int]int{}
	}
	v.df[id] = df
	return df
}

// tfBound bounds the weight of term id, over its idf, in the documents
// the view shows: from the groups' frequencies and lengths when the view
// has groups, else k1 + 1 (f / (f + norm) < 1 whatever the length).
func (v *View) tfBound(id int) float64 {
	k1 := v.m.opts.K1
	if v.groups != nil {
		if b, ok := v.groups.tfBound(id, v.visibleGroups, k1, v.m.opts.B, v.avg); ok {
			return min(b, k1+1)
		}
	}
	return k1 + 1
}

// MaxScore is MaxScoreTokens over the view: the sum of the tokens' idf
// times (k1 + 1).
func (q *ViewQuery) MaxScore() float64 {
	total := 0.0
	for _, idf := range q.idf {
		total += idf * (q.v.m.opts.K1 + 1)
	}
	return total
}

// weight is the BM25 weight, over the view, of token i in the document
// of posting j of its term's list docs.
func (q *ViewQuery) weight(i, j int, d uint32) float64 {
	m := q.v.m
	f := float64(m.ix.freqAt(uint32(q.ids[i]), j))
	return bm25Weight(q.idf[i], f, m.opts.K1, m.opts.B, float64(m.ix.lengths[d]), q.v.avg)
}

// ScoreDoc is the document's BM25 score for the query over the view
// (0 for a document the view hides).
func (q *ViewQuery) ScoreDoc(doc int) float64 {
	if !q.v.visible(doc) {
		return 0
	}
	s := 0.0
	for i, id := range q.ids {
		if id < 0 || q.repeat[i] == 0 {
			continue
		}
		docs := q.v.m.ix.docs(uint32(id))
		j, found := slices.BinarySearch(docs, uint32(doc))
		if found {
			addRepeated(&s, q.weight(i, j, uint32(doc)), q.repeat[i])
		}
	}
	return s
}

// TopKShare is BM25.TopKShare over the view: the at most k visible
// documents allow accepts (nil: all visible ones) with a score above 0,
// each divided by MaxScore, best first, ties by document number; nil when
// the query has no token.
func (q *ViewQuery) TopKShare(k int, allow func(doc int) bool) []Result {
	div := q.MaxScore()
	if !(div > 0) || k <= 0 {
		return nil
	}
	return q.topK(k, allow, div)
}

// TopK is BM25.TopK over the view: raw scores, not shares.
func (q *ViewQuery) TopK(k int, allow func(doc int) bool) []Result {
	if k <= 0 {
		return nil
	}
	return q.topK(k, allow, 1)
}

func (q *ViewQuery) topK(k int, allow func(doc int) bool, div float64) []Result {
	cores.Enter() // for helpers to know this core is taken (split.go)
	defer cores.Leave()
	m := q.v.m
	s := m.pool.get()
	defer m.pool.put(s)
	postings := 0
	for _, id := range q.ids {
		if id >= 0 {
			postings += m.ix.DocFreq(id)
		}
	}
	if postings == 0 {
		return nil
	}
	lists := 0
	for i, id := range q.ids {
		if id >= 0 && !slices.Contains(q.ids[:i], id) {
			lists++
		}
	}
	if q.useRanges(lists, postings) {
		return q.topKRanges(k, allow, div, s)
	}
	if postings >= pruneMinPostings {
		if out, ok := q.topKPruned(k, allow, div, s); ok {
			return out
		}
	}
	if splits(postings) {
		return q.topKSplit(k, allow, div, s)
	}
	// Token by token, as ScoresTokens adds them, so each sum is the one
	// an index of the visible documents alone would make.
	s.begin(postings)
	for i, id := range q.ids {
		if id < 0 || q.repeat[i] == 0 {
			continue
		}
		for j, d := range m.ix.docs(uint32(id)) {
			if !q.v.sees(d) {
				continue
			}
			if !s.dense && s.acc[d] == 0 {
				s.touched = append(s.touched, d)
			}
			addRepeated(&s.acc[d], q.weight(i, j, d), q.repeat[i])
		}
	}
	var top topSet
	top.init(k, div)
	if s.dense {
		for d, a := range s.acc {
			if a >= top.cut {
				top.offer(d, a, allow)
			}
		}
	} else {
		for _, d := range s.touched {
			if a := s.acc[d]; a >= top.cut {
				top.offer(int(d), a, allow)
			}
		}
	}
	return top.sorted()
}

// GroupFreqs is every term's document frequency per group of documents
// (a restricted reader's access classes): a reader's document frequency
// of a term is then the sum over the groups it may read, with no pass
// over the term's postings, so it costs the same whether the hidden
// documents hold the term or not.
type GroupFreqs struct {
	of    []uint32 // per document: its group (the caller's slice, not copied)
	start []uint32 // per term: its first entry, and one past the last term's
	group []uint32 // per entry: a group holding the term
	count []uint32 // per entry: how many of the group's documents hold it
	// Per entry, what bounds the term's weight in the group's documents
	// whatever the average length (see tfBound): its largest frequency
	// there, and the smallest length over frequency, rounded down.
	maxFreq   []uint32
	minLenPer []float32
}

// GroupFreqs counts each term's documents per group, group[d] being
// document d's group among groups: one pass over every postings list. A
// list found damaged on an index opened in place counts as empty, as
// searches read it. g keeps group, not a copy: it must not change while
// g is used.
func (ix *Index) GroupFreqs(group []uint32, groups int) *GroupFreqs {
	terms := ix.NumTerms()
	g := &GroupFreqs{of: group, start: make([]uint32, terms+1)}
	counts := make([]uint32, groups)
	maxFreq := make([]uint32, groups)
	minLenPer := make([]float64, groups)
	var touched []uint32
	for t := range terms {
		for j, d := range ix.docs(uint32(t)) {
			c := group[d]
			f := ix.freqAt(uint32(t), j)
			r := float64(ix.lengths[d]) / float64(f)
			if counts[c] == 0 {
				touched = append(touched, c)
				maxFreq[c], minLenPer[c] = f, r
			}
			counts[c]++
			maxFreq[c] = max(maxFreq[c], f)
			minLenPer[c] = min(minLenPer[c], r)
		}
		slices.Sort(touched)
		for _, c := range touched {
			g.group = append(g.group, c)
			g.count = append(g.count, counts[c])
			g.maxFreq = append(g.maxFreq, maxFreq[c])
			g.minLenPer = append(g.minLenPer, roundDown32(minLenPer[c]))
			counts[c] = 0
		}
		touched = touched[:0]
		g.start[t+1] = uint32(len(g.group))
	}
	return g
}

// DocFreq is the number of documents of the groups visible marks that
// hold term id.
func (g *GroupFreqs) DocFreq(id int, visible []bool) int {
	df := 0
	for e := g.start[id]; e < g.start[id+1]; e++ {
		if visible[g.group[e]] {
			df += int(g.count[e])
		}
	}
	return df
}

// tfBound is a bound on the part of term id's weight that is not its
// idf, f·(k1+1) / (f + k1·(1 − b + b·len/avg)), over the documents of the
// groups visible marks, for the average length avg, from the groups'
// own frequencies and lengths (so hidden documents move nothing): the
// weight is (k1+1) / (1 + k1·(1−b)/f + k1·b·(len/f)/avg), which only
// grows as f grows and len/f shrinks, so the groups' largest f and
// smallest len/f bound it, each on its own. ok is false when no group
// shown holds the term.
func (g *GroupFreqs) tfBound(id int, visible []bool, k1, b, avg float64) (bound float64, ok bool) {
	var maxFreq uint32
	minLenPer := math.Inf(1)
	for e := g.start[id]; e < g.start[id+1]; e++ {
		if visible[g.group[e]] {
			ok = true
			maxFreq = max(maxFreq, g.maxFreq[e])
			minLenPer = min(minLenPer, float64(g.minLenPer[e]))
		}
	}
	if !ok {
		return 0, false
	}
	return (k1 + 1) / (1 + k1*(1-b)/float64(maxFreq) + k1*b*minLenPer/avg), true
}

// roundDown32 is x as a float32 no larger than x.
func roundDown32(x float64) float32 {
	f := float32(x)
	if float64(f) > x {
		f = math.Nextafter32(f, float32(math.Inf(-1)))
	}
	return f
}

// WithGroups makes the view take its document frequencies from g, whose
// groups visible marks those the view shows (the documents visible
// accepts must be exactly theirs), instead of counting postings, and
// tells a document's visibility from its group in g.
func (v *View) WithGroups(g *GroupFreqs, visible []bool) *View {
	v.groups, v.visibleGroups = g, visible
	return v
}
