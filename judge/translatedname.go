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

// cognateShapes rewrite the spellings English and Italian cognates
// differ by before their starts are compared: "direct" and "diretto",
// "phase" and "fase", "theory" and "teoria", "system" and "sistema",
// "expert" and "esperto".
var cognateShapes = strings.NewReplacer("ct", "tt", "ph", "f", "th", "t", "y", "i", "ex", "es", "x", "ss")

// cognateWords reports whether two words of the two languages share
// their start once their spellings are made alike: cognatePrefix
// letters the same, both minCognateRunes letters long or more, lengths
// within four of each other ("indirect" and "indiretti", "original" and
// "originale").
func cognateWords(a, b string) bool {
	fa, fb := cognateShapes.Replace(fold(a)), cognateShapes.Replace(fold(b))
	ra, rb := []rune(fa), []rune(fb)
	if len(ra) < minCognateRunes || len(rb) < minCognateRunes || !isLetters(fa) || !isLetters(fb) {
		return false
	}
	n := len(ra) - len(rb)
	return n >= -4 && n <= 4 && string(ra[:cognatePrefix]) == string(rb[:cognatePrefix])
}

// statesCognates adds to the stems of an answer in the other language
// the stems of the reference's content words it writes by a cognate,
// so that "both direct and indirect costs" keeps the words of "sia i
// costi diretti che quelli indiretti", as README's rule 11 judges an
// answer by meaning.
func (a answerText) statesCognates(reference, answer string) {
	if !otherLanguage(reference, answer) {
		return
	}
	words := letterWords(withoutCitations(answer))
	for _, r := range letterWords(reference) {
		fr := fold(dropElision(r))
		if stopwords[fr] || a.stems[stem(fr)] {
			continue
		}
		for _, w := range words {
			if !stopwords[fold(w)] && cognateWords(fr, dropElision(w)) {
				a.stems[stem(fr)] = true
				break
			}
		}
	}
}
