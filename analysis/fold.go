package analysis

import (
	"strings"
	"unicode/utf8"
)

// CharFilter rewrites a text before it is tokenized, as Lucene's
// CharFilter does: what it changes decides where tokens start and end.
// Implementations are stateless and safe for concurrent use.
type CharFilter interface {
	Map(text string) string
}

// CharFilterFunc adapts a function to the CharFilter interface.
type CharFilterFunc func(text string) string

// Map calls f(text).
func (f CharFilterFunc) Map(text string) string { return f(text) }

// Fold is the CharFilter of English analysis: it writes the letters and
// signs that English text borrows from other scripts the way a reader
// would type them, so that a query and a document written with and
// without them meet.
//
//   - Latin letters with diacritics (Latin-1 Supplement and Latin
//     Extended-A: "é", "ñ", "ł", "ő") lose them, ligatures and special
//     letters are spelled out ("æ" → "ae", "ß" → "ss", "ﬁ" → "fi"), and
//     combining diacritical marks (U+0300–U+036F, decomposed text) are
//     dropped: "naïve café" and "naive cafe" are the same words.
//   - Greek letters are written as their Latin names ("α" → "alpha",
//     "β" → "beta", micro sign "µ" → "mu"), as scientific English spells
//     them in words: "TNF-α" meets "TNF-alpha" and "Aβ42" is "abeta42".
//     A run of three or more Greek letters is a Greek word and is kept as
//     it is.
//   - The Unicode hyphens U+2010 and U+2011 become '-', so "IL‐6"
//     typeset with a typographic hyphen is the identifier "il-6" (see
//     IdentifierTokenizer). Dashes and the minus sign are left alone.
//
// Text with none of these runes is returned as it is, without copying.
// Invalid UTF-8 is kept byte for byte. Fold is for English (and for text
// of unknown language, which English analysis serves): Italian analysis
// keeps its accents, which its stop list and stemmer expect.
type Fold struct{}

// Map folds text.
func (Fold) Map(text string) string {
	i := 0
	for i < len(text) {
		c := text[i]
		if c < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if _, ok := foldRune(r); ok {
			break
		}
		i += size
	}
	if i == len(text) {
		return text
	}
	var b strings.Builder
	b.Grow(len(text) + 16)
	b.WriteString(text[:i])
	for i < len(text) {
		// Copy the run of ASCII bytes in one go.
		j := i
		for j < len(text) && text[j] < utf8.RuneSelf {
			j++
		}
		b.WriteString(text[i:j])
		if i = j; i == len(text) {
			break
		}
		c := text[i]
		r, size := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteByte(c)
			i++
			continue
		}
		if isGreek(r) {
			// A Greek word stays Greek; one or two letters are symbols.
			end, n := i, 0
			for end < len(text) {
				g, gs := utf8.DecodeRuneInString(text[end:])
				if !isGreek(g) {
					break
				}
				end += gs
				n++
			}
			if n >= 3 {
				b.WriteString(text[i:end])
				i = end
				continue
			}
		}
		if s, ok := foldRune(r); ok {
			b.WriteString(s)
		} else {
			b.WriteString(text[i : i+size])
		}
		i += size
	}
	return b.String()
}

// foldRune returns what Fold writes for r, and whether it changes it.
func foldRune(r rune) (string, bool) {
	switch {
	case r >= 0xc0 && r <= 0x17f:
		s := latinFold[r-0xc0]
		return s, s != ""
	case r >= 0x300 && r <= 0x36f:
		return "", true // combining diacritical mark
	case r == 0x2010 || r == 0x2011:
		return "-", true
	case r >= 0xfb00 && r <= 0xfb06:
		return ligatures[r-0xfb00], true
	case r == 0xb5:
		return "mu", true
	}
	if isGreek(r) {
		return greekName(r), true
	}
	return "", false
}

