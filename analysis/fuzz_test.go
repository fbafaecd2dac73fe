package analysis

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzTokenizers checks the invariants of the scanners on any input: no
// panic, every token is a substring of the lower-cased text, word tokens are
// runs of at least two word characters, the identifier tokenizer adds only
// compounds to the word tokens, and char_wb n-grams come from the padded
// words.
func FuzzTokenizers(f *testing.F) {
	for _, s := range []string{
		"", "a", "Ab", "dell'invio", "città", "SOP-014 v2.3.1 e-mail.", "ΟΔΟΣ İ",
		"citta\u0300", "\xff\xfe", "a-\xff-b", "tab\tsep\x1cx", "日本語のテキスト", "..--//",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		lower := Lower(text)
		words := WordTokenizer{}.Tokenize(lower)
		for _, w := range words {
			if !strings.Contains(lower, w) {
				t.Fatalf("word %q not in %q", w, lower)
			}
			if utf8.RuneCountInString(w) < 2 {
				t.Fatalf("word %q shorter than two code points", w)
			}
			for _, r := range w {
				if !isWord(r) {
					t.Fatalf("word %q has non-word rune %q", w, r)
				}
			}
		}
		// Dropping the compounds from the identifier tokens leaves the words.
		var parts []string
		for _, tok := range (IdentifierTokenizer{}).Tokenize(lower) {
			if !strings.Contains(lower, tok) {
				t.Fatalf("identifier token %q not in %q", tok, lower)
			}
			if strings.ContainsAny(tok, "-./") {
				continue
			}
			parts = append(parts, tok)
		}
		if !same(parts, words) {
			t.Fatalf("identifier parts %q, words %q", parts, words)
		}
		for _, tok := range (ASCIITokenizer{}).Tokenize(lower) {
			if tok == "" || !strings.Contains(lower, tok) {
				t.Fatalf("ascii token %q not in %q", tok, lower)
			}
		}
		for _, g := range CharWB(2, 4).Analyze(text) {
			core := strings.Trim(g, " ")
			if core != "" && !strings.Contains(lower, core) {
				t.Fatalf("n-gram %q not in %q", g, lower)
			}
			if n := utf8.RuneCountInString(g); n > 4 {
				t.Fatalf("n-gram %q longer than 4", g)
			}
		}
	})
}
