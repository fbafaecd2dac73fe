package retrieve

import (
	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/chunk"
	"github.com/fonte-rag/fonte/lexical"
)

// Scored is one chunk of an Index with a leg's score.
type Scored struct {
	Pos   int // the chunk's position in the corpus
	Score float64
}

// LexicalTopK is the lexical leg alone, as fonte.Store defines it: the k
// chunks with the highest BM25 score for terms (analysed already) among
// those f accepts, best first, ties by corpus position.
func (ix *Index) LexicalTopK(terms []string, k int, f Filter) []Scored {
	var rs []lexical.Result
	view, rv := ix.accessView(f)
	if view != nil {
		rs = view.Query(terms).TopK(k, ix.allowFor(f, rv))
	} else {
		rs = ix.bm25.TopK(terms, k, ix.allowFor(f, rv))
	}
	out := make([]Scored, len(rs))
	for i, r := range rs {
		out[i] = Scored{r.Doc, r.Score}
	}
	return out
}

// VectorTopK is the dense leg alone: the k chunks most similar to q among
// those f accepts, best first, exactly when f hides some chunk from its
// reader (see denseFor). It returns nil without a dense leg.
func (ix *Index) VectorTopK(q []float32, k int, f Filter) []Scored {
	if ix.dense == nil {
		return nil
	}
	_, rv := ix.accessView(f)
	var out []Scored
	leg, allow := ix.denseLegFor(f, rv)
	for _, s := range searchDense(leg, q, k, allow) {
		out = append(out, Scored{s.doc, s.score})
	}
	return out
}

// TermStats returns the corpus statistics of terms, as fonte.Store does:
// over the chunks a reader restricted by f may read.
func (ix *Index) TermStats(terms []string, f Filter) fonte.TermStats {
	view, rv := ix.accessView(f)
	return ix.termStats(terms, view, rv)
}

// termStats is TermStats over a reader's view (nil: the whole corpus).
func (ix *Index) termStats(terms []string, view *lexical.View, rv *readerView) fonte.TermStats {
	lex := ix.bm25.Index()
	st := fonte.TermStats{Chunks: lex.N(), TotalTerms: int64(lex.TotalLen()), DF: make([]int, len(terms))}
	if view != nil {
		st.Chunks, st.TotalTerms = rv.chunks, int64(rv.total)
	}
	for i, t := range terms {
		id, ok := lex.TermID(t)
		if !ok {
			continue
		}
		if view == nil {
			st.DF[i] = lex.DocFreq(id)
			continue
		}
		st.DF[i] = ix.access.freqs.DocFreq(id, rv.visible)
	}
	return st
}

// Lang is chunk i's language.
func (ix *Index) Lang(i int) string { return ix.lang(i) }

// Terms returns the lexical terms of chunk c of a document in language
// lang: its enriched text analysed as the index analyses it. Stores that
// run the lexical leg in a database index these.
func (a Analyzers) Terms(c fonte.Chunk, lang string) []string {
	return a.of(lang).Analyze(chunk.Enriched(c))
}
