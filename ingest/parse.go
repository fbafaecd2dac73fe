package ingest

import (
	"context"

	"github.com/fonte-rag/fonte/ingest/parse"
	"github.com/fonte-rag/fonte/ingest/pdf"
)

// The vocabulary of a parse lives in package parse, which the format
// rooms (ingest/office) share without importing ingest; these names keep
// ingest's API as it was.

// Kind is the structural role of a [Block].
type Kind = parse.Kind

// The block kinds a parser emits.
const (
	KindHeading   = parse.KindHeading
	KindParagraph = parse.KindParagraph
	KindList      = parse.KindList
	KindTable     = parse.KindTable
	KindCode      = parse.KindCode
)

// Block is one structural unit of a parsed document.
type Block = parse.Block

// Parsed is what ingesting one file yields.
type Parsed = parse.Parsed

// OCRPage records one page whose text came from OCR.
type OCRPage = parse.OCRPage

// Reason classifies why a file was refused.
type Reason = parse.Reason

// The reasons a file is refused.
const (
	ReasonUnsupported = parse.ReasonUnsupported
	ReasonUnreadable  = parse.ReasonUnreadable
	ReasonTooLarge    = parse.ReasonTooLarge
	ReasonEmpty       = parse.ReasonEmpty
	ReasonBinary      = parse.ReasonBinary
	ReasonGarbled     = parse.ReasonGarbled
	ReasonImageOnly   = parse.ReasonImageOnly
	ReasonAccess      = parse.ReasonAccess
	ReasonEncrypted   = parse.ReasonEncrypted
)

// Refusal is the error returned for a file that must not be indexed.
type Refusal = parse.Refusal

// Limits bound the work of one run.
type Limits = parse.Limits

// The settings that name each limit.
const (
	LimitExpandedBytes = parse.LimitExpandedBytes
	LimitPages         = parse.LimitPages
	LimitChunks        = parse.LimitChunks
)

// LimitError is the error of a run that went over one of its Limits.
type LimitError = parse.LimitError

// Budget accounts one run's work against its Limits.
type Budget = parse.Budget

// Usage is what a run has been charged so far.
type Usage = parse.Usage

// NewBudget returns the budget of a run that ends with ctx.
func NewBudget(ctx context.Context, l Limits) *Budget { return parse.NewBudget(ctx, l) }

// Stops reports whether err ends a run rather than refusing one file.
func Stops(err error) bool { return parse.Stops(err) }

// TextStats are the character and token counts the quality check uses.
type TextStats = parse.TextStats

// Stats counts what the quality check looks at in text.
func Stats(text string) TextStats { return parse.Stats(text) }

// A document read by OCR carries its pages' confidences in its metadata;
// the engine records and reads them under these names, from ingest/pdf
// (where Tesseract runs, for scanned PDFs and images alike).

// ReasonLowConfidence refuses a scan whose OCR text is too uncertain to
// index: every page fell below OCRFloor.
const ReasonLowConfidence = pdf.ReasonLowConfidence

// OCRMeta is the document metadata key under which the pages read by OCR
// are recorded (EncodeOCR); OCRTag is the tag such a document carries;
// OCRFloor is the mean word confidence under which a page is left out.
const (
	OCRMeta  = pdf.OCRMeta
	OCRTag   = pdf.OCRTag
	OCRFloor = pdf.OCRFloor
)

// EncodeOCR returns pages as the compact JSON kept under OCRMeta, or ""
// when there are none.
func EncodeOCR(pages []OCRPage) string { return pdf.EncodeOCR(pages) }

// DecodeOCR reads what EncodeOCR wrote.
func DecodeOCR(s string) ([]OCRPage, error) { return pdf.DecodeOCR(s) }

// builder, and the helpers below, are the parse package's, under the
// names ingest's parsers use.
type builder = parse.Builder

var (
	collapseSpaces = parse.CollapseSpaces
	firstHeading   = parse.FirstHeading
	titleFromName  = parse.TitleFromName
	cleanTitle     = parse.CleanTitle
)
