package ingest

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxTitleLen is the longest first line taken as a plain-text title, in
// characters: longer lines are sentences, not titles.
const maxTitleLen = 80

// ParseText parses plain text: paragraphs are separated by blank lines and
// keep their line breaks. The title is the first line when it is short
// (at most 80 characters), otherwise the file name; a short first line that
// stands alone as a paragraph becomes a level-1 heading.
func ParseText(name string, raw []byte) (*Parsed, error) {
	s, err := decodeText(name, raw)
	if err != nil {
		return nil, err
	}
	var paras []string
	var cur []string
	for line := range strings.SplitSeq(s, "\n") {
		if strings.TrimSpace(line) == "" {
			if len(cur) > 0 {
				paras = append(paras, strings.Join(cur, "\n"))
				cur = cur[:0]
			}
			continue
		}
		cur = append(cur, line)
	}
	if len(cur) > 0 {
		paras = append(paras, strings.Join(cur, "\n"))
	}

	title := ""
	if len(paras) > 0 {
		first, _, _ := strings.Cut(paras[0], "\n")
		if t := cleanTitle(first); utf8.RuneCountInString(t) <= maxTitleLen && strings.ContainsFunc(t, unicode.IsLetter) {
			title = t
		}
	}
	var b builder
	for i, p := range paras {
		// A short first line standing alone is a heading, so the chunker
		// can carry it with the paragraphs under it.
		if i == 0 && title != "" && len(paras) > 1 && !strings.Contains(p, "\n") {
			b.add(KindHeading, 1, p)
			continue
		}
		b.add(KindParagraph, 0, p)
	}
	if title == "" {
		title = titleFromName(name)
	}
	out := b.finish(name, "text", raw)
	out.Doc.Title = title
	out.Doc.Language = DetectLanguage(out.Doc.Text)
	return out, nil
}
