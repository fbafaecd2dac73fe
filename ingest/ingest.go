// Package ingest turns source files (Markdown, HTML, plain text, PDF) into
// clean text plus the structure a chunker needs: a list of blocks (headings,
// paragraphs, lists, tables, code) with their heading path, byte span and
// page. Files that extract badly are refused with a reason rather than
// indexed silently.
//
// Every parser produces a [Parsed] whose Doc.Text is the blocks' text joined
// by blank lines, so Doc.Text[b.Start:b.End] == b.Text for every block b.
package ingest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fonte-rag/fonte"
)

// Kind is the structural role of a [Block].
type Kind string

// The block kinds a parser emits.
const (
	KindHeading   Kind = "heading"
	KindParagraph Kind = "paragraph"
	KindList      Kind = "list"  // all items of one list, one item per line
	KindTable     Kind = "table" // one row per line, cells separated by " | "
	KindCode      Kind = "code"  // preformatted text, kept verbatim
)

// Block is one structural unit of a parsed document.
type Block struct {
	Kind  Kind
	Level int    // heading level 1–6 for headings, 0 for other kinds
	Text  string // exactly Doc.Text[Start:End]
	// Headings is the heading path the block sits under, outermost first.
	// For a heading it holds the enclosing headings, not the heading itself.
	Headings []string
	Start    int // byte offset of the block in Doc.Text
	End      int // byte offset one past the block's end
	Page     int // 1-based page for PDF, 0 for sources without pages
}

// Parsed is what ingesting one file yields: the document and its blocks,
// plus counts of what was removed on the way, so a caller can report or
// flag suspicious files (hidden text is a classic prompt-injection carrier).
type Parsed struct {
	Doc    fonte.Document
	Blocks []Block
	Format string // "markdown", "html", "text" or "pdf"
	Pages  int    // number of pages for PDF, 0 otherwise

	// Hidden counts the non-space characters of HTML elements a reader
	// would not see (hidden attribute, aria-hidden="true", display:none,
	// visibility:hidden) that were dropped.
	Hidden int
	// Invisible counts the zero-width characters (U+200B, U+200C, U+200D,
	// U+2060–U+2064, U+FEFF), soft hyphens (U+00AD) and Unicode tag
	// characters (U+E0000–U+E007F) that were dropped from the text.
	Invisible int
	// Control counts control characters other than newline and tab that
	// were dropped from the text; the quality check weighs them.
	Control int

	// OCR lists the pages whose text came from OCR (scans, images), with
	// their mean word confidence; nil for text read from a text layer.
	OCR []OCRPage

	// ImageOnlyPages are the pages of a PDF that are images without a text
	// layer while others have text; Parse reads them by OCR.
	ImageOnlyPages []int

	// Warnings lists problems that did not stop extraction, such as front
	// matter that is not valid YAML.
	Warnings []string
	// FrontMatterErr says why the front matter could not be read (nil when
	// it could, or there is none). Its access labels are then unknown, so
	// the engine refuses the file when a folder rule covers it; a file
	// whose unreadable front matter mentions access is refused here.
	FrontMatterErr error

	// Expanded is what the file expanded to, as Limits.ExpandedBytes
	// counts it: the bytes inflated from an office package, else (set by
	// ParseWithin) the text extracted.
	Expanded int64
}

// Parse parses raw bytes as the format its name's extension selects and
// checks the extraction quality. The name is used for the title fallback,
// the document id and source, and error messages. It returns a *Refusal
// (as error) when the file is unsupported, unreadable or extracts badly.
// A panic inside a parser is turned into a refusal.
func Parse(name string, raw []byte) (*Parsed, error) {
	parse := ParserFor(name)
	if parse == nil {
		return nil, &Refusal{Path: name, Reason: ReasonUnsupported,
			Detail: fmt.Sprintf("no parser for extension %q", filepath.Ext(name))}
	}
	return parseChecked(name, parse, raw)
}

