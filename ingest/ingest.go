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
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/fonte-rag/fonte/ingest/office"
	"github.com/fonte-rag/fonte/ingest/pdf"
)

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
		return pdf.ParseOrScan
	case ".docx":
		return office.ParseDOCX
	case ".odt":
		return office.ParseODT
	case ".pptx":
		return office.ParsePPTX
	case ".png", ".jpg", ".jpeg", ".tif", ".tiff":
		return pdf.ParseImage
	}
	return nil
}
