package ingest

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Plain text carries its layout in line breaks, and most of them are not
// meaningful: prose wrapped at a fixed width (72 to 80 columns, as mail,
// READMEs and reStructuredText sources are) breaks sentences in the
// middle, and a sentence cut at a line end is quoted cut by the answerer.
// The functions here read a block of lines (a paragraph between blank
// lines) as a person reads it: wrapped prose is one paragraph, each list
// item is one line however it wraps, and lines that are layout (tables,
// indented code, short lines such as an address) keep their breaks. A
// line underlined (and optionally overlined) with one repeated
// punctuation character is a heading, as in Setext and reStructuredText.

// textBlock is one unit of a plain-text document: a heading or a block of
// body text.
type textBlock struct {
	heading bool
	level   int  // heading level, 1 for the first underline style met
	table   bool // a table read into rows (texttable.go)
	head    bool // a table with its header as the first line
	text    string
}

// minWrapWidth is the shortest longest-line, in characters, for which a
// block is taken as wrapped prose: below it, short lines are what the
// author meant (an address, a verse, a list of names).
const minWrapWidth = 40

// headingStyles assigns heading levels to underline styles in the order a
// document first uses them, as reStructuredText does.
type headingStyles []string

func (h *headingStyles) level(style string) int {
	for i, s := range *h {
		if s == style {
			return i + 1
		}
	}
	*h = append(*h, style)
	return len(*h)
}

// underline reports whether line is made of one punctuation character
// repeated at least three times, and which.
func underline(line string) (rune, bool) {
	t := strings.TrimRight(line, " \t")
	if utf8.RuneCountInString(t) < 3 {
		return 0, false
	}
	first, _ := utf8.DecodeRuneInString(t)
	if !strings.ContainsRune("=-~^*#+`'\":._", first) {
		return 0, false
	}
	for _, r := range t {
		if r != first {
			return 0, false
		}
	}
	return first, true
}

// underlines reports whether ul underlines title: at least as long as
// half the title, so that "---" under a long sentence is not taken as a
// heading rule, and the title has letters and is short.
func underlines(title, ul string) (rune, bool) {
	r, ok := underline(ul)
	if !ok {
		return 0, false
	}
	t := strings.TrimSpace(title)
	n := utf8.RuneCountInString(t)
	if n == 0 || n > maxTitleLen || !strings.ContainsFunc(t, unicode.IsLetter) {
		return 0, false
	}
	if _, isRule := underline(t); isRule {
		return 0, false
	}
	return r, 2*utf8.RuneCountInString(strings.TrimSpace(ul)) >= n
}

// textBlocks reads the lines of one paragraph (no blank line inside) into
// headings and body blocks.
func textBlocks(lines []string, styles *headingStyles) []textBlock {
	var out []textBlock
	var body []string
	flush := func() {
		if len(body) > 0 {
			out = append(out, textBlock{text: layoutBody(body)})
			body = nil
		}
	}
	for i := 0; i < len(lines); i++ {
		// Overline, title, underline of the same character.
		if i+2 < len(lines) {
			if o, ok := underline(lines[i]); ok {
				if u, ok := underlines(lines[i+1], lines[i+2]); ok && u == o {
					flush()
					out = append(out, textBlock{heading: true, level: styles.level("over" + string(o)), text: strings.TrimSpace(lines[i+1])})
					i += 2
					continue
				}
			}
		}
		if i+1 < len(lines) {
			if u, ok := underlines(lines[i], lines[i+1]); ok && (len(body) == 0 || i == 0) {
				flush()
				out = append(out, textBlock{heading: true, level: styles.level(string(u)), text: strings.TrimSpace(lines[i])})
				i++
				continue
			}
		}
		body = append(body, lines[i])
	}
	flush()
	return out
}

// layoutBody joins the lines of a body block as they are meant to be
// read: wrapped prose into one line, each list item into one line, and
// layout (a table, indented code, short lines) kept as it is.
func layoutBody(lines []string) string {
	if len(lines) < 2 || tableLike(lines) || allIndented(lines) {
		return strings.Join(lines, "\n")
	}
	width := 0
	for _, l := range lines {
		width = max(width, utf8.RuneCountInString(strings.TrimRight(l, " \t")))
	}
	if width < minWrapWidth {
		return strings.Join(lines, "\n")
	}
	var b strings.Builder
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if i > 0 {
			prev := strings.TrimRight(lines[i-1], " \t")
			// A break is a wrap when the line before it reached into the
			// last part of the width (a shorter line ended on purpose) and
			// this line neither opens a list item nor is a rule.
			_, rule := underline(t)
			wrapped := 3*utf8.RuneCountInString(prev) >= 2*width && !textListMarker(t) && !rule
			if wrapped {
				b.WriteByte(' ')
			} else {
				b.WriteByte('\n')
			}
		}
		b.WriteString(t)
	}
	return b.String()
}

// textListMarker reports whether a trimmed line opens a list item: a bullet
// ("- ", "* ", "• ", "+ "), a number or letter followed by "." or ")"
// ("1. ", "2) ", "a) "), or "#. " (reStructuredText's auto-numbering).
func textListMarker(t string) bool {
	for _, p := range []string{"- ", "* ", "• ", "+ ", "– ", "#. "} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	i := 0
	for i < len(t) && i < 3 && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == 0 && len(t) > 0 && t[0] >= 'a' && t[0] <= 'z' && len(t) > 1 && t[1] == ')' {
		i = 1
	}
	return i > 0 && i+1 < len(t) && (t[i] == '.' || t[i] == ')') && t[i+1] == ' '
}

// tableLike reports whether a block looks like a table: rows with cell
// separators ("|"), rule lines ("+----+", "=== ==="), or columns aligned
// by runs of spaces in most lines.
func tableLike(lines []string) bool {
	aligned := 0
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if strings.Count(t, "|") >= 2 || strings.HasPrefix(t, "+-") || strings.HasPrefix(t, "+=") {
			return true
		}
		if _, ok := underline(strings.ReplaceAll(t, " ", "")); ok && strings.Contains(t, " ") {
			return true // "=====  =====": a simple table's rule
		}
		if strings.Contains(t, "   ") {
			aligned++
		}
	}
	return 2*aligned > len(lines)
}

// allIndented reports whether every line is indented by a tab or four
// spaces: a code or literal block.
func allIndented(lines []string) bool {
	for _, l := range lines {
		if !strings.HasPrefix(l, "\t") && !strings.HasPrefix(l, "    ") {
			return false
		}
	}
	return true
}
