// Package parse holds what every format parser of ingest shares: the
// parsed document and its blocks ([Parsed], [Block]), the [Builder] that
// lays blocks out in the document text, a file's [Refusal], and the
// [Budget] of a run. Package ingest re-exports these names, and its Parse
// is the one entry point; the format rooms (ingest/office, ingest/pdf)
// build on this package without importing ingest.
package parse

import "github.com/fonte-rag/fonte"

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

// OCRPage records one page whose text came from OCR.
type OCRPage struct {
	Page int `json:"page"` // 1-based, as Block.Page
	// Confidence is the mean of Tesseract's word confidences (0–100).
	Confidence float64 `json:"conf"`
	Words      int     `json:"words"`
	Language   string  `json:"lang"` // the Tesseract languages it was read with, e.g. "eng+ita"
}
