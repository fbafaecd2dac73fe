package engine

import (
	"context"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/analysis"
	"github.com/fonte-rag/fonte/answer"
	"github.com/fonte-rag/fonte/chunk"
)

// coverage weighs the question's content keys (analysed as the relevance
// analyses them, in lang) by their inverse document frequency in the
// corpus, BM25's idf, and finds which of the hits hold each: see
// answer.Coverage. A key the corpus does not hold gets the weight of a
// key held by one chunk. The frequencies count only what a reader under
// access may read. It returns nil when the question has no content key
// (the floor then compares the relevance alone).
func (e *Engine) coverage(ctx context.Context, v *view, query, lang string, hits []fonte.Hit, access fonte.Filter) (*answer.Coverage, error) {
	an, ok := e.an.Content[lang]
	if !ok {
		an = e.an.Content[""]
	}
	if an == nil || len(hits) == 0 {
		return nil, nil
	}
	// The words that ask for a kind of figure ("how quickly") are left
	// out when the kind check stands in for them (answer.KindWords): the
	// passage that answers states the figure, not the word. A key that
	// another word of the question gives too stays. So are the words of
	// its grammar the stop lists keep (analysis.FunctionWords: "does",
	// "è stato"): no passage need repeat them.
	asking := map[string]int{}
	for _, k := range an.Analyze(strings.Join(append(answer.KindWords(query), analysis.FunctionWords(query)...), " ")) {
		asking[k]++
	}
	var keys []string
	for _, k := range an.Analyze(query) {
		if asking[k] > 0 {
			asking[k]--
			continue
		}
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil, nil
	}
	// Each key's word as the question writes it, for the reader: the
	// first word whose analysis gives the key, without an elided article
	// ("iguana", not "l'iguana").
	words := map[string]string{}
	for _, w := range strings.Fields(query) {
		w = strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		parts := strings.FieldsFunc(w, func(r rune) bool { return r == '\'' || r == '’' })
		for _, p := range append(parts, w) {
			for _, k := range an.Analyze(p) {
				if _, ok := words[k]; !ok {
					words[k] = p
				}
			}
		}
	}
	var st fonte.TermStats
	if v.local != nil {
		st = v.local.TermStats(keys, access)
	} else {
		var err error
		if st, err = e.store.TermStats(ctx, keys, access); err != nil {
			return nil, err
		}
	}
	// An irregular verb's forms meet through their base's stem: "previsti"
	// holds "prevede", "written" holds "write" (analysis.ItalianRoot).
	root := analysis.EnglishRoot
	if lang == "it" {
		root = analysis.ItalianRoot
	}
	compounds := questionCompounds(an, query)
	held := make([]map[string]bool, len(hits))
	for i, h := range hits {
		held[i] = map[string]bool{}
		text := chunk.Enriched(h.Chunk)
		for _, t := range an.Analyze(text) {
			held[i][t] = true
			held[i][root(t)] = true
		}
		// A compound of the question held as its words, written apart
		// or run together ("an 8 year appointment" for "8-year").
		for k, c := range compounds {
			if !held[i][k] && c.in(text) {
				held[i][k] = true
			}
		}
	}
	c := &answer.Coverage{Chunks: st.Chunks, MinHeld: answer.DefaultMinHeld, Held: make([]answer.Held, len(hits))}
	var total, missing float64
	for i, k := range keys {
		ck := answer.CoverageKey{Key: k, Word: words[k], DF: st.DF[i], Weight: idf(st.Chunks, max(st.DF[i], 1))}
		total += ck.Weight
		for r := range hits {
			if held[r][k] || held[r][root(k)] {
				ck.In = append(ck.In, r+1)
				c.Held[r].Share += ck.Weight
			}
		}
		if len(ck.In) == 0 {
			missing += ck.Weight
		}
		c.Keys = append(c.Keys, ck)
	}
	if total == 0 {
		return nil, nil
	}
	for r, h := range hits {
		c.Held[r].ChunkID = h.Chunk.ID
		c.Held[r].Share /= total
	}
	c.Missing = missing / total
	return c, nil
}

// idf is BM25's inverse document frequency of a term held by df of n
// chunks.
func idf(n, df int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}
