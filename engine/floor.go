package engine

import (
	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/analysis"
)

// QuestionLanguage is the language of a question: a script or a language
// other than English and Italian as analysis.DetectLanguage finds it in
// documents, else English or Italian by analysis.QuestionLanguage, which
// decides on a question of a few words as well; "" when neither finds any
// evidence (a question of codes and figures).
func QuestionLanguage(q string) string {
	doc := analysis.DetectLanguage(q)
	if doc != "" && doc != "en" && doc != "it" {
		return doc
	}
	if l := analysis.QuestionLanguage(q); l != "" {
		return l
	}
	return doc
}

// searchLanguage is the language a query is analysed in for retrieval:
// as QuestionLanguage, but English or Italian only on decisive evidence
// (analysis.DecisiveLanguage); a guess from spelling alone gives "", so a
// keyword search is analysed in every language of the corpus rather
// than stemmed by a guess.
func searchLanguage(q string) string {
	doc := analysis.DetectLanguage(q)
	if doc != "" && doc != "en" && doc != "it" {
		return doc
	}
	if l := analysis.DecisiveLanguage(q); l != "" {
		return l
	}
	return doc
}

// floorLanguage is the language whose floor judges a question: the
// question's own when there is evidence of it, else the language of the
// document whose passage matched it best (relevance is computed in the
// matched chunk's language, so its scale is that language's).
func floorLanguage(query string, hits []fonte.Hit, docs map[string]fonte.Document) string {
	if l := QuestionLanguage(query); l != "" {
		return l
	}
	best, lang := -1.0, ""
	for _, h := range hits {
		if h.Relevance > best {
			best, lang = h.Relevance, docs[h.Chunk.DocID].Language
		}
	}
	return lang
}

// floorFor is the abstain floor of language lang: its own from
// Settings.Floors when set there, else Settings.Floor; never negative.
func (e *Engine) floorFor(lang string) float64 {
	f := e.settings.Floor
	if lf, ok := e.settings.Floors[lang]; ok && lf != 0 {
		f = lf
	}
	return max(f, 0)
}
