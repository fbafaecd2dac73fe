package engine

import (
	"slices"
	"strings"
	"unicode"

	"github.com/fonte-rag/fonte/analysis"
)

// compound is a word of a question joined by '-', '.' or '/' ("8-year",
// "test-install", "e-mail"), which the analyser keys whole beside its
// parts, as its words: the passage that answers may write it apart ("an
// 8 year appointment", "to test install") or run together ("email"),
// and then holds its parts but not its key, which the corpus may lack
// and so weighs most.
type compound struct{ words []string }

// questionCompounds returns the question's compounds by their key in an.
func questionCompounds(an analysis.Analyzer, query string) map[string]compound {
	out := map[string]compound{}
	for _, tok := range strings.Fields(query) {
		tok = strings.TrimFunc(tok, func(r rune) bool { return !isWordRune(r) })
		if !strings.ContainsAny(tok, "-./") {
			continue
		}
		keys := an.Analyze(tok)
		if len(keys) == 0 || !strings.ContainsAny(keys[0], "-./") {
			continue // the compound itself is no key
		}
		if words := wordsOf(tok); len(words) > 1 {
			out[keys[0]] = compound{words: words}
		}
	}
	return out
}

// in reports whether text writes the compound's words in order, apart
// or run together, starting at a word: the last may go on with letters
// ("test installing"), a figure may not go on with digits ("8 years",
// not "80 years"). Figures are not read run together: "2.5" is not "25".
func (c compound) in(text string) bool {
	words := wordsOf(text)
	joined := ""
	if !slices.ContainsFunc(c.words, func(w string) bool { return strings.IndexFunc(w, unicode.IsLetter) < 0 }) {
		joined = strings.Join(c.words, "")
	}
	for i := range words {
		if joined != "" && prefixAt(words[i], joined) {
			return true
		}
		j := 0
		for j < len(c.words) && i+j < len(words) {
			w, want := words[i+j], c.words[j]
			if j < len(c.words)-1 && w != want || j == len(c.words)-1 && !prefixAt(w, want) {
				break
			}
			j++
		}
		if j == len(c.words) {
			return true
		}
	}
	return false
}

// prefixAt reports whether word is want, or want followed by letters
// when want ends in one.
func prefixAt(word, want string) bool {
	if !strings.HasPrefix(word, want) {
		return false
	}
	if len(word) == len(want) {
		return true
	}
	last := []rune(want)[len([]rune(want))-1]
	return unicode.IsLetter(last) && !unicode.IsDigit([]rune(word[len(want):])[0])
}

// wordsOf returns the lower-cased runs of letters and digits of s.
func wordsOf(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !isWordRune(r) })
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
