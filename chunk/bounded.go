package chunk

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// clauseMarks end a clause when white space follows them: a sentence
// longer than a chunk is cut after one of them before it is cut between
// words, so a piece still reads as a phrase.
const clauseMarks = ";:,—–"

// boundedSpans splits text into sentences (SentenceSpans), a sentence of
// more than max words into clauses, and a clause of more than max words
// into its words, so that no span holds more than max words and packText
// can always keep a chunk within its size. Text without a sentence end
// (a transcript, a pasted export) would otherwise become one chunk too
// large for any answer's budget. Spans are [start, end) byte offsets into
// text without surrounding white space, in order.
func boundedSpans(text string, max int) [][2]int {
	var out [][2]int
	for _, sent := range SentenceSpans(text) {
		if wordCount(text[sent[0]:sent[1]]) <= max {
			out = append(out, sent)
			continue
		}
		for _, cl := range clauseSpans(text, sent) {
			if wordCount(text[cl[0]:cl[1]]) <= max {
				out = append(out, cl)
				continue
			}
			out = append(out, wordSpans(text, cl)...)
		}
	}
	return out
}

// clauseSpans splits text[span[0]:span[1]] after each clause mark that
// white space follows.
func clauseSpans(text string, span [2]int) [][2]int {
	var out [][2]int
	start := span[0]
	for i := span[0]; i < span[1]; {
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		if !strings.ContainsRune(clauseMarks, r) || i >= span[1] {
			continue
		}
		if next, _ := utf8.DecodeRuneInString(text[i:]); !unicode.IsSpace(next) {
			continue
		}
		if trimmed := trimSpan(text, [2]int{start, i}); trimmed[1] > trimmed[0] {
			out = append(out, trimmed)
		}
		start = i
	}
	if trimmed := trimSpan(text, [2]int{start, span[1]}); trimmed[1] > trimmed[0] {
		out = append(out, trimmed)
	}
	return out
}

// wordSpans returns the spans of the words (runs of non-space characters)
// of text[span[0]:span[1]].
func wordSpans(text string, span [2]int) [][2]int {
	var out [][2]int
	start := -1
	for i := span[0]; i < span[1]; {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case unicode.IsSpace(r) && start >= 0:
			out = append(out, [2]int{start, i})
			start = -1
		case !unicode.IsSpace(r) && start < 0:
			start = i
		}
		i += size
	}
	if start >= 0 {
		out = append(out, [2]int{start, span[1]})
	}
	return out
}

// trimSpan narrows span to exclude white space at either end.
func trimSpan(text string, span [2]int) [2]int {
	sub := text[span[0]:span[1]]
	left := strings.TrimLeftFunc(sub, unicode.IsSpace)
	start := span[0] + len(sub) - len(left)
	return [2]int{start, start + len(strings.TrimRightFunc(left, unicode.IsSpace))}
}
