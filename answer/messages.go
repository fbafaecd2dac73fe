package answer

import (
	"fmt"
	"strings"

	"github.com/fonte-rag/fonte"
)

// Messages are what fonte says to a reader around an answer, in one
// language: the question's, so that an Italian question is told in
// Italian that the documents do not answer it.
type Messages struct {
	// Lang is the language of the messages, "en" or "it".
	Lang string
	// DontKnow is the abstention itself (DontKnow in English).
	DontKnow string
	// NotAnswered says that the documents do not answer; it takes the
	// best relevance (%.2f).
	NotAnswered string
	// Nearest heads the nearest passages of an abstention, Sources the
	// sources of an answer.
	Nearest, Sources string
	// Unknown says which words of the question no document uses; it
	// takes them, quoted and joined (UnknownWordsNotice).
	Unknown string
	// open and close quote a word; or joins the last two of a list.
	open, close, or string
}

var messages = map[string]Messages{
	"en": {Lang: "en", DontKnow: DontKnow, NotAnswered: "The documents do not seem to answer this (best relevance %.2f).",
		Nearest: "Nearest sources:", Sources: "Sources:",
		Unknown: "No document uses %s; if the documents say it in other words, ask in theirs.",
		open:    "“", close: "”", or: "or"},
	"it": {Lang: "it", DontKnow: "Non lo so.", NotAnswered: "I documenti non sembrano rispondere a questa domanda (pertinenza massima %.2f).",
		Nearest: "Fonti più vicine:", Sources: "Fonti:",
		Unknown: "Nessun documento usa %s; se i documenti lo dicono con altre parole, chiedi con le loro.",
		open:    "«", close: "»", or: "o"},
}

// MessagesFor returns the messages in language lang: Italian for "it",
// English for any other (fonte speaks these two).
func MessagesFor(lang string) Messages {
	if m, ok := messages[lang]; ok {
		return m
	}
	return messages["en"]
}

// languageNames name, in each of fonte's two languages, the languages
// analysis.DetectLanguage tells documents apart by.
var languageNames = map[string]map[string]string{
	"en": {"en": "English", "it": "Italian", "de": "German", "fr": "French", "es": "Spanish", "pt": "Portuguese",
		"nl": "Dutch", "el": "Greek", "zh": "Chinese", "ja": "Japanese", "ko": "Korean", "th": "Thai", "und": "a language it cannot tell"},
	"it": {"en": "inglese", "it": "italiano", "de": "tedesco", "fr": "francese", "es": "spagnolo", "pt": "portoghese",
		"nl": "olandese", "el": "greco", "zh": "cinese", "ja": "giapponese", "ko": "coreano", "th": "thailandese", "und": "una lingua che non riconosco"},
}

// languageName is language l named in language in, or l itself.
func languageName(l, in string) string {
	if n, ok := languageNames[MessagesFor(in).Lang][l]; ok {
		return n
	}
	return l
}

// NoDocumentsNotice says, in the question's language q, that the
// index holds no document to answer from, so that an abstention on
// an empty collection is not read as the documents' silence; restricted
// says it for a reader limited by access labels, of the documents it may
// read, and is worded the same whether others exist or not.
func NoDocumentsNotice(q string, restricted bool) string {
	it := MessagesFor(q).Lang == "it"
	switch {
	case restricted && it:
		return "Non c'è alcun documento indicizzato che tu possa leggere."
	case restricted:
		return "There is no indexed document you may read."
	case it:
		return "Non è ancora stato indicizzato alcun documento: indicizzane o caricane qualcuno, poi chiedi di nuovo."
	}
	return "No document has been indexed yet: index or upload some, then ask again."
}

// CrossLanguageNotice says, in the question's language q, that nothing
// was found in it and that the passages found are in language found.
func CrossLanguageNotice(q, found string) string {
	if MessagesFor(q).Lang == "it" {
		return fmt.Sprintf("Non ho trovato nulla in %s: i passaggi trovati sono in %s.", languageName(q, q), languageName(found, q))
	}
	return fmt.Sprintf("Nothing was found in %s: the passages found are in %s.", languageName(q, q), languageName(found, q))
}

