package answer

import (
	"strings"
	"unicode"
)

// An acronym and the words it stands for are the same words to a reader:
// "Which web application firewall does GOV.UK Pay run?" is answered by
// "GOV.UK Pay uses a NAXSI WAF", and "What is the RTO?" by a sentence on
// the "recovery time objective". The offline answerer counts a sentence
// that writes one as holding the question's other.

// minAcronym and maxAcronym bound the letters of an acronym read: two
// letters ("PA", "IT") are too often another word's initials.
const minAcronym, maxAcronym = 3, 5

// acronymWords maps each acronym that a run of the question's words
// spells ("web application firewall" spells "WAF") to the content keys
// of those words, and each acronym the question writes ("WAF") to its own
// key, so that a sentence spelling it out holds it.
type acronymWords struct {
	spelled map[string]map[string]bool // acronym -> keys of the question's words that spell it
	written map[string]map[string]bool // acronym the question writes -> its keys
}

// acronymsOf reads the acronyms of question.
func acronymsOf(question string) acronymWords {
	a := acronymWords{spelled: map[string]map[string]bool{}, written: map[string]map[string]bool{}}
	words := wordsOf(question)
	for i := range words {
		if acronym(words[i]) {
			a.written[words[i]] = ContentKeys(words[i])
		}
		for n := minAcronym; n <= maxAcronym && i+n <= len(words); n++ {
			if ac, ok := initials(words[i : i+n]); ok {
				a.spelled[ac] = ContentKeys(strings.Join(words[i:i+n], " "))
			}
		}
	}
	return a
}

// with adds to keys, the content keys of sentence s, those of the
// question's words that an acronym of s stands for, and the key of an
// acronym of the question that s spells out.
func (a acronymWords) with(keys map[string]bool, s string) map[string]bool {
	if len(a.spelled) == 0 && len(a.written) == 0 {
		return keys
	}
	words := wordsOf(s)
	for i, w := range words {
		if k, ok := a.spelled[w]; ok && acronym(w) {
			for x := range k {
				keys[x] = true
			}
		}
		for n := minAcronym; n <= maxAcronym && i+n <= len(words); n++ {
			if ac, ok := initials(words[i : i+n]); ok {
				for x := range a.written[ac] {
					keys[x] = true
				}
			}
		}
	}
	return keys
}

// wordsOf returns the runs of letters and digits of s.
func wordsOf(s string) []string { return pieces(s, wordSpans(s)) }

// acronym reports whether w is written as an acronym: minAcronym to
// maxAcronym capital letters.
func acronym(w string) bool {
	if len(w) < minAcronym || len(w) > maxAcronym {
		return false
	}
	for _, r := range w {
		if r < 'A' || r > 'Z' {
			return false
		}
	}
	return true
}

// initials returns the capitals of the first letters of ws, when each
// word is a content word (an article or a preposition spells nothing)
// that starts with a letter.
func initials(ws []string) (string, bool) {
	var b strings.Builder
	for _, w := range ws {
		r := []rune(w)[0]
		if !unicode.IsLetter(r) || r > unicode.MaxASCII || len(ContentKeys(w)) == 0 {
			return "", false
		}
		b.WriteRune(unicode.ToUpper(r))
	}
	return b.String(), true
}
