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
	// Over text of several languages, a key is a word of the question's
	// language (see questionLangs): its frequency counts the text of that
	// language, and that of the others where it writes the word itself.
	same, others := e.questionLangs(v, lang, access)
	if _, ok := e.store.(fonte.LanguageTermStats); v.local == nil && !ok {
		// A store that cannot count one language's text keeps the check
		// as it was for every language.
		same, others = nil, nil
	}
	var surface map[string][]string
	var docs map[string]fonte.Document
	var st fonte.TermStats
	var err error
	if same == nil {
		st, err = e.termStats(ctx, v, keys, access, nil)
	} else {
		surface, docs = surfaceForms(an, query), v.docsOf(hits)
		st, err = e.termStats(ctx, v, keys, access, same)
		for _, l := range others {
			if err == nil {
				err = e.addWrittenIn(ctx, v, st.DF, keys, surface, access, l)
			}
		}
	}
	if err != nil {
		return nil, err
	}
	// An irregular verb's forms meet through their base's stem: "previsti"
	// holds "prevede", "written" holds "write" (analysis.ItalianRoot).
	root := analysis.EnglishRoot
	if lang == "it" {
		root = analysis.ItalianRoot
	}
	compounds := questionCompounds(an, query)
	held := make([]map[string]bool, len(hits))
	other := make([]bool, len(hits)) // a hit in another language
	for i, h := range hits {
		held[i] = map[string]bool{}
		text := chunk.Enriched(h.Chunk)
		if d, ok := docs[h.Chunk.DocID]; ok && !slices.Contains(same, d.Language) {
			other[i] = true
			// Text of another language holds a key only as the
			// question writes it: a name, a code, an acronym.
			in := map[string]bool{}
			for _, w := range surfaceWords(text) {
				in[w] = true
			}
			for k, forms := range surface {
				if slices.ContainsFunc(forms, func(f string) bool { return in[f] }) {
					held[i][k] = true
				}
			}
		} else {
			for _, t := range an.Analyze(text) {
				held[i][t] = true
				held[i][root(t)] = true
			}
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
			if held[r][k] || !other[r] && held[r][root(k)] {
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

// questionLangs returns the languages of the documents a reader under
// access may read that get the analysis of lang, the question's, and the
// others, when the reader may read documents of both: a key of the
// question is then a word of its language, which text of another holds
// only where it writes the word itself (a stem one language shares with
// another is no evidence: the Italian "cane", dog, stems to the English
// "can"). It returns nil (every language counts, as for a corpus of one)
// when lang is unknown, when no readable document is in it (a question
// over documents in another language, see nothingFoundNotice) or when
// all are.
func (e *Engine) questionLangs(v *view, lang string, access fonte.Filter) (same, others []string) {
	if lang == "" {
		return nil, nil
	}
	for _, l := range v.readableLanguages(access) {
		if e.hasAnalysis(lang, []string{l}) {
			same = append(same, l)
		} else {
			others = append(others, l)
		}
	}
	if len(same) == 0 || len(others) == 0 {
		return nil, nil
	}
	return same, others
}

// termStats are the statistics of terms over what a reader under access
// may read, their document frequencies counting the documents in langs
// only when langs is set (fonte.LanguageTermStats).
func (e *Engine) termStats(ctx context.Context, v *view, terms []string, access fonte.Filter, langs []string) (fonte.TermStats, error) {
	if v.local != nil {
		return v.local.TermStatsIn(terms, access, langs), nil
	}
	if ls, ok := e.store.(fonte.LanguageTermStats); ok && langs != nil {
		return ls.TermStatsIn(ctx, terms, access, langs)
	}
	return e.store.TermStats(ctx, terms, access)
}

// addWrittenIn adds to df, for each key, the chunks of documents in lang
// (a language other than the question's) that hold one of the key's
// words as the question writes them (surface), as lang's analysis keys
// that word: "server" or "VPN" on an Italian page for an English
// question's. A passage of lang holds the key the same way (see
// coverage), and without them a word another language's pages use would
// be named as in no document. A word held under several forms counts its
// most frequent.
func (e *Engine) addWrittenIn(ctx context.Context, v *view, df []int, keys []string, surface map[string][]string, access fonte.Filter, lang string) error {
	an := e.an.Of(lang)
	var terms []string
	at := map[string]int{}
	forms := make([][][]string, len(keys)) // per key, per form: its terms in lang
	for i, k := range keys {
		for _, w := range surface[k] {
			ts := an.Analyze(w)
			if len(ts) == 0 {
				continue
			}
			for _, t := range ts {
				if _, ok := at[t]; !ok {
					at[t] = len(terms)
					terms = append(terms, t)
				}
			}
			forms[i] = append(forms[i], ts)
		}
	}
	if len(terms) == 0 {
		return nil
	}
	st, err := e.termStats(ctx, v, terms, access, []string{lang})
	if err != nil {
		return err
	}
	for i := range keys {
		best := 0
		for _, ts := range forms[i] {
			// A chunk holding the form holds each of its terms.
			n := st.DF[at[ts[0]]]
			for _, t := range ts[1:] {
				n = min(n, st.DF[at[t]])
			}
			best = max(best, n)
		}
		df[i] += best
	}
	return nil
}

// surfaceForms returns, by their key in an, the question's words as it
// writes them, lower-cased: each whitespace-separated word without the
// punctuation around it, and its runs of letters and digits ("l'iguana",
// "l", "iguana"; "e-mail", "e", "mail").
func surfaceForms(an analysis.Analyzer, query string) map[string][]string {
	out := map[string][]string{}
	for _, w := range surfaceWords(query) {
		for _, k := range an.Analyze(w) {
			if !slices.Contains(out[k], w) {
				out[k] = append(out[k], w)
			}
		}
	}
	return out
}

// surfaceWords returns text's words as surfaceForms cuts them.
func surfaceWords(text string) []string {
	var out []string
	for _, f := range strings.Fields(strings.ToLower(text)) {
		f = strings.TrimFunc(f, func(r rune) bool { return !isWordRune(r) })
		if f == "" {
			continue
		}
		out = append(out, f)
		if parts := wordsOf(f); len(parts) > 1 {
			out = append(out, parts...)
		}
	}
	return out
}
