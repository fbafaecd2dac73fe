package chunk

import (
	"strings"
	"unicode"

	"github.com/fonte-rag/fonte"
)

// Section is the text under one Markdown heading, up to the next heading of
// any level.
type Section struct {
	// Headings is the heading path from the outermost heading down; empty
	// for text before the first heading.
	Headings []string
	// Text is the section's non-blank lines, each trimmed, joined by one
	// space (the seeds join a section's lines with " ").
	Text string
	// Start and End span the section body in the source, from its first
	// word to the end of its last word; the heading line is not included.
	Start, End int
}

// Sections splits Markdown text at its ATX heading lines ("#" to "######",
// up to three spaces of indentation, optional closing "#"s). Each section
// keeps its full heading path, so "## Refunds" under "# Billing" has the
// path [Billing Refunds]. Lines inside fenced code blocks (``` or ~~~) are
// never headings. Sections whose body is blank produce nothing, though their
// heading stays in the path of the sections nested below it.
//
// Setext headings (underlined with === or ---) are not recognised: that
// needs a full Markdown parser, which this chunker deliberately avoids.
func Sections(markdown string) []Section {
	type level struct {
		depth int
		text  string
	}
	var (
		out   []Section
		path  []level
		cur   = Section{Start: -1}
		fence string // the opening fence while inside a fenced block
		lines []string
	)
	flush := func() {
		if cur.Start >= 0 {
			cur.Text = strings.Join(lines, " ")
			out = append(out, cur)
		}
		lines = lines[:0]
		cur = Section{Start: -1}
	}
	for off := 0; off < len(markdown); {
		end := strings.IndexByte(markdown[off:], '\n')
		if end < 0 {
			end = len(markdown)
		} else {
			end += off
		}
		line := markdown[off:end]
		next := end + 1

		if fence == "" {
			if depth, text, ok := atxHeading(line); ok {
				flush()
				for len(path) > 0 && path[len(path)-1].depth >= depth {
					path = path[:len(path)-1]
				}
				path = append(path, level{depth, text})
				for _, l := range path {
					if l.text != "" {
						cur.Headings = append(cur.Headings, l.text)
					}
				}
				off = next
				continue
			}
			fence = openFence(line)
		} else if closesFence(line, fence) {
			fence = ""
		}

		if t := strings.TrimSpace(line); t != "" {
			lead := len(line) - len(strings.TrimLeftFunc(line, unicode.IsSpace))
			if cur.Start < 0 {
				cur.Start = off + lead
			}
			cur.End = off + lead + len(t)
			lines = append(lines, t)
		}
		off = next
	}
	flush()
	return out
}

// atxHeading reports whether line is an ATX heading and returns its level
// and text without the markers.
func atxHeading(line string) (depth int, text string, ok bool) {
	line = strings.TrimRight(line, "\r")
	indent := 0
	for indent < len(line) && line[indent] == ' ' {
		indent++
	}
	if indent > 3 {
		return 0, "", false
	}
	rest := line[indent:]
	for depth < len(rest) && rest[depth] == '#' {
		depth++
	}
	if depth == 0 || depth > 6 {
		return 0, "", false
	}
	rest = rest[depth:]
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return 0, "", false // "#hashtag" is a paragraph, not a heading
	}
	rest = strings.TrimSpace(rest)
	// An optional closing sequence of #s counts only after a space, so
	// "C#" keeps its hash.
	trimmed := strings.TrimRight(rest, "#")
	if trimmed == "" {
		rest = ""
	} else if len(trimmed) < len(rest) && (strings.HasSuffix(trimmed, " ") || strings.HasSuffix(trimmed, "\t")) {
		rest = strings.TrimSpace(trimmed)
	}
	return depth, rest, true
}

// openFence returns the fence marker (three or more ` or ~) that line opens,
// or "" when it opens none.
func openFence(line string) string {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || len(t) < 3 {
		return ""
	}
	c := t[0]
	if c != '`' && c != '~' {
		return ""
	}
	n := 0
	for n < len(t) && t[n] == c {
		n++
	}
	if n < 3 || (c == '`' && strings.IndexByte(t[n:], '`') >= 0) {
		return ""
	}
	return t[:n]
}

// closesFence reports whether line closes a block opened with fence: the
// same character, at least as many, and nothing after but spaces.
func closesFence(line, fence string) bool {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 {
		return false
	}
	n := 0
	for n < len(t) && t[n] == fence[0] {
		n++
	}
	return n >= len(fence) && strings.TrimSpace(t[n:]) == ""
}

// ByHeading is the structural chunker of the seeds: one chunk per Markdown
// section (see Sections), with the heading path in Headings. It is meant
// for documents whose sections are already passage-sized; wrap it with
// Within to bound long sections.
type ByHeading struct{}

var _ fonte.Chunker = ByHeading{}

// Chunk returns one chunk per non-blank section of doc.Text, with IDs
// "<doc id>#<position>".
func (ByHeading) Chunk(doc fonte.Document) []fonte.Chunk {
	var out []fonte.Chunk
	for _, s := range Sections(doc.Text) {
		out = append(out, fonte.Chunk{
			ID:       ID(doc.ID, len(out)),
			DocID:    doc.ID,
			Title:    doc.Title,
			Headings: s.Headings,
			Text:     s.Text,
			Start:    s.Start,
			End:      s.End,
			Position: len(out),
		})
	}
	return out
}

// Within wraps a chunker so that every chunk it produces with more than
// w.Size words is re-cut into windows of w, each keeping the outer chunk's
// title, headings and page. Positions and IDs are renumbered across the
// document. Offsets stay exact when the outer chunk's Text has the same
// words as its span of the document, as with ByHeading and Window; otherwise
// every window keeps the outer chunk's span.
//
// It panics, when called, if w is invalid.
func Within(outer fonte.Chunker, w Window) fonte.Chunker {
	if err := w.Validate(); err != nil {
		panic(err)
	}
	return within{outer, w}
}

type within struct {
	outer fonte.Chunker
	w     Window
}

func (c within) Chunk(doc fonte.Document) []fonte.Chunk {
	var out []fonte.Chunk
	add := func(ch fonte.Chunk) {
		ch.Position = len(out)
		ch.ID = ID(doc.ID, ch.Position)
		out = append(out, ch)
	}
	for _, ch := range c.outer.Chunk(doc) {
		if wordCount(ch.Text) <= c.w.Size {
			add(ch)
			continue
		}
		// Prefer the document span so offsets stay exact; fall back to the
		// chunk's own text when the two disagree.
		src, base, exact := ch.Text, 0, false
		if 0 <= ch.Start && ch.Start <= ch.End && ch.End <= len(doc.Text) {
			if span := doc.Text[ch.Start:ch.End]; wordCount(span) == wordCount(ch.Text) {
				src, base, exact = span, ch.Start, true
			}
		}
		ws := words(src)
		for _, r := range windowRanges(len(ws), c.w.Size, c.w.Overlap) {
			part := ch
			part.Text = joinWords(src, ws[r[0]:r[1]])
			if exact {
				part.Start = base + ws[r[0]].Start
				part.End = base + ws[r[1]-1].End
			}
			add(part)
		}
	}
	return out
}
