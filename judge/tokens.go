package judge

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// token is one word of a text without the punctuation around it.
type token struct {
	text      string // as written
	sentStart bool   // first word of a sentence, a line or a list item
	// closes is set for a word that a comma, a colon, a semicolon or a
	// stop follows, or that ends its line: the end of a clause or of a
	// list's item.
	closes bool
}

// citationRE matches fonte's citation marks ("[1]", "[2, 3]"), which are
// not figures of the answer.
var citationRE = regexp.MustCompile(`\[\d+(?:\s*[,;]\s*\d+)*\]`)

// withoutCitations blanks the citation marks of text.
func withoutCitations(text string) string { return citationRE.ReplaceAllString(text, " ") }

// bullets are the marks that open a list item or stand between clauses.
var bullets = setOf("- – — • * · > #")

// listNumberRE matches the number of a numbered list's item.
var listNumberRE = regexp.MustCompile(`^[1-9]\d?[.)]$`)

// numberedList reports whether lines hold a numbered list: two lines or
// more that open with an item's number and go on. One such line is
// more often an answer that opens with its figure ("0. The header is
// deprecated").
func numberedList(lines []string) bool {
	n := 0
	for _, line := range lines {
		if f := strings.Fields(line); len(f) > 1 && listNumberRE.MatchString(f[0]) {
			n++
		}
	}
	return n >= 2
}

// tokenize splits text into words, marking the first word of each
// sentence, line and list item, where a capital letter says nothing of a
// proper name.
func tokenize(text string) []token {
	var out []token
	lines := strings.Split(text, "\n")
	numbered := numberedList(lines)
	for _, line := range lines {
		if len(out) > 0 {
			out[len(out)-1].closes = true
		}
		start := true
		fields := splitGluedNumbers(strings.Fields(line))
		for k, f := range fields {
			// "1." or "2)" opening a line of a numbered list numbers its
			// item: a mark, not a figure.
			if bullets[f] || k == 0 && numbered && len(fields) > 1 && listNumberRE.MatchString(f) {
				start = true
				continue
			}
			w := trimWord(f)
			if w != "" {
				closes := false
				if k := strings.LastIndex(f, w); k >= 0 {
					closes = strings.ContainsAny(f[k+len(w):], ",;:.!?")
				}
				out = append(out, token{text: w, sentStart: start, closes: closes})
			}
			last, _ := utf8.DecodeLastRuneInString(f)
			start = strings.ContainsRune(".!?:;", last) && !isAbbreviation(w)
		}
	}
	if len(out) > 0 {
		out[len(out)-1].closes = true
	}
	return out
}

// gluedNumberRE matches an abbreviation written against its number:
// "n.8", "art.15", "no.160".
var gluedNumberRE = regexp.MustCompile(`^([\p{L}'’]+)\.(\d.*)$`)

// splitGluedNumbers splits an abbreviation from the number written
// against it, so that "n.8" reads as "n. 8" does.
func splitGluedNumbers(fields []string) []string {
	var out []string
	for _, f := range fields {
		if m := gluedNumberRE.FindStringSubmatch(f); m != nil && abbreviations[strings.ToLower(dropElision(m[1]))] {
			out = append(out, m[1]+".", m[2])
			continue
		}
		out = append(out, f)
	}
	return out
}

// trimWord removes the punctuation around a word, keeping a closing
// parenthesis that closes one inside it ("$(DESTDIR)").
func trimWord(f string) string {
	f = strings.TrimLeft(f, "\"'«“‘([{¿¡*_<`")
	for {
		g := strings.TrimRight(f, "\"'»”’]}.,;:!?*_>`…")
		if strings.HasSuffix(g, ")") && strings.Count(g, "(") < strings.Count(g, ")") {
			g = g[:len(g)-1]
		}
		if g == f {
			return f
		}
		f = g
	}
}

// abbreviations end with a full stop that does not end a sentence, in
// English and Italian.
var abbreviations = setOf("e.g i.e eg ie es ecc vs cf cfr art artt n nr no num p pp par sez cap fig approx ca dr mr mrs ms prof sig sigg dott ing avv st max min tel ext")

// isAbbreviation reports whether a word is a known abbreviation or an
// initial ("J."), whose full stop ends no sentence.
func isAbbreviation(w string) bool {
	w = strings.ToLower(strings.TrimRight(dropElision(w), ".")) // "dall'art."
	return abbreviations[w] || utf8.RuneCountInString(w) == 1 && unicode.IsLetter([]rune(w)[0])
}

// hasLetter and hasDigit report whether s holds a letter, a digit.
func hasLetter(s string) bool { return strings.IndexFunc(s, unicode.IsLetter) >= 0 }
func hasDigit(s string) bool  { return strings.IndexFunc(s, unicode.IsDigit) >= 0 }

// isLetters reports whether s is letters only, apostrophes and hyphens
// inside allowed.
func isLetters(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && r != '\'' && r != '’' && r != '-' {
			return false
		}
	}
	return true
}

// foldedWords returns the words of s, folded, without the punctuation
// around them.
func foldedWords(s string) []string {
	var out []string
	for _, f := range strings.Fields(s) {
		if w := fold(trimWord(f)); w != "" {
			out = append(out, w)
		}
	}
	return out
}

// oneApart returns the one index at which two sequences of as many words
// differ (by same), or -1 when they differ at none or at more than one.
func oneApart(a, b []string, same func(x, y string) bool) int {
	if len(a) != len(b) {
		return -1
	}
	at := -1
	for i := range a {
		if !same(a[i], b[i]) {
			if at >= 0 {
				return -1
			}
			at = i
		}
	}
	return at
}
