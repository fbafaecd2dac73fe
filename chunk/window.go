// Package chunk cuts documents into the passages fonte indexes.
//
// Every chunker here is a stateless value: the same Window or ByHeading can
// be shared between goroutines, and chunkers compose by wrapping (Within
// re-cuts the sections of a structural chunker into word windows). Chunks
// carry the byte span they came from so a citation can quote the source.
package chunk

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fonte-rag/fonte"
)

// ErrWindow reports window settings that cannot make progress or would
// repeat words: the size must exceed the overlap, and the overlap must not be
// negative.
var ErrWindow = errors.New("chunk: window size must be greater than overlap, and overlap at least 0")

// Window cuts a text into windows of Size words, each one restarting Overlap
// words before the end of the previous one. It is the seeds' word-window
// chunker: words are the whitespace-separated fields of the text, window i
// starts at word i*(Size-Overlap) for every start below
// max(len(words)-Overlap, 1), and a window's text is its words joined by one
// space. The last window always reaches the last word, and every window
// after the first brings at least one word the previous one did not have.
//
// The zero Window is invalid; build one with NewWindow or check it with
// Validate before use, because Chunk and Windows panic on invalid settings
// (a programming error, like a negative count to strings.Repeat).
type Window struct {
	Size    int // words per window, greater than Overlap
	Overlap int // words shared with the previous window, at least 0
}

var _ fonte.Chunker = Window{}

// NewWindow returns a Window of size words with overlap words shared between
// neighbours, or an error wrapping ErrWindow when size <= overlap or
// overlap < 0.
func NewWindow(size, overlap int) (Window, error) {
	w := Window{Size: size, Overlap: overlap}
	return w, w.Validate()
}

// Validate returns an error wrapping ErrWindow when the settings are
// unusable, nil otherwise.
func (w Window) Validate() error {
	if w.Overlap < 0 || w.Size <= w.Overlap {
		return fmt.Errorf("%w (size %d, overlap %d)", ErrWindow, w.Size, w.Overlap)
	}
	return nil
}

// Span is a half-open byte range [Start, End) of a text.
type Span struct {
	Start, End int
}

// Spans returns the byte span of each window of text, from the first byte of
// its first word to the end of its last word. A text without words has no
// windows (the seeds' formula would give one empty window, which is never a
// useful passage). It panics if the settings are invalid.
func (w Window) Spans(text string) []Span {
	if err := w.Validate(); err != nil {
		panic(err)
	}
	return windowSpans(words(text), w.Size, w.Overlap)
}

// Windows returns the text of each window of size words with overlap, as
// the seeds print them: the window's words joined by one space. It panics if
// size <= overlap or overlap < 0.
func Windows(text string, size, overlap int) []string {
	w := Window{Size: size, Overlap: overlap}
	if err := w.Validate(); err != nil {
		panic(err)
	}
	ws := words(text)
	var out []string
	for _, r := range windowRanges(len(ws), size, overlap) {
		out = append(out, joinWords(text, ws[r[0]:r[1]]))
	}
	return out
}

// Chunk cuts doc.Text into windows. Each chunk's Text is the window's words
// joined by one space, Start and End span the window in doc.Text, and the
// ID is "<doc id>#<position>". It panics if the settings are invalid.
func (w Window) Chunk(doc fonte.Document) []fonte.Chunk {
	if err := w.Validate(); err != nil {
		panic(err)
	}
	ws := words(doc.Text)
	var out []fonte.Chunk
	for _, r := range windowRanges(len(ws), w.Size, w.Overlap) {
		out = append(out, fonte.Chunk{
			ID:       ID(doc.ID, len(out)),
			DocID:    doc.ID,
			Title:    doc.Title,
			Text:     joinWords(doc.Text, ws[r[0]:r[1]]),
			Start:    ws[r[0]].Start,
			End:      ws[r[1]-1].End,
			Position: len(out),
		})
	}
	return out
}

// ID is the chunk identifier every chunker here uses: "<doc id>#<position>".
func ID(docID string, position int) string {
	return docID + "#" + strconv.Itoa(position)
}

// windowRanges returns the [from, to) word ranges of the windows over n
// words, following the seeds' range(0, max(n-overlap, 1), size-overlap).
func windowRanges(n, size, overlap int) [][2]int {
	if n == 0 {
		return nil
	}
	step := size - overlap
	var out [][2]int
	for i := 0; i < max(n-overlap, 1); i += step {
		out = append(out, [2]int{i, min(i+size, n)})
	}
	return out
}

func windowSpans(ws []Span, size, overlap int) []Span {
	var out []Span
	for _, r := range windowRanges(len(ws), size, overlap) {
		out = append(out, Span{ws[r[0]].Start, ws[r[1]-1].End})
	}
	return out
}

// words returns the byte span of every whitespace-separated field of text,
// with the same notion of whitespace as strings.Fields (unicode.IsSpace;
// Python's str.split, which the seeds use, differs only on a few control
// characters such as U+001C..U+001F).
func words(text string) []Span {
	out := make([]Span, 0, len(text)/6+1) // about one word per 6 bytes in prose
	start := -1
	for i := 0; i < len(text); {
		// ASCII fast path: most text is ASCII and needs no decoding.
		var space bool
		size := 1
		if c := text[i]; c < utf8.RuneSelf {
			space = asciiSpace[c]
		} else {
			var r rune
			r, size = utf8.DecodeRuneInString(text[i:])
			space = unicode.IsSpace(r)
		}
		if space {
			if start >= 0 {
				out = append(out, Span{start, i})
				start = -1
			}
		} else if start < 0 {
			start = i
		}
		i += size
	}
	if start >= 0 {
		out = append(out, Span{start, len(text)})
	}
	return out
}

// asciiSpace marks the ASCII bytes unicode.IsSpace accepts.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// joinWords joins the given word spans of text with single spaces.
func joinWords(text string, ws []Span) string {
	if len(ws) == 0 {
		return ""
	}
	// When the words are already separated by single spaces the window is
	// a substring of the text and needs no copy.
	single := true
	for i := 1; i < len(ws) && single; i++ {
		single = ws[i].Start == ws[i-1].End+1 && text[ws[i-1].End] == ' '
	}
	if single {
		return text[ws[0].Start:ws[len(ws)-1].End]
	}
	n := len(ws) - 1
	for _, w := range ws {
		n += w.End - w.Start
	}
	var b strings.Builder
	b.Grow(n)
	for i, w := range ws {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(text[w.Start:w.End])
	}
	return b.String()
}

// wordCount counts whitespace-separated fields without allocating.
func wordCount(text string) int {
	n, in := 0, false
	for len(text) > 0 {
		r, size := utf8.DecodeRuneInString(text)
		text = text[size:]
		if unicode.IsSpace(r) {
			in = false
		} else if !in {
			in = true
			n++
		}
	}
	return n
}