// latinFold maps U+00C0–U+017F to ASCII, "" where the rune is not a
// letter with a diacritic (× and ÷).
var latinFold = func() (t [0x180 - 0xc0]string) {
	for to, from := range map[string]string{
		"A": "ÀÁÂÃÄÅĀĂĄ", "AE": "Æ", "C": "ÇĆĈĊČ", "E": "ÈÉÊËĒĔĖĘĚ", "I": "ÌÍÎÏĨĪĬĮİ",
		"D": "ÐĎĐ", "N": "ÑŃŅŇŊ", "O": "ÒÓÔÕÖØŌŎŐ", "U": "ÙÚÛÜŨŪŬŮŰŲ", "Y": "ÝŶŸ",
		"TH": "Þ", "ss": "ß", "a": "àáâãäåāăą", "ae": "æ", "c": "çćĉċč", "e": "èéêëēĕėęě",
		"i": "ìíîïĩīĭįı", "d": "ðďđ", "n": "ñńņňŉŋ", "o": "òóôõöøōŏő", "u": "ùúûüũūŭůűų",
		"y": "ýÿŷ", "th": "þ", "G": "ĜĞĠĢ", "g": "ĝğġģ", "H": "ĤĦ", "h": "ĥħ", "IJ": "Ĳ",
		"ij": "ĳ", "J": "Ĵ", "j": "ĵ", "K": "Ķ", "k": "ķĸ", "L": "ĹĻĽĿŁ", "l": "ĺļľŀł",
		"OE": "Œ", "oe": "œ", "R": "ŔŖŘ", "r": "ŕŗř", "S": "ŚŜŞŠ", "s": "śŝşšſ",
		"T": "ŢŤŦ", "t": "ţťŧ", "W": "Ŵ", "w": "ŵ", "Z": "ŹŻŽ", "z": "źżž",
	} {
		for _, r := range from {
			t[r-0xc0] = to
		}
	}
	return t
}()

var ligatures = [...]string{"ff", "fi", "fl", "ffi", "ffl", "st", "st"}

// isGreek reports whether r is a Greek letter Fold names: the basic
// capitals and small letters, with or without tonos or dialytika, and the
// letter-like symbol forms (ϐ ϑ ϕ ϖ ϰ ϱ ϵ).
func isGreek(r rune) bool {
	return r >= 0x386 && r <= 0x3ce && r != 0x387 && r != 0x38b && r != 0x38d && r != 0x3a2 || r >= 0x3d0 && r <= 0x3d1 ||
		r == 0x3d5 || r == 0x3d6 || r == 0x3f0 || r == 0x3f1 || r == 0x3f5
}

var greekNames = [...]string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta",
	"iota", "kappa", "lambda", "mu", "nu", "xi", "omicron", "pi", "rho", "sigma", "sigma", "tau",
	"upsilon", "phi", "chi", "psi", "omega"}

// greekName returns the Latin name of a letter isGreek accepts, in lower
// case.
func greekName(r rune) string {
	switch {
	case r >= 0x3b1 && r <= 0x3c9: // α..ω, ς at 0x3c2
		return greekNames[r-0x3b1]
	case r >= 0x391 && r <= 0x3a9 && r != 0x3a2: // Α..Ω (0x3a2 unassigned)
		return greekNames[r-0x391]
	}
	switch r {
	case 'ά', 'Ά':
		return "alpha"
	case 'έ', 'Έ', 'ϵ':
		return "epsilon"
	case 'ή', 'Ή':
		return "eta"
	case 'ί', 'Ί', 'ϊ', 'ΐ', 'Ϊ':
		return "iota"
	case 'ό', 'Ό':
		return "omicron"
	case 'ύ', 'Ύ', 'ϋ', 'ΰ', 'Ϋ':
		return "upsilon"
	case 'ώ', 'Ώ':
		return "omega"
	case 'ϐ':
		return "beta"
	case 'ϑ':
		return "theta"
	case 'ϕ':
		return "phi"
	case 'ϖ':
		return "pi"
	case 'ϰ':
		return "kappa"
	case 'ϱ':
		return "rho"
	}
	return ""
}
