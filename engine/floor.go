package engine

import (
	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/ingest"
)

// floorLanguage is the language whose floor judges a question: the
// question's own when it is long enough to tell, else the language of the
// document whose passage matched it best (relevance is computed in the
// matched chunk's language, so its scale is that language's).
func floorLanguage(query string, hits []fonte.Hit, docs map[string]fonte.Document) string {
	if l := ingest.DetectLanguage(query); l != "" {
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
