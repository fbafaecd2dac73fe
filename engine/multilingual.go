package engine

import (
	"slices"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/answer"
)

// Questions over documents in another language.
//
// A question is analysed for retrieval in its own language, but a
// language no document the reader may read is written in has no stems to
// match: an English question detected as Italian over English handbooks,
// stemmed as Italian, misses passages that share its words (on the dev
// questions of the one-language sets, 19 of 24 English questions of the
// 18F handbook find a gold passage in the first ten hits analysed as
// Italian, 21 as English; 2 of 15 of the Italian rulebook's analysed as
// English, 14 as Italian: TestMisdetectedLanguageStillFinds). The engine therefore
// analyses a query in the languages of the documents the reader may read
// whenever none of them gets the analysis of the query's language (see
// analysisLanguage), and when the question's language has no document at
// all, an abstention says so in that language (see nothingFoundNotice).

// readableLanguages returns the languages of the documents a reader under
// f may read, sorted ("" for a document whose language was not told);
// only access counts, not prefixes or tags, as when retrieval analyses a
// query in every language of the corpus. The store's search answers: the
// embedded index from its languages or the access classes' a restricted
// search builds once, never from its document list.
func (v *view) readableLanguages(f fonte.Filter) []string {
	access := fonte.Filter{Restricted: f.Restricted, Labels: f.Labels}
	switch {
	case v.local != nil:
		return v.local.Languages(access)
	case v.remote != nil:
		return v.remote.Languages(access)
	}
	return nil
}

// analysisLanguage is the language a query in language lang is analysed
// in over documents in langs (the reader's, see readableLanguages): lang
// itself when a document gets the same analysis (or when nothing is
// known of the documents), the documents' only language when they have
// one, else "" (every language of the corpus): never an analysis no
// document has, whose stems match nothing.
func (e *Engine) analysisLanguage(lang string, langs []string) string {
	if lang == "" || len(langs) == 0 || e.hasAnalysis(lang, langs) {
		return lang
	}
	if len(langs) == 1 {
		return langs[0]
	}
	return ""
}

// hasAnalysis reports whether some language of langs gets lang's lexical
// analysis (German and French share the neutral one; a document whose
// language was not told gets English's).
func (e *Engine) hasAnalysis(lang string, langs []string) bool {
	want := e.an.Analysis(lang)
	return slices.ContainsFunc(langs, func(l string) bool { return e.an.Analysis(l) == want })
}

// otherLanguages returns langs without those that get lang's analysis and
// without "" (documents whose language was not told name none).
func (e *Engine) otherLanguages(lang string, langs []string) []string {
	var out []string
	for _, l := range langs {
		if l != "" && !e.hasAnalysis(lang, []string{l}) {
			out = append(out, l)
		}
	}
	return out
}

// nothingFoundNotice is the notice of a question in language lang that
// found nothing over documents in langs: that there is nothing in its
// language and in which language the documents are, in the question's
// language; "" when a document is in it, when fonte has no messages in
// it, or when no document's language is known.
func (e *Engine) nothingFoundNotice(lang string, langs []string) string {
	if answer.MessagesFor(lang).Lang != lang || e.hasAnalysis(lang, langs) {
		return ""
	}
	others := e.otherLanguages(lang, langs)
	if len(others) == 0 {
		return ""
	}
	return answer.NoMatchNotice(lang, others)
}

// answerLanguage is the language fonte speaks to the asker in (the
// abstention, its notes and notices): the question's own when its words
// hold any evidence of one (QuestionLanguage); for a question that holds
// none ("Ferie?", a word whose spelling is as Italian as it is English),
// the language of the document whose passage matched it best, as the
// floor does (floorLanguage); with no passage found, the language of the
// documents the reader may read when they are all in one; else "".
func answerLanguage(query string, hits []fonte.Hit, docs map[string]fonte.Document, langs []string) string {
	if l := floorLanguage(query, hits, docs); l != "" {
		return l
	}
	if known := slices.DeleteFunc(slices.Clone(langs), func(l string) bool { return l == "" }); len(known) == 1 {
		return known[0]
	}
	return ""
}
