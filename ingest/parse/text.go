package parse

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxWordLen is the longest token Stats still counts as a word: longer
// than any dictionary word in Italian or English, shorter than text glued
// together without spaces.
const maxWordLen = 40

// TextStats are the character and token counts the quality check uses.
type TextStats struct {
	Runes       int // all characters, spaces included
	NonSpace    int // characters that are not white space
	Letters     int
	Digits      int
	Replacement int // U+FFFD
	Control     int // control characters other than newline and tab
	Tokens      int // white-space separated tokens
	Words       int // tokens that look like words or numbers
}

// Stats counts what the quality check looks at in text.
func Stats(text string) TextStats {
	var s TextStats
	for _, r := range text {
		s.Runes++
		switch {
		case r == '\n' || r == '\t':
		case unicode.IsControl(r):
			s.Control++
		}
		if unicode.IsSpace(r) {
			continue
		}
		s.NonSpace++
		switch {
		case unicode.IsLetter(r):
			s.Letters++
		case unicode.IsDigit(r):
			s.Digits++
		case r == utf8.RuneError:
			s.Replacement++
		}
	}
	for _, tok := range strings.Fields(text) {
		s.Tokens++
		if wordLike(tok) {
			s.Words++
		}
	}
	return s
}

// wordLike reports whether a token is a word or number: letters and
// digits make up at least half of it and it is not implausibly long.
func wordLike(tok string) bool {
	n, alnum := 0, 0
	for _, r := range tok {
		n++
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			alnum++
		}
	}
	return alnum > 0 && 2*alnum >= n && n <= maxWordLen
}

// Shorten cuts s to at most n runes on one line, marking a cut with "…".
func Shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