// NoMatchNotice says, in the question's language q, that nothing was
// found in it and that no passage of the documents, which are in the
// languages docs, shares a word with the question: what a reader needs
// to know to ask again in the documents' language.
func NoMatchNotice(q string, docs []string) string {
	names := make([]string, len(docs))
	for i, l := range docs {
		names[i] = languageName(l, q)
	}
	if MessagesFor(q).Lang == "it" {
		return fmt.Sprintf("Non ho trovato nulla in %s: i documenti sono in %s, e nessun passaggio ha parole in comune con la domanda.",
			languageName(q, q), joinNames(names, "e"))
	}
	return fmt.Sprintf("Nothing was found in %s: the documents are in %s, and no passage shares a word with the question.",
		languageName(q, q), joinNames(names, "and"))
}

// UnknownWordsNotice says, in the question's language q, that no
// document uses words (the question's own, as Coverage.Unknown lists
// them): a question asked in other words than the documents' is refused
// by the coverage check as one off their subject is, and the reader who
// knows the documents' word for it can ask again.
func UnknownWordsNotice(q string, words []string) string {
	if len(words) == 0 {
		return ""
	}
	m := MessagesFor(q)
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = m.open + w + m.close
	}
	return fmt.Sprintf(m.Unknown, joinNames(quoted, m.or))
}

// joinNames lists names as a sentence does: "a", "a and b", "a, b and c".
func joinNames(names []string, and string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " " + and + " " + names[len(names)-1]
}

// crossLanguage returns the language of the passages found when the
// question's language lang is English or Italian and none of them is in
// it; "" when one is, when a passage's language is not known, or without
// hits. The passages looked at are those holding at least MinHeld of the
// question's weight (what an answer may be drawn from: see Coverage), or
// every hit when none does or without coverage, so that in a corpus of
// both languages a weak match in the question's language, ranked ninth
// for a shared word, does not hide that what answers is in the other.
func crossLanguage(lang string, hits []fonte.Hit, docs map[string]fonte.Document, c *Coverage) string {
	if _, ok := messages[lang]; !ok || len(hits) == 0 {
		return ""
	}
	looked := hits
	if c != nil {
		var covered []fonte.Hit
		for _, h := range hits {
			if c.holds(h.Chunk.ID) {
				covered = append(covered, h)
			}
		}
		if len(covered) > 0 {
			looked = covered
		}
	}
	found := ""
	for _, h := range looked {
		l := docs[h.Chunk.DocID].Language
		if l == "" || l == lang {
			return ""
		}
		if found == "" {
			found = l
		}
	}
	return found
}

// UnnamedCaseNotice says, in the question's language q, that the
// passages holding the question's words never name the case it names
// (name, "Denver", "README"): the reason of an abstention that the best
// relevance, over the floor, would not explain.
func UnnamedCaseNotice(q, name string) string {
	m := MessagesFor(q)
	if m.Lang == "it" {
		return fmt.Sprintf("Nessuno dei passaggi trovati nomina %s%s%s, che la domanda nomina.", m.open, name, m.close)
	}
	return fmt.Sprintf("None of the passages found names %s%s%s, which the question names.", m.open, name, m.close)
}

// UnstatedKindNotice says, in the question's language q, that the
// passages about the question's subject state no figure of the kind it
// asks for (a duration, an amount, a time of day…), the reason of an
// abstention by the kind check.
func UnstatedKindNotice(q string) string {
	if MessagesFor(q).Lang == "it" {
		return "I passaggi trovati parlano dell'argomento ma non indicano un valore del tipo richiesto dalla domanda."
	}
	return "The passages found are about the subject but state no figure of the kind the question asks for."
}
