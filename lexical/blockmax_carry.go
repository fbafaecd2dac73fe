package lexical

// A model built by a write starts with no block maxima (blockmax.go), so
// the first queries on the new view would each pay a pass over every
// common term's whole list: at a million chunks, the first hybrid query
// after a write took 485 ms (BENCHMARKS.md, session 33). The write's build
// computes them instead, before the view is published, for the terms the
// previous model had computed: the terms queries ask for. They are
// computed from the new model's weights, never copied: a write changes N,
// the average length and so every weight, and a stale bound would drop
// documents that rank.

// CarryBlockMaxima computes in m the block maxima of every term whose
// maxima old holds and that is common in m too, matching terms by their
// text (term ids differ between two models). It gives way to searches
// between steps (internal/yield), as a write's build does, and returns
// how many terms it computed. Call it before m is published to queries;
// it is safe, if slower for them, while queries run on m.
func (m *BM25) CarryBlockMaxima(old *BM25) int {
	if old == nil || old == m {
		return 0
	}
	var terms []uint32 // m's ids, gathered first: Range holds no lock, but computing is long
	old.blocks.Range(func(k, _ any) bool {
		id, ok := m.ix.TermID(old.ix.Term(int(k.(uint32))))
		if ok && m.keepsBlocks(m.ix.DocFreq(id)) {
			terms = append(terms, uint32(id))
		}
		return true
	})
	done := 0
	for _, t := range terms {
		if _, ok := m.blocks.Load(t); ok {
			continue
		}
		q := m.queryTerm(t)
		m.blocks.LoadOrStore(t, m.computeMaxima(&q, true))
		done++
	}
	return done
}

// BlockMaximaTerms is how many terms' block maxima m holds: those its
// queries computed and those CarryBlockMaxima did.
func (m *BM25) BlockMaximaTerms() int {
	n := 0
	m.blocks.Range(func(any, any) bool {
		n++
		return true
	})
	return n
}
