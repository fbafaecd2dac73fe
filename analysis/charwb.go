package analysis

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// isSpace is Python's str.isspace, which str.split uses: Go's unicode.IsSpace
// plus the four ASCII separators U+001C to U+001F.
func isSpace(r rune) bool {
	return unicode.IsSpace(r) || 0x1c <= r && r <= 0x1f
}

// CharWBTokenizer is scikit-learn's analyzer="char_wb": character n-grams
// that never cross a word boundary. Each whitespace-separated word (Python's
// str.split) is padded with one space on each side, and every n-gram of n
// code points, Min <= n <= Max, is emitted, n by n in increasing order; a
// padded word no longer than n is emitted once, whole, and ends that word's
// n-grams (scikit-learn's "offset == 0" rule), so "ab" with (4, 5) gives just
// " ab ". scikit-learn also collapses runs of whitespace first; that cannot
// change the words, so it is not repeated here. Lower-case the text first to
// match scikit-learn (CharWB does).
type CharWBTokenizer struct {
	Min, Max int // n-gram lengths in code points, 1 <= Min <= Max
}

// Tokenize returns the n-grams of text. They are substrings of one buffer
// holding the padded words, so the call allocates that buffer and the
// result slice and nothing per n-gram.
func (t CharWBTokenizer) Tokenize(text string) []string {
	t.check()
	// First pass: the size of the padded buffer and the number of n-grams.
	size, count := 0, 0
	forEachWord(text, func(word string) {
		size += len(word) + 2
		count += t.ngramCount(utf8.RuneCountInString(word) + 2)
	})
	if count == 0 {
		return nil
	}
	var b strings.Builder
	b.Grow(size)
	forEachWord(text, func(word string) {
		b.WriteByte(' ')
		b.WriteString(word)
		b.WriteByte(' ')
	})
	buf := b.String()
	ngrams := make([]string, 0, count)
	for i := 0; i < len(buf); {
		// A padded word is a space, non-space runes, and a space.
		end := i + 1 + strings.IndexByte(buf[i+1:], ' ') + 1
		ngrams = t.appendWord(ngrams, buf[i:end])
		i = end
	}
	return ngrams
}

// check panics on a range scikit-learn would refuse.
func (t CharWBTokenizer) check() {
	if t.Min < 1 || t.Max < t.Min {
		panic(fmt.Sprintf("analysis: invalid char_wb n-gram range (%d, %d)", t.Min, t.Max))
	}
}

// ngramCount is how many n-grams a padded word of l code points yields.
func (t CharWBTokenizer) ngramCount(l int) int {
	count := 0
	for n := t.Min; n <= t.Max; n++ {
		if l <= n {
			return count + 1
		}
		count += l - n + 1
	}
	return count
}

// appendWord appends the n-grams of one padded word w.
func (t CharWBTokenizer) appendWord(ngrams []string, w string) []string {
	for n := t.Min; n <= t.Max; n++ {
		// Slide a window of n code points: lo and hi are byte offsets.
		hi, k := 0, 0
		for ; k < n && hi < len(w); k++ {
			_, size := utf8.DecodeRuneInString(w[hi:])
			hi += size
		}
		if k < n || hi == len(w) {
			return append(ngrams, w) // the whole word fits in n: once, and stop
		}
		lo := 0
		for {
			ngrams = append(ngrams, w[lo:hi])
			if hi == len(w) {
				break
			}
			_, size := utf8.DecodeRuneInString(w[lo:])
			lo += size
			_, size = utf8.DecodeRuneInString(w[hi:])
			hi += size
		}
	}
	return ngrams
}

// forEachWord calls fn with each maximal run of non-space runes in text.
func forEachWord(text string, fn func(word string)) {
	start := -1
	for i := 0; i < len(text); {
		r, size := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(text[i:])
		}
		if isSpace(r) {
			if start >= 0 {
				fn(text[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
		i += size
	}
	if start >= 0 {
		fn(text[start:])
	}
}
