package main

import (
	"unicode"
	"unicode/utf8"
)

// idTok is analysis.IdentifierTokenizer with a choice of which one-rune
// parts to keep: oneDigit keeps single digits ("type 1", "IL-1"),
// oneAny keeps any single word character.
type idTok struct {
	oneDigit, oneAny bool
}

func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)
}

func run(text string, i int) (start, end, runes int) {
	for i < len(text) {
		r, size := utf8.DecodeRuneInString(text[i:])
		if r != utf8.RuneError && isWordRune(r) {
			break
		}
		i += size
	}
	start = i
	for i < len(text) {
		r, size := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError || !isWordRune(r) {
			break
		}
		i += size
		runes++
	}
	return start, i, runes
}

func (t idTok) keep(s string, runes int) bool {
	if runes >= 2 {
		return true
	}
	if runes != 1 {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s)
	return t.oneAny || t.oneDigit && unicode.IsDigit(r)
}

func (t idTok) Tokenize(text string) []string {
	var tokens []string
	joiner := func(c byte) bool { return c == '-' || c == '.' || c == '/' }
	for i := 0; i < len(text); {
		start, end, runes := run(text, i)
		if start == len(text) {
			break
		}
		stop := end
		for stop+1 < len(text) && joiner(text[stop]) {
			r, _ := utf8.DecodeRuneInString(text[stop+1:])
			if r == utf8.RuneError || !isWordRune(r) {
				break
			}
			_, stop, _ = run(text, stop+1)
		}
		if stop == end {
			if t.keep(text[start:end], runes) {
				tokens = append(tokens, text[start:end])
			}
			i = end
			continue
		}
		tokens = append(tokens, text[start:stop])
		for j := start; j < stop; {
			s, e, n := run(text, j)
			if t.keep(text[s:e], n) {
				tokens = append(tokens, text[s:e])
			}
			j = e
		}
		i = stop
	}
	return tokens
}
