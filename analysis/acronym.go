package analysis

import "strings"

// AcronymPlurals is a CharFilter for text as written, before lower-casing
// (Chain.Cased): it writes the plural of an acronym as the acronym,
// "SLIs" as "SLI" and "PDFs" as "PDF", so that the plural meets the
// singular. Lower-cased, the stemmers cannot tell the two apart from a
// word: Snowball keeps the "s" after a vowel ("slis", "kpis", "slos") or
// after no vowel at all ("pdfs"), and a question about "SLIs" then misses
// a heading that names the "SLI".
//
// An acronym here is two or more capital ASCII letters or digits,
// starting with a letter, written as a word of its own and followed by
// one lower-case "s" that ends the word. Text without one is returned as
// it is, without copying.
type AcronymPlurals struct{}

// Map drops the plural "s" of every acronym in text.
func (AcronymPlurals) Map(text string) string {
	var b *strings.Builder
	last := 0 // text[last:] is still to copy into b
	for i := 0; i < len(text); i++ {
		k := strings.IndexByte(text[i:], 's')
		if k < 0 {
			break
		}
		if i += k; !acronymPluralAt(text, i) {
			continue
		}
		if b == nil {
			b = &strings.Builder{}
			b.Grow(len(text))
		}
		b.WriteString(text[last:i])
		last = i + 1
	}
	if b == nil {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

// acronymPluralAt reports whether the "s" at text[i] ends an acronym's
// plural: two or more capitals or digits before it, the first a letter,
// with no word character before them or after the "s".
func acronymPluralAt(text string, i int) bool {
	if i+1 < len(text) && wordAt(text, i+1) {
		return false
	}
	j := i
	for j > 0 && isUpperOrDigit(text[j-1]) {
		j--
	}
	if i-j < 2 || text[j] < 'A' || text[j] > 'Z' {
		return false
	}
	if j > 0 && (text[j-1] >= 0x80 || asciiWord[text[j-1]]) {
		return false // inside a longer word: "iPhones", "ABCDs" after a letter
	}
	return true
}

func isUpperOrDigit(c byte) bool { return 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' }
