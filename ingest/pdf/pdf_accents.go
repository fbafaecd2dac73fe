package pdf

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// TeX's old OT1 encoding has no accented letters: "sarà" is drawn as a
// grave accent glyph and an "a", and comes out of any PDF reader as
// "sar`a" (or "perch´e", "cos`ı"). The accent is put back on its letter
// here, so the word is found as it is spelt.

// spacingAccents maps the spacing accents OT1 fonts draw to the combining
// marks they stand for.
var spacingAccents = map[rune]rune{
	'`':      '\u0300', // grave
	'\u02CB': '\u0300',
	'\u00B4': '\u0301', // acute
	'\u02CA': '\u0301',
	'\u02C6': '\u0302', // circumflex
	'^':      '\u0302',
	'\u02DC': '\u0303', // tilde
	'\u00A8': '\u0308', // diaeresis
	'\u02DA': '\u030A', // ring
	'\u02C7': '\u030C', // caron
	'\u02D8': '\u0306', // breve
	'\u00B8': '\u0327', // cedilla
}

// joinAccents puts spacing accents back on the letter that follows them
// (or precedes them, for a cedilla drawn after its letter) where the two
// make one precomposed letter:
// "pu`o" → "può", "perch´e" → "perché", "cos`ı" → "così". The ASCII
// grave and circumflex, which are also code, are joined only to a vowel
// that ends a word, as in Italian.
func joinAccents(s string) string {
	if !strings.ContainsAny(s, "`^\u02CB\u00B4\u02CA\u02C6\u02DC\u00A8\u02DA\u02C7\u02D8\u00B8") {
		return s
	}
	rs := []rune(s)
	var b strings.Builder
	for i := 0; i < len(rs); i++ {
		mark, ok := spacingAccents[rs[i]]
		if !ok {
			b.WriteRune(rs[i])
			continue
		}
		if rs[i] == '\u00B8' && (i+1 >= len(rs) || !composes(rs[i+1], mark)) {
			// A cedilla drawn after its letter.
			if c, ok := compose(lastRune(&b), mark); ok {
				trimLastRune(&b)
				b.WriteRune(c)
				continue
			}
		}
		if i+1 < len(rs) {
			next := rs[i+1]
			ascii := rs[i] == '`' || rs[i] == '^'
			wordEnd := i+2 >= len(rs) || !unicode.IsLetter(rs[i+2])
			if !ascii || (strings.ContainsRune("aeiouAEIOUı", next) && wordEnd) {
				if c, ok := compose(next, mark); ok {
					b.WriteRune(c)
					i++
					continue
				}
			}
		}
		b.WriteRune(rs[i])
	}
	return b.String()
}

func composes(base, mark rune) bool {
	_, ok := compose(base, mark)
	return ok
}

// compose returns the one precomposed letter of base and a combining
// mark; a dotless i takes the accent as an i.
func compose(base, mark rune) (rune, bool) {
	if !unicode.IsLetter(base) {
		return 0, false
	}
	if base == 'ı' {
		base = 'i'
	}
	c := norm.NFC.String(string([]rune{base, mark}))
	r, n := utf8.DecodeRuneInString(c)
	return r, n == len(c)
}

func lastRune(b *strings.Builder) rune {
	r, _ := utf8.DecodeLastRuneInString(b.String())
	return r
}

func trimLastRune(b *strings.Builder) {
	s := b.String()
	_, n := utf8.DecodeLastRuneInString(s)
	b.Reset()
	b.WriteString(s[:len(s)-n])
}
