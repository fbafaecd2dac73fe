package analysis

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Lower lower-cases s exactly as Python's str.lower does, which is what
// scikit-learn applies before tokenizing. It differs from strings.ToLower in
// the two places where Python uses more than a one-rune mapping: "İ"
// (U+0130) becomes "i" followed by U+0307, and a capital sigma at the end of
// a word becomes the final form "ς". Invalid UTF-8 bytes are kept as they
// are. Text that is already lower-case ASCII is returned without copying.
func Lower(s string) string {
	upper := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return lowerUnicode(s)
		}
		if 'A' <= c && c <= 'Z' {
			upper = true
		}
	}
	if !upper {
		return s
	}
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func lowerUnicode(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		// Copy the run of bytes that need no change in one go.
		j := i
		for j < len(s) && s[j] < utf8.RuneSelf && (s[j] < 'A' || s[j] > 'Z') {
			j++
		}
		b.WriteString(s[i:j])
		if i = j; i == len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			b.WriteByte(c + 'a' - 'A')
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteByte(c)
		case r == 'İ':
			b.WriteString("i\u0307")
		case r == 'Σ':
			if finalSigma(s, i, i+size) {
				b.WriteRune('ς')
			} else {
				b.WriteRune('σ')
			}
		default:
			b.WriteRune(unicode.ToLower(r))
		}
		i += size
	}
	return b.String()
}

// finalSigma reports whether the capital sigma at s[start:end] is in the
// Unicode Final_Sigma context, the test CPython applies: a cased letter
// before it and none after it, skipping case-ignorable runes both ways.
func finalSigma(s string, start, end int) bool {
	before := false
	for i := start; i > 0; {
		r, size := utf8.DecodeLastRuneInString(s[:i])
		i -= size
		if !caseIgnorable(r) {
			before = cased(r)
			break
		}
	}
	if !before {
		return false
	}
	for i := end; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if !caseIgnorable(r) {
			return !cased(r)
		}
	}
	return true
}

// cased is the Unicode Cased property.
func cased(r rune) bool {
	return unicode.IsLower(r) || unicode.IsUpper(r) || unicode.IsTitle(r) ||
		unicode.Is(unicode.Other_Lowercase, r) || unicode.Is(unicode.Other_Uppercase, r)
}

// caseIgnorable is the Unicode Case_Ignorable property: marks, format
// characters, modifiers, and the word-break MidLetter, MidNumLet and
// Single_Quote characters (listed, as Go has no word-break tables).
func caseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', '\u00b7', '\u0387', '\u055f', '\u05f4', '\u2018', '\u2019',
		'\u2024', '\u2027', '\ufe13', '\ufe52', '\ufe55', '\uff07', '\uff0e', '\uff1a':
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}