// parseChecked runs parse and the quality check, a panic turned into a
// refusal.
func parseChecked(name string, parse ParseFunc, raw []byte) (p *Parsed, err error) {
	defer func() {
		if r := recover(); r != nil {
			p, err = nil, &Refusal{Path: name, Reason: ReasonUnreadable,
				Detail: fmt.Sprintf("parser panicked: %v", r)}
		}
	}()
	p, err = parse(name, raw)
	if err != nil {
		return nil, err
	}
	if err := Check(p); err != nil {
		return nil, err
	}
	return p, nil
}

// ParseFunc is the signature shared by the format parsers. They do not run
// the quality check; [Parse] does.
type ParseFunc func(name string, raw []byte) (*Parsed, error)

// ParserFor returns the parser for a file name's extension (case
// insensitive), or nil when the extension is not supported:
// .md .markdown → Markdown, .txt .text → plain text, .rst .rest →
// reStructuredText, .html .htm → HTML,
// .pdf → PDF, .docx → Word, .odt → OpenDocument text, .pptx → PowerPoint,
// .png .jpg .jpeg .tif .tiff → image read by OCR.
func ParserFor(name string) ParseFunc {
	switch strings.ToLower(path.Ext(filepath.ToSlash(name))) {
	case ".md", ".markdown":
		return ParseMarkdown
	case ".txt", ".text":
		return ParseText
	case ".rst", ".rest":
		return ParseRST
	case ".html", ".htm":
		return ParseHTML
	case ".pdf":
		return parsePDFOrScan
	case ".docx":
		return ParseDOCX
	case ".odt":
		return ParseODT
	case ".pptx":
		return ParsePPTX
	case ".png", ".jpg", ".jpeg", ".tif", ".tiff":
		return ParseImage
	}
	return nil
}

// heading is one entry of the open heading path.
type heading struct {
	level int
	text  string
}

// builder accumulates blocks and the document text they slice, so every
// parser produces offsets the same way.
type builder struct {
	text   strings.Builder
	blocks []Block
	path   []heading
	page   int // page stamped on added blocks

	hidden, invisible, control int
}

// add normalizes text for its kind and appends it as a block; text that is
// empty after normalization is dropped.
func (b *builder) add(kind Kind, level int, text string) {
	text = b.clean(text, kind)
	if text == "" {
		return
	}
	var under []string
	if kind == KindHeading {
		level = min(max(level, 1), 6)
		// A heading closes every open heading at its level or deeper.
		for len(b.path) > 0 && b.path[len(b.path)-1].level >= level {
			b.path = b.path[:len(b.path)-1]
		}
		under = b.pathTexts()
		b.path = append(b.path, heading{level, text})
	} else {
		level = 0
		under = b.pathTexts()
	}
	if b.text.Len() > 0 {
		b.text.WriteString("\n\n")
	}
	start := b.text.Len()
	b.text.WriteString(text)
	b.blocks = append(b.blocks, Block{
		Kind: kind, Level: level, Text: text, Headings: under,
		Start: start, End: b.text.Len(), Page: b.page,
	})
}

func (b *builder) pathTexts() []string {
	if len(b.path) == 0 {
		return nil
	}
	out := make([]string, len(b.path))
	for i, h := range b.path {
		out[i] = h.text
	}
	return out
}

// clean drops invisible and control characters (counting them) and
// normalizes whitespace: code keeps its lines verbatim apart from trailing
// spaces; lists keep each line's leading indentation (it shows nesting);
// other kinds collapse runs of spaces, and headings become one line.
func (b *builder) clean(s string, kind Kind) string {
	s = b.dropInvisible(s)
	lines := strings.Split(s, "\n")
	out := lines[:0]
	for _, line := range lines {
		switch kind {
		case KindCode:
			line = strings.TrimRightFunc(line, unicode.IsSpace)
			out = append(out, line)
			continue
		case KindList:
			indent := len(line) - len(strings.TrimLeft(line, " "))
			line = collapseSpaces(line)
			if line != "" {
				line = strings.Repeat(" ", indent) + line
			}
		default:
			line = collapseSpaces(line)
		}
		if line != "" {
			out = append(out, line)
		}
	}
	if kind == KindCode {
		// Leading and trailing blank lines carry nothing.
		for len(out) > 0 && out[0] == "" {
			out = out[1:]
		}
		for len(out) > 0 && out[len(out)-1] == "" {
			out = out[:len(out)-1]
		}
	}
	sep := "\n"
	if kind == KindHeading {
		sep = " "
	}
	return strings.Join(out, sep)
}

