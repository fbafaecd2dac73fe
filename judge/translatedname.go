package judge

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// An answer in the other language writes a name that is a common noun
// in its own words ("Finanza" for Finance, "Legale" for Legal): the
// same name, as README's rule 11 judges by meaning.

// minCognateRunes is the fewest letters a name must have before a word
// sharing its start is taken for its translation; cognatePrefix is how
// many leading letters they share.
const (
	minCognateRunes = 5
	cognatePrefix   = 5
)

// otherLanguage reports whether an answer is written in the other
// language from the reference, by their function words; an answer
// without any says nothing either way.
func otherLanguage(reference, answer string) bool {
	aw := foldedWords(answer)
	marked := false
	for _, w := range aw {
		marked = marked || italianMarkers[w] || englishMarkers[w]
	}
	return marked && looksItalian(aw) != looksItalian(foldedWords(reference))
}

// cognate reports whether two capitalised words of letters are one
// name in two languages: the first cognatePrefix letters the same, the
// lengths within three of each other.
func cognate(a, b string) bool {
	fa, fb := fold(a), fold(b)
	ra, rb := []rune(a), []rune(b)
	if fa == fb || len(ra) < minCognateRunes || len(rb) < minCognateRunes || !unicode.IsUpper(ra[0]) || !unicode.IsUpper(rb[0]) || !isLetters(fa) || !isLetters(fb) {
		return false
	}
	n := utf8.RuneCountInString(fa) - utf8.RuneCountInString(fb)
	return n >= -3 && n <= 3 && strings.HasPrefix(fa, string([]rune(fb)[:cognatePrefix])) && strings.HasPrefix(fb, string([]rune(fa)[:cognatePrefix]))
}

// translatedName reports whether an answer in the other language
// writes name by a cognate word.
func translatedName(name, reference, answer string) bool {
	if !otherLanguage(reference, answer) {
		return false
	}
	for _, w := range letterWords(answer) {
		if cognate(name, w) {
			return true
		}
	}
	return false
}

// translatesAName reports whether word g of an answer in the other
// language is the translation of one of the reference's names.
func translatesAName(g fact, ref reference, reference, answer string) bool {
	if g.kind != nameFact || !otherLanguage(reference, answer) {
		return false
	}
	for _, f := range append(ref.facts, ref.asides...) {
		if f.kind == nameFact && cognate(f.text, g.text) {
			return true
		}
	}
	return false
}
