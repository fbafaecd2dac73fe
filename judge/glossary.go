package judge

import (
	"regexp"
	"strings"
)

// definitionQuestionRE matches a question that asks what a term means
// or who a role is, and captures the term's first word: "What is a
// sponsor?", "Who are the maintainers?", "Chi è lo sponsor nel progetto
// Debian?", "Cos'è un manutentore?", "Che cosa sono i metadati?".
var definitionQuestionRE = regexp.MustCompile(`(?i)^\W*(?:(?:who|what)\s+(?:is|are|'s)\s+(?:an?\s+|the\s+)?|(?:chi\s+|che\s+cos['’]\s*|che\s+cosa\s+|cos['’]\s*|cosa\s+)(?:è|é|e'|sono)\s+(?:(?:il|lo|la|i|gli|le|un|uno|una)\s+|l['’]|un['’])?)(\p{L}[\p{L}-]*)`)

// glossaryEntryRE matches a list item that defines a term: its head, of
// a few words with their parentheses, then a colon ("sviluppatore
// Debian (Debian Developer) (DD): membro …").
var glossaryEntryRE = regexp.MustCompile(`^\s*([^:.;]{1,80}):\s+\S`)

// minGlossaryEntries is how many entries make a quoted passage a
// glossary.
const minGlossaryEntries = 2

// definesOtherTerms reports whether the answer to a question that asks
// what a term means is a glossary of other terms: list items each
// defining a head, none of which, nor any other word of the answer,
// names the term asked. It talks about something else, whatever words
// of the reference its definitions share.
func definesOtherTerms(question, answer string) bool {
	m := definitionQuestionRE.FindStringSubmatch(question)
	if m == nil {
		return false
	}
	term := stem(fold(m[1]))
	if len(term) < 3 || stopwords[fold(m[1])] {
		return false
	}
	for _, st := range contentStems(withoutCitations(answer)) {
		if st == term {
			return false
		}
	}
	entries := 0
	for _, item := range strings.Split(withoutCitations(answer), "\n") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		rest := strings.TrimLeft(item, "-•* ")
		if rest == item || !glossaryEntryRE.MatchString(rest) {
			return false // a line that is no list entry: prose, not a glossary
		}
		entries++
	}
	return entries >= minGlossaryEntries
}
