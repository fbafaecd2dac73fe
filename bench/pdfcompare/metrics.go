package main

import (
	"regexp"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// The measures, all against poppler's pdftotext (default options, UTF-8)
// as the reference:
//
//   - words: maximal runs of letters and digits, lower-cased. Recall is
//     the share of the reference's word occurrences the candidate has
//     (multiset intersection over the reference's count), precision the
//     share of the candidate's occurrences the reference has.
//   - glued: candidate words of 16 or more letters (letters only) that
//     never occur in the reference: words run together where spaces were
//     lost, like "filegeneratedbythedepmod".
//   - shingles: the share of the reference's distinct 5-word sequences
//     found in the candidate: a sentence broken by a column read across,
//     or by text put in the wrong place, loses the sequences around the
//     break.
//   - U+FFFD: replacement characters in the text.
//
// Words hyphenated at a line end are joined in the reference before it
// is compared ("infor-\nmation" is "information"), as the candidates
// join them, and both texts are compared in Unicode NFC (pdftotext writes
// "può" as "u" and a combining grave accent).

// minGlued is the shortest all-letter word counted as glued when the
// reference lacks it.
const minGlued = 16

// shingle is the length of the word sequences compared.
const shingle = 5

var lineHyphen = regexp.MustCompile(`(\pL)-\n\s*(\p{Ll})`)

// dehyphenate joins words hyphenated at line ends in pdftotext output.
func dehyphenate(s string) string {
	return lineHyphen.ReplaceAllString(s, "$1$2")
}

// words splits text into lower-cased runs of letters and digits.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// counts is a word multiset.
func counts(ws []string) map[string]int {
	m := make(map[string]int, len(ws)/4)
	for _, w := range ws {
		m[w]++
	}
	return m
}

// overlap is the size of the multiset intersection.
func overlap(a, b map[string]int) int {
	n := 0
	for w, c := range a {
		n += min(c, b[w])
	}
	return n
}

func allLetters(w string) bool {
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// glued counts the candidate words of minGlued+ letters the reference
// never has.
func glued(cand []string, ref map[string]int) int {
	n := 0
	for _, w := range cand {
		if len([]rune(w)) >= minGlued && allLetters(w) && ref[w] == 0 {
			n++
		}
	}
	return n
}

// shingles returns the distinct word sequences of length shingle.
func shingles(ws []string) map[string]bool {
	m := map[string]bool{}
	for i := 0; i+shingle <= len(ws); i++ {
		m[strings.Join(ws[i:i+shingle], " ")] = true
	}
	return m
}

// score compares a candidate text with the reference.
type score struct {
	refWords, candWords, common int
	gluedWords                  int
	refShingles, keptShingles   int
	fffd, refFFFD               int
}

func compare(ref, cand string) score {
	ref = norm.NFC.String(dehyphenate(ref))
	cand = norm.NFC.String(cand)
	rw, cw := words(ref), words(cand)
	rc, cc := counts(rw), counts(cw)
	rs, cs := shingles(rw), shingles(cw)
	s := score{refWords: len(rw), candWords: len(cw), common: overlap(rc, cc),
		gluedWords: glued(cw, rc), refShingles: len(rs),
		fffd: strings.Count(cand, "\uFFFD"), refFFFD: strings.Count(ref, "\uFFFD")}
	for k := range rs {
		if cs[k] {
			s.keptShingles++
		}
	}
	return s
}

func (s score) add(t score) score {
	return score{s.refWords + t.refWords, s.candWords + t.candWords, s.common + t.common,
		s.gluedWords + t.gluedWords, s.refShingles + t.refShingles, s.keptShingles + t.keptShingles,
		s.fffd + t.fffd, s.refFFFD + t.refFFFD}
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func (s score) recall() float64    { return ratio(s.common, s.refWords) }
func (s score) precision() float64 { return ratio(s.common, s.candWords) }
func (s score) gluedShare() float64 {
	return ratio(s.gluedWords, s.candWords)
}
func (s score) shingleShare() float64 { return ratio(s.keptShingles, s.refShingles) }