// dropInvisible removes invisible and control characters, counting them.
// Newlines and tabs stay; carriage returns, form and vertical feeds become
// spaces, since they are layout rather than content and are not counted.
// Invalid UTF-8 becomes U+FFFD, which the quality check weighs.
func (b *builder) dropInvisible(s string) string {
	clean := true
	for _, r := range s {
		if isInvisible(r) || (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r < 0xa0) || r == utf8.RuneError {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var sb strings.Builder
	sb.Grow(len(s))
	for _, r := range s {
		switch {
		case isInvisible(r):
			b.invisible++
		case r == '\r' || r == '\f' || r == '\v':
			sb.WriteByte(' ')
		case r < 0x20 && r != '\n' && r != '\t', r >= 0x7f && r < 0xa0:
			b.control++
		default:
			// Invalid bytes come out of range as U+FFFD, so the result
			// is valid UTF-8 and the quality check counts them.
			sb.WriteRune(r)
		}
	}
	return sb.String()
}

// isInvisible reports characters that render as nothing yet change the
// text a model reads: zero-width spaces and joiners, word joiner and the
// invisible operators, byte order mark, soft hyphen and Unicode tag
// characters (used to smuggle instructions past a human reader).
func isInvisible(r rune) bool {
	switch {
	case r == 0x00ad, r == 0x200b, r == 0x200c, r == 0x200d, r == 0xfeff:
		return true
	case r >= 0x2060 && r <= 0x2064:
		return true
	case r >= 0xe0000 && r <= 0xe007f:
		return true
	}
	return false
}

// collapseSpaces trims s and replaces every run of white space (including
// no-break spaces) with one ASCII space.
func collapseSpaces(s string) string {
	var sb strings.Builder
	sb.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = sb.Len() > 0
			continue
		}
		if space {
			sb.WriteByte(' ')
			space = false
		}
		sb.WriteRune(r)
	}
	return sb.String()
}

// finish assembles the Parsed value shared by all formats.
func (b *builder) finish(name, format string, raw []byte) *Parsed {
	sum := sha256.Sum256(raw)
	slash := filepath.ToSlash(name)
	return &Parsed{
		Doc: fonte.Document{
			ID:     slash,
			Source: name,
			SHA256: hex.EncodeToString(sum[:]),
			Text:   b.text.String(),
		},
		Blocks:    b.blocks,
		Format:    format,
		Hidden:    b.hidden,
		Invisible: b.invisible,
		Control:   b.control,
	}
}

// firstHeading returns the text of the first heading of the given level, or
// of any level when level is 0.
func firstHeading(blocks []Block, level int) string {
	for _, bl := range blocks {
		if bl.Kind == KindHeading && (level == 0 || bl.Level == level) {
			return bl.Text
		}
	}
	return ""
}

// titleFromName turns a file name into a readable title: the base name
// without extension, with dashes and underscores as spaces.
func titleFromName(name string) string {
	base := path.Base(filepath.ToSlash(name))
	base = strings.TrimSuffix(base, path.Ext(base))
	t := collapseSpaces(strings.NewReplacer("-", " ", "_", " ").Replace(base))
	if t == "" {
		return base
	}
	return t
}

// cleanTitle normalizes a title candidate: invisible characters removed,
// white space collapsed.
func cleanTitle(s string) string {
	var b builder
	return collapseSpaces(b.dropInvisible(s))
}
