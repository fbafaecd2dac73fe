package analysis

import (
	"unicode"
	"unicode/utf8"
)

// asciiWord marks the ASCII bytes Python's \w matches: letters, digits, '_'.
var asciiWord = func() (t [utf8.RuneSelf]bool) {
	for c := 0; c < utf8.RuneSelf; c++ {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
	}
	return t
}()

// isWord reports whether r is matched by Python's Unicode \w: a letter (Lu
// Ll Lt Lm Lo), a number (Nd Nl No) or '_'. Combining marks are not word
// characters, so a decomposed "a" + U+0300 ends a word after the "a". Go's
// tables are Unicode 15 and Python 3.11's are 14: they differ only on
// characters added in 15.
func isWord(r rune) bool {
	if r < utf8.RuneSelf {
		return asciiWord[r]
	}
	return unicode.IsLetter(r) || unicode.IsNumber(r)
}

// wordAt reports whether a word character starts at text[i].
func wordAt(text string, i int) bool {
	if c := text[i]; c < utf8.RuneSelf {
		return asciiWord[c]
	}
	r, _ := utf8.DecodeRuneInString(text[i:])
	return isWord(r)
}

// wordRun finds the first maximal run of word characters at or after byte i
// and returns its byte span and its length in code points. start is
// len(text) when there is no further run. Invalid UTF-8 is never a word.
func wordRun(text string, i int) (start, end, runes int) {
	for i < len(text) {
		c := text[i]
		if c < utf8.RuneSelf {
			if asciiWord[c] {
				break
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if isWord(r) {
			break
		}
		i += size
	}
	start = i
	for i < len(text) {
		c := text[i]
		if c < utf8.RuneSelf {
			if !asciiWord[c] {
				break
			}
			i++
			runes++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if !isWord(r) {
			break
		}
		i += size
		runes++
	}
	return start, i, runes
}

// WordTokenizer is scikit-learn's default token pattern (?u)\b\w\w+\b: the
// tokens are the maximal runs of word characters (see isWord) that are at
// least two code points long. Apostrophes and hyphens split words
// ("dell'invio" gives "dell", "invio") and one-letter words are dropped.
// The tokens are substrings of the text; lower-case it first (Chain does)
// to get scikit-learn's tokens.
type WordTokenizer struct{}

// Tokenize returns the words of text in order.
func (WordTokenizer) Tokenize(text string) []string {
	tokens := make([]string, 0, len(text)/6+1) // prose averages a token per 6 bytes
	for i := 0; i < len(text); {
		start, end, runes := wordRun(text, i)
		if runes >= 2 {
			tokens = append(tokens, text[start:end])
		}
		i = end
	}
	return tokens
}

// ASCIITokenizer is the pattern [a-z0-9]+ of seeds 001 and 002: maximal
// runs of ASCII lower-case letters and digits, any length. Everything else,
// upper-case letters and all non-ASCII text included, separates tokens, so
// apply it to lower-cased text.
type ASCIITokenizer struct{}

// Tokenize returns the runs of [a-z0-9] in text.
func (ASCIITokenizer) Tokenize(text string) []string {
	tokens := make([]string, 0, len(text)/5+1)
	start := -1
	for i := 0; i < len(text); i++ {
		c := text[i]
		if 'a' <= c && c <= 'z' || '0' <= c && c <= '9' {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			tokens = append(tokens, text[start:i])
			start = -1
		}
	}
	if start >= 0 {
		tokens = append(tokens, text[start:])
	}
	return tokens
}

// IdentifierTokenizer keeps identifiers such as "SOP-014", "ERR-4012",
// "v2.3.1" or "e-mail" whole, for product search where people type codes.
// It emits what WordTokenizer emits, and before the parts of a compound it
// also emits the compound itself: word runs joined by single '-', '.' or
// '/' characters with a word character on both sides ("sop-014", "sop",
// "014"). A joiner followed by a space or the end, like a full stop, joins
// nothing; parts shorter than two code points are dropped as WordTokenizer
// drops them, but the compound is always kept ("v2.3.1", "v2").
type IdentifierTokenizer struct{}

func isJoiner(c byte) bool { return c == '-' || c == '.' || c == '/' }

// Tokenize returns the compounds and words of text in order.
func (IdentifierTokenizer) Tokenize(text string) []string {
	tokens := make([]string, 0, len(text)/6+1)
	for i := 0; i < len(text); {
		start, end, runes := wordRun(text, i)
		if start == len(text) {
			break
		}
		stop := end
		for stop+1 < len(text) && isJoiner(text[stop]) && wordAt(text, stop+1) {
			_, stop, _ = wordRun(text, stop+1)
		}
		if stop == end {
			if runes >= 2 {
				tokens = append(tokens, text[start:end])
			}
			i = end
			continue
		}
		tokens = append(tokens, text[start:stop])
		for j := start; j < stop; {
			s, e, n := wordRun(text, j)
			if n >= 2 {
				tokens = append(tokens, text[s:e])
			}
			j = e
		}
		i = stop
	}
	return tokens
}
