package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/fonte-rag/fonte/chunk"
	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/ingest"
)

// inspected is what `fonte inspect` found in one file; it is also the
// --json shape, one object per line.
type inspected struct {
	Path     string          `json:"path"`
	Accepted bool            `json:"accepted"`
	Refusal  *inspectRefusal `json:"refusal,omitempty"`
	Format   string          `json:"format,omitempty"`
	Title    string          `json:"title,omitempty"`
	Language string          `json:"language,omitempty"`
	// Analysis is the lexical analysis the text would get (as in
	// `fonte status`): en, it, cjk or neutral.
	Analysis   string   `json:"analysis,omitempty"`
	Tags       []string `json:"tags,omitempty"`
	Pages      int      `json:"pages"`
	Characters int      `json:"characters"`
	Tables     int      `json:"tables"`
	// OCR lists the pages read by OCR with their mean word confidence.
	OCR []ingest.OCRPage `json:"ocr,omitempty"`
	// Hidden, Invisible and Control count the characters the parser
	// dropped (see ingest.Parsed).
	Hidden    int            `json:"hidden_characters"`
	Invisible int            `json:"invisible_characters"`
	Control   int            `json:"control_characters"`
	Warnings  []string       `json:"warnings,omitempty"`
	Blocks    []inspectBlock `json:"blocks"`
	Flags     []inspectFlag  `json:"flags"`
	Chunker   string         `json:"chunker,omitempty"`
	Chunks    []inspectChunk `json:"chunks,omitempty"` // with --chunks
	NChunks   int            `json:"chunk_count"`
	parsed    *ingest.Parsed // nil when refused
}

type inspectRefusal struct {
	Reason string `json:"reason"`
	Detail string `json:"detail"`
}

type inspectBlock struct {
	Kind     string     `json:"kind"`
	Level    int        `json:"level,omitempty"`
	Headings []string   `json:"headings,omitempty"`
	Page     int        `json:"page,omitempty"`
	Text     string     `json:"text"`
	Rows     [][]string `json:"rows,omitempty"` // a table's cells
}

type inspectFlag struct {
	Chunk int    `json:"chunk"` // -1: text dropped before chunking
	Kind  string `json:"kind"`
	Text  string `json:"text"`
}

type inspectChunk struct {
	ID       string   `json:"id"`
	Headings []string `json:"headings,omitempty"`
	Page     int      `json:"page,omitempty"`
	Text     string   `json:"text"`
}

