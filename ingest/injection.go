package ingest

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/guard"
	"github.com/fonte-rag/fonte/ingest/parse"
)

// GuardMeta is the document metadata key (fonte.Record.Meta, kept by
// every store) under which ingest records the chunks whose text reads as
// an instruction to a model: compact JSON, a list of Flag.
const GuardMeta = "guard"

// Flag is one place of a document that reads as an instruction to a
// model rather than as material: an imperative addressed to an assistant,
// a role marker, a forged citation marker, or hidden text.
type Flag struct {
	// Chunk is the position of the flagged chunk in its document
	// (fonte.Chunk.Position), or -1 for text dropped before chunking
	// (elements hidden from readers, invisible characters), which no
	// chunk holds. A flag of the document's title is on its first chunk,
	// a flag of a heading on the first chunk under it.
	Chunk int        `json:"c"`
	Kind  guard.Kind `json:"k"`
	// Text is the matched text, shortened to flagTextMax runes; for a
	// title or a heading, the whole title or heading after "title: " or
	// "heading: ", since it reaches a model whole as the source's label.
	Text string `json:"t,omitempty"`
}

// flagTextMax bounds the text a flag keeps: enough to recognise the
// passage in a report, short enough to keep the metadata small.
const flagTextMax = 80

// invisibleMin is the number of dropped invisible characters from which
// a document is flagged as carrying hidden text: one or two zero-width
// spaces or soft hyphens are ordinary artefacts of copied text (guard
// draws the same line for runs), a smuggled sentence in Unicode tags
// counts one character per letter.
const invisibleMin = 3

// FlagChunks returns the flags of a document's chunks: guard's findings
// in each chunk's text, one flag per kind and chunk, in the document's
// title and in each of its headings (once per kind, on the first chunk
// that carries it: a model reads them as the label of every source they
// head, see answer.Label), and, when p is not
// nil, one flag for the text the parser dropped because a reader would
// not see it (p.Hidden characters of hidden HTML elements, p.Invisible
// zero-width and tag characters). The chunks keep their text: a flagged
// passage may still state facts, and the answer stage decides what to do
// with it.
func FlagChunks(p *Parsed, chunks []fonte.Chunk) []Flag {
	var out []Flag
	if p != nil && p.Hidden > 0 {
		out = append(out, Flag{Chunk: -1, Kind: guard.Hidden,
			Text: fmt.Sprintf("%d characters in elements hidden from readers (dropped)", p.Hidden)})
	}
	if p != nil && p.Invisible >= invisibleMin {
		out = append(out, Flag{Chunk: -1, Kind: guard.Hidden,
			Text: fmt.Sprintf("%d invisible characters: zero-width, soft hyphens or Unicode tags (dropped)", p.Invisible)})
	}
	labels := map[string]bool{} // titles and headings already checked
	for i, c := range chunks {
		pos := c.Position
		if pos == 0 && i > 0 {
			pos = i
		}
		for _, l := range chunkLabels(c) {
			if labels[l.text] {
				continue
			}
			labels[l.text] = true
			for _, k := range guard.Kinds(guard.Check(l.text)) {
				out = append(out, Flag{Chunk: pos, Kind: k, Text: parse.Shorten(l.place+": "+l.text, flagTextMax)})
			}
		}
		seen := map[guard.Kind]bool{}
		for _, f := range guard.Check(c.Text) {
			if seen[f.Kind] {
				continue
			}
			seen[f.Kind] = true
			out = append(out, Flag{Chunk: pos, Kind: f.Kind, Text: parse.Shorten(f.Text, flagTextMax)})
		}
	}
	return out
}

// label is a title or a heading of a chunk, and which of the two.
type label struct{ place, text string }

// chunkLabels returns the title and headings of c, the title first; a
// heading that repeats the title (a Markdown "# Title") is the title.
func chunkLabels(c fonte.Chunk) []label {
	var out []label
	if t := strings.TrimSpace(c.Title); t != "" {
		out = append(out, label{"title", t})
	}
	for _, h := range c.Headings {
		if h = strings.TrimSpace(h); h != "" && !strings.EqualFold(h, strings.TrimSpace(c.Title)) {
			out = append(out, label{"heading", h})
		}
	}
	return out
}

// EncodeFlags returns flags as the compact JSON kept under GuardMeta, or
// "" when there are none.
func EncodeFlags(flags []Flag) string {
	if len(flags) == 0 {
		return ""
	}
	b, err := json.Marshal(flags)
	if err != nil {
		return "" // a Flag always marshals
	}
	return string(b)
}

// DecodeFlags reads the value kept under GuardMeta; "" is no flags.
func DecodeFlags(s string) ([]Flag, error) {
	if s == "" {
		return nil, nil
	}
	var out []Flag
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		return nil, fmt.Errorf("ingest: reading the %q metadata: %w", GuardMeta, err)
	}
	return out, nil
}
