package engine

import (
	"unicode/utf8"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/ingest"
	"github.com/fonte-rag/fonte/retrieve"
)

// Chunks cuts a parsed document as an Engine opened with s would when
// indexing it (s's chunker, chunk size and overlap, with the same
// defaults), without opening a store: `fonte inspect --chunks` shows them.
// It fails when s names an invalid chunker.
func Chunks(s Settings, p *ingest.Parsed) ([]fonte.Chunk, error) {
	s.defaults()
	if _, err := s.chunkerName(); err != nil {
		return nil, err
	}
	e := &Engine{settings: s}
	return e.chunk(p), nil
}

// Chunks cuts a parsed document with the engine's chunker, as Index does.
func (e *Engine) Chunks(p *ingest.Parsed) []fonte.Chunk { return e.chunk(p) }

// Analysis names the lexical analysis a document of language lang gets
// (the naming of DocStatus.Analysis).
func Analysis(lang string) string { return retrieve.DefaultAnalyzers().Analysis(lang) }

// FileReport is what an Index run did with one file of the folder: one
// line of `fonte index --report`.
type FileReport struct {
	Path string `json:"path"`
	// Status is "indexed" (new or changed), "unchanged", "refused" or
	// "skipped" (unsupported type, duplicate link).
	Status     string `json:"status"`
	Format     string `json:"format"`
	Pages      int    `json:"pages"`
	Characters int    `json:"characters"`
	Language   string `json:"language"`
	Tables     int    `json:"tables"`
	// OCRPages counts the pages whose text came from OCR.
	OCRPages int `json:"ocr_pages"`
	// Flags counts the flagged passages (ingest.FlagChunks) and FlagKinds
	// names their kinds; for an unchanged file, those the index recorded.
	Flags     int      `json:"flags"`
	FlagKinds []string `json:"flag_kinds"`
	// Chunks is the file's chunk count: those made in this run, or those
	// the index holds for an unchanged file.
	Chunks int    `json:"chunks"`
	Reason string `json:"reason"` // why it was refused or skipped
	// Warnings are the parser's (ingest.Parsed.Warnings): PDF pages
	// flagged as damaged or image only, pages skipped, bad front matter.
	Warnings []string `json:"warnings,omitempty"`
}

// fileReport describes one walked entry; p, chunks and flags are what the
// run had of it (nil when it did not get that far).
func fileReport(path, status, reason string, p *ingest.Parsed, chunks int, flags []ingest.Flag) FileReport {
	f := FileReport{Path: path, Status: status, Reason: reason, Chunks: chunks, Flags: len(flags)}
	if p != nil {
		f.Format, f.Pages, f.Language = p.Format, p.Pages, p.Doc.Language
		f.OCRPages = len(p.OCR)
		f.Warnings = p.Warnings
		f.Characters = utf8.RuneCountInString(p.Doc.Text)
		for _, b := range p.Blocks {
			if b.Kind == ingest.KindTable {
				f.Tables++
			}
		}
	}
	seen := map[string]bool{}
	for _, fl := range flags {
		if k := string(fl.Kind); !seen[k] {
			seen[k] = true
			f.FlagKinds = append(f.FlagKinds, k)
		}
	}
	return f
}
