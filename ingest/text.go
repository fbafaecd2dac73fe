package ingest

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fonte-rag/fonte/analysis"
)

// maxTitleLen is the longest first line taken as a plain-text title, in
// characters: longer lines are sentences, not titles.
const maxTitleLen = 80

// ParseText parses plain text: paragraphs are separated by blank lines,
// wrapped prose is rejoined and list items and layout keep their lines
// (textBlocks), and a line underlined with a repeated punctuation
// character is a heading, its level by the order the styles appear. The
// title is the first heading, or the first line when it is short (at most
// 80 characters), otherwise the file name; a short first line that stands
// alone as a paragraph becomes a level-1 heading.
//
// Text that carries reStructuredText's marks (looksRST) is read as
// reStructuredText.
func ParseText(name string, raw []byte) (*Parsed, error) {
	return parseText(name, raw, false)
}

// parseText parses plain text, or reStructuredText when rst is set or
// the text looks like it.
func parseText(name string, raw []byte, rst bool) (*Parsed, error) {
	s, err := decodeText(name, raw)
	if err != nil {
		return nil, err
	}
	var parts []textPart
	if rst || looksRST(s) {
		parts = rstText(s)
	} else {
		// **strong**, *emphasis* and ``literal`` are how plain text
		// stresses words, in reStructuredText and out of it: the
		// words are the content, the marks are not.
		parts = joinParts(plainLines(s), plainEmphasis)
	}
	var styles headingStyles
	var blocks []textBlock
	for _, part := range parts {
		if part.table {
			blocks = append(blocks, textBlock{text: part.text, table: true, head: part.head})
			continue
		}
		for _, p := range textParagraphs(part.text) {
			blocks = append(blocks, textBlocks(p, &styles)...)
		}
	}

	title := ""
	if len(blocks) > 0 && !blocks[0].table {
		first, _, _ := strings.Cut(blocks[0].text, "\n")
		if t := cleanTitle(first); utf8.RuneCountInString(t) <= maxTitleLen && strings.ContainsFunc(t, unicode.IsLetter) {
			title = t
		}
	}
	var b builder
	for i, p := range blocks {
		switch {
		case p.heading:
			b.Add(KindHeading, p.level, p.text)
		case p.table && p.head:
			b.Add(KindTable, 0, p.text)
		case p.table:
			b.Add(KindParagraph, 0, p.text)
		case i == 0 && title != "" && len(blocks) > 1 && !strings.Contains(p.text, "\n") && utf8.RuneCountInString(p.text) <= maxTitleLen:
			// A short first line standing alone is a heading, so the
			// chunker can carry it with the paragraphs under it.
			b.Add(KindHeading, 1, p.text)
		default:
			b.Add(KindParagraph, 0, p.text)
		}
	}
	if title == "" {
		title = titleFromName(name)
	}
	out := b.Finish(name, "text", raw)
	out.Doc.Title = title
	out.Doc.Language = analysis.DetectLanguage(out.Doc.Text)
	return out, nil
}

// textParagraphs splits text into paragraphs at blank lines, each a list
// of its lines.
func textParagraphs(s string) [][]string {
	var paras [][]string
	var cur []string
	for line := range strings.SplitSeq(s, "\n") {
		if strings.TrimSpace(line) == "" {
			if len(cur) > 0 {
				paras = append(paras, cur)
				cur = nil
			}
			continue
		}
		cur = append(cur, line)
	}
	if len(cur) > 0 {
		paras = append(paras, cur)
	}
	return paras
}
