package answer

import (
	"strings"
	"unicode"
)

// Plain text is often hard-wrapped: a reStructuredText or text file, or
// one converted from a PDF, breaks its lines at a fixed width, in the
// middle of a sentence ("introdotto nel 2012 con la modifica
// dell'articolo 52 del Codice" / "dell'Amministrazione, per cui …").
// chunk.SentenceSpans ends a sentence at every line break, so the
// answerer quoted half a sentence, and weighed each half on its own.
// joinWrapped puts such halves together again before ExtractSpan scores
// them.

// minWrappedLine is the shortest line, in bytes, taken as wrapped at a
// fixed width: a shorter line without end punctuation is more likely a
// heading, a label or a command than prose cut by the wrap.
const minWrappedLine = 40

// minWrappedWords is the fewest words such a line holds.
const minWrappedWords = 6

// joinWrapped returns spans (sentence spans of text, in order) with each
// sentence that a line break cut in two joined to its other half: span a
// ends a line of prose (minWrappedLine bytes and minWrappedWords words or
// more, no end punctuation) and span b, on the next line, goes on with a
// word of letters in lower case or a bracket (see wrapped). Lines with the
// signs of code or markup (codeSigns) are never joined, nor are list
// items or table rows.
func joinWrapped(text string, spans [][2]int) [][2]int {
	if len(spans) < 2 {
		return spans
	}
	out := make([][2]int, 0, len(spans))
	out = append(out, spans[0])
	for _, b := range spans[1:] {
		a := out[len(out)-1]
		if wrappedProse(text, a, b) {
			out[len(out)-1][1] = b[1]
			continue
		}
		out = append(out, b)
	}
	return out
}

// codeSigns are characters that prose seldom holds and commands, paths,
// markup and tables do.
const codeSigns = "${}<>=|\\`"

// wrappedProse reports whether span b of text goes on the sentence that
// span a leaves unfinished at the end of a wrapped line of prose.
func wrappedProse(text string, a, b [2]int) bool {
	if !wrapped(text, a, b) {
		return false
	}
	line := text[strings.LastIndexByte(text[:a[1]], '\n')+1 : a[1]]
	next, _, _ := strings.Cut(text[b[0]:], "\n")
	if len(line) < minWrappedLine || len(wordSpans(line)) < minWrappedWords || isTableRow(line) || isTableRow(next) ||
		strings.ContainsAny(line, codeSigns) || strings.ContainsAny(next, codeSigns) {
		return false
	}
	last := []rune(strings.TrimSpace(line))
	if r := last[len(last)-1]; !unicode.IsLetter(r) && !strings.ContainsRune(",)»”’\"'", r) {
		return false
	}
	return proseWord(strings.Fields(next)[0])
}

// proseWord reports whether w, the first word of a line, is a word of
// prose: letters and apostrophes, perhaps after a bracket and before a
// comma or a full stop ("dell'Amministrazione,", "(che"), not a command,
// an option or a file name ("apt-get", "--help", "foo.changes").
func proseWord(w string) bool {
	w = strings.TrimPrefix(w, "(")
	w = strings.TrimRight(w, ",;:.)!?")
	if w == "" {
		return false
	}
	for _, r := range w {
		if !unicode.IsLetter(r) && r != '\'' && r != '’' {
			return false
		}
	}
	return true
}