// newInspect is `fonte inspect FILE…`: what fonte would index of each
// file, without opening any index.
func newInspect(o *options) *cobra.Command {
	var showChunks bool
	cmd := &cobra.Command{
		Use:   "inspect FILE [FILE…]",
		Short: "Show what fonte would extract and index from files, without indexing them",
		Long: `Inspect parses each FILE as fonte index would and prints what it would index:
the parser's verdict (accepted, or refused with the reason), title, language
and the analysis it gets, pages, characters, then the text block by block
with its heading paths (## A › B), page marks (--- page 3 ---) and tables
([table: R rows × C columns]), and the passages flagged as text addressed to
a model. With --chunks it also prints the chunks as the indexing flags
(--chunker, --chunk-size, --overlap) would cut them. No index is opened.

Exit status: 0 when every file was accepted, 1 when any was refused (each
named on stderr), 2 for usage errors.`,
		Args: argsUsage(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			s := engine.Settings{Chunker: o.chunker, ChunkSize: o.chunkSize, Overlap: o.overlap}
			if _, err := engine.Chunks(s, &ingest.Parsed{}); err != nil {
				return usageError{err}
			}
			out, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
			var refused []string
			for i, name := range args {
				if info, err := os.Stat(name); err == nil && info.IsDir() {
					return usageError{fmt.Errorf("%s is a folder: inspect takes files (fonte index %s --report FILE.json reports on a folder)", name, name)}
				}
				in, err := inspectFile(s, name, showChunks)
				if err != nil {
					return err
				}
				if in.Refusal != nil {
					refused = append(refused, name)
					fmt.Fprintf(stderr, "refused %s: %s: %s\n", name, in.Refusal.Reason, in.Refusal.Detail)
				}
				if o.asJSON {
					b, err := json.Marshal(in)
					if err != nil {
						return err
					}
					if _, err := fmt.Fprintf(out, "%s\n", b); err != nil {
						return err
					}
					continue
				}
				if i > 0 {
					fmt.Fprintln(out)
				}
				printInspected(out, in, showChunks)
			}
			if len(refused) > 0 {
				return exitError{exitFailure, fmt.Errorf("refused %d of %d files: %s", len(refused), len(args), strings.Join(refused, ", "))}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&showChunks, "chunks", false, "also print the chunks the engine would make (id, heading path, text)")
	addOutputFlags(cmd, o)
	addChunkingFlags(cmd, o)
	return cmd
}

// inspectFile parses one file as the index walk does (same size limit,
// same parser and quality check) and chunks it as the engine would.
func inspectFile(s engine.Settings, name string, withChunks bool) (*inspected, error) {
	in := &inspected{Path: name, Blocks: []inspectBlock{}, Flags: []inspectFlag{}}
	refuse := func(r *ingest.Refusal) *inspected {
		detail := r.Detail
		if r.Err != nil {
			if detail != "" {
				detail += ": "
			}
			detail += r.Err.Error()
		}
		in.Refusal = &inspectRefusal{Reason: string(r.Reason), Detail: detail}
		return in
	}
	if ingest.ParserFor(name) == nil {
		return refuse(&ingest.Refusal{Reason: ingest.ReasonUnsupported, Detail: fmt.Sprintf("no parser for extension %q", filepath.Ext(name))}), nil
	}
	info, err := os.Stat(name)
	if err != nil {
		return refuse(&ingest.Refusal{Reason: ingest.ReasonUnreadable, Err: err}), nil
	}
	if info.Size() > ingest.DefaultMaxSize {
		return refuse(&ingest.Refusal{Reason: ingest.ReasonTooLarge, Detail: fmt.Sprintf("%d bytes (limit %d)", info.Size(), ingest.DefaultMaxSize)}), nil
	}
	raw, err := os.ReadFile(name)
	if err != nil {
		return refuse(&ingest.Refusal{Reason: ingest.ReasonUnreadable, Err: err}), nil
	}
	p, err := ingest.Parse(name, raw)
	if err != nil {
		var r *ingest.Refusal
		if errors.As(err, &r) {
			return refuse(r), nil
		}
		return refuse(&ingest.Refusal{Reason: ingest.ReasonUnreadable, Err: err}), nil
	}
	chunks, err := engine.Chunks(s, p)
	if err != nil {
		return nil, usageError{err}
	}
	if len(chunks) == 0 {
		// Index refuses a document that yields no chunk.
		in.Refusal = &inspectRefusal{Reason: string(ingest.ReasonEmpty), Detail: "no text to chunk"}
	}
	in.Accepted = in.Refusal == nil
	in.parsed = p
	in.Format, in.Title, in.Language, in.Tags = p.Format, p.Doc.Title, p.Doc.Language, p.Doc.Tags
	in.Analysis = engine.Analysis(p.Doc.Language)
	in.Pages, in.Characters, in.OCR = p.Pages, utf8.RuneCountInString(p.Doc.Text), p.OCR
	in.Hidden, in.Invisible, in.Control, in.Warnings = p.Hidden, p.Invisible, p.Control, p.Warnings
	for _, b := range p.Blocks {
		ib := inspectBlock{Kind: string(b.Kind), Level: b.Level, Headings: b.Headings, Page: b.Page, Text: b.Text}
		if b.Kind == ingest.KindTable {
			in.Tables++
			ib.Rows = tableRows(b.Text)
		}
		in.Blocks = append(in.Blocks, ib)
	}
	for _, f := range ingest.FlagChunks(p, chunks) {
		in.Flags = append(in.Flags, inspectFlag{Chunk: f.Chunk, Kind: string(f.Kind), Text: f.Text})
	}
	in.NChunks = len(chunks)
	if withChunks {
		in.Chunker = chunkerLabel(s)
		for _, c := range chunks {
			in.Chunks = append(in.Chunks, inspectChunk{ID: c.ID, Headings: c.Headings, Page: c.Page, Text: c.Text})
		}
	}
	return in, nil
}

// chunkerLabel names the chunker settings for the output, with the
// defaults engine.Settings applies.
func chunkerLabel(s engine.Settings) string {
	d := chunk.DefaultStructure()
	size, overlap := s.ChunkSize, s.Overlap
	if size == 0 {
		size = d.MaxWords
	}
	if overlap == 0 && size == d.MaxWords {
		overlap = d.OverlapWords
	}
	return fmt.Sprintf("%s, %d words, overlap %d", s.Chunker, size, overlap)
}

// tableRows splits a table block (one row per line, cells separated by
// " | ") into cells.
func tableRows(text string) [][]string {
	var rows [][]string
	for _, line := range strings.Split(text, "\n") {
		rows = append(rows, strings.Split(line, " | "))
	}
	return rows
}

// headingPath is a heading path for display: the title heading that
// opens most documents is left out (as the chunker leaves it out), unless
// it is all there is.
func headingPath(path []string, title string) string {
	if len(path) > 1 && strings.EqualFold(strings.TrimSpace(path[0]), strings.TrimSpace(title)) {
		path = path[1:]
	}
	return strings.Join(path, " › ")
}

// printInspected writes the text form of one inspected file.
func printInspected(w io.Writer, in *inspected, showChunks bool) {
	fmt.Fprintf(w, "=== %s\n", in.Path)
	if in.parsed == nil {
		fmt.Fprintf(w, "refused: %s: %s\n", in.Refusal.Reason, in.Refusal.Detail)
		return
	}
	if in.Refusal != nil {
		fmt.Fprintf(w, "refused: %s: %s\n", in.Refusal.Reason, in.Refusal.Detail)
	} else {
		fmt.Fprintf(w, "accepted (%s)\n", in.Format)
	}
	lang := in.Language
	if lang == "" {
		lang = "not detected"
	}
	fmt.Fprintf(w, "title: %s\n", in.Title)
	fmt.Fprintf(w, "language: %s (analysis %s)\n", lang, in.Analysis)
	if len(in.Tags) > 0 {
		fmt.Fprintf(w, "tags: %s\n", strings.Join(in.Tags, ", "))
	}
	fmt.Fprintf(w, "pages: %d, characters: %d, blocks: %d, tables: %d, chunks: %d\n",
		in.Pages, in.Characters, len(in.Blocks), in.Tables, in.NChunks)
	ocr := map[int]ingest.OCRPage{}
	for _, o := range in.OCR {
		ocr[o.Page] = o
		fmt.Fprintf(w, "ocr: page %d, mean word confidence %.1f (%d words, %s)\n", o.Page, o.Confidence, o.Words, o.Language)
	}
	if in.Hidden+in.Invisible+in.Control > 0 {
		fmt.Fprintf(w, "dropped: %d hidden, %d invisible, %d control characters\n", in.Hidden, in.Invisible, in.Control)
	}
	for _, warn := range in.Warnings {
		fmt.Fprintf(w, "warning: %s\n", warn)
	}
	if len(in.Flags) == 0 {
		fmt.Fprintln(w, "flags: none")
	} else {
		fmt.Fprintf(w, "flags: %d (text addressed to a model; indexed as material, fenced and marked for a model)\n", len(in.Flags))
		for _, f := range in.Flags {
			where := fmt.Sprintf("chunk %d", f.Chunk)
			if f.Chunk < 0 {
				where = "dropped text"
			}
			fmt.Fprintf(w, "  flag %s %s: %s\n", where, f.Kind, f.Text)
		}
	}
	fmt.Fprintln(w, "\n--- text ---")
	page := 0
	for _, b := range in.Blocks {
		if b.Page > 0 && b.Page != page {
			page = b.Page
			if o, ok := ocr[page]; ok {
				fmt.Fprintf(w, "\n--- page %d (OCR, confidence %.0f) ---\n", page, o.Confidence)
			} else {
				fmt.Fprintf(w, "\n--- page %d ---\n", page)
			}
		}
		fmt.Fprintln(w)
		switch b.Kind {
		case string(ingest.KindHeading):
			fmt.Fprintf(w, "%s %s\n", strings.Repeat("#", max(b.Level, 1)), headingPath(append(append([]string{}, b.Headings...), b.Text), in.Title))
		case string(ingest.KindTable):
			cols := 0
			for _, r := range b.Rows {
				cols = max(cols, len(r))
			}
			fmt.Fprintf(w, "[table: %d rows × %d columns]\n", len(b.Rows), cols)
			for _, r := range b.Rows {
				fmt.Fprintf(w, "| %s |\n", strings.Join(r, " | "))
			}
		case string(ingest.KindCode):
			fmt.Fprintf(w, "```\n%s\n```\n", b.Text)
		default:
			fmt.Fprintln(w, b.Text)
		}
	}
	if showChunks {
		fmt.Fprintf(w, "\n--- chunks (%s) ---\n", in.Chunker)
		for _, c := range in.Chunks {
			where := ""
			if c.Page > 0 {
				where = fmt.Sprintf(" (page %d)", c.Page)
			}
			if h := headingPath(c.Headings, ""); h != "" {
				where += " " + h
			}
			fmt.Fprintf(w, "\n[%s]%s\n%s\n", c.ID, where, c.Text)
		}
	}
}
