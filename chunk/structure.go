package chunk

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fonte-rag/fonte"
)

// BlockKind is the structural role of a Block, as the ingest parsers emit
// them.
type BlockKind string

// The kinds Structure distinguishes. Code is atomic: a chunk never cuts a
// listing in two, because half of one reads as nonsense. A table is
// chunked by rows, each with its header (see Structure).
const (
	Heading   BlockKind = "heading"
	Paragraph BlockKind = "paragraph"
	List      BlockKind = "list"
	Table     BlockKind = "table"
	Code      BlockKind = "code"
)

// Block is one structural unit of a document: its kind, its text, the
// heading path above it and its byte span in the document text
// (Document.Text[Start:End] == Text).
type Block struct {
	Kind     BlockKind
	Level    int // heading level, 0 for other kinds
	Text     string
	Headings []string // enclosing headings, outermost first (not the heading itself)
	Start    int
	End      int
	Page     int
}

// Structure chunks a document by its structure: one section per heading
// path, long sections split at sentence boundaries with an overlap, tiny
// sections merged with the section that follows, code never split, and
// tables chunked by rows with their header. Sizes are in words (whitespace-separated), which behaves the same
// in English and Italian and needs no model tokenizer.
//
// A table (a block of kind Table with a header line and data rows) becomes
// one chunk per row whose Text is the row as "Column: value" pairs (see
// tableRows): a question about one cell finds the row whose header words
// and value it names, and its citation shows the row with its header. The
// row chunk's Start and End are the row's line in Document.Text, so a
// citation points at the row in the document. A table without a data row
// stays whole, like code.
//
// Every other chunk's Text is exactly Document.Text[Start:End], so a
// citation can quote and locate it; the heading path is kept in
// Chunk.Headings and goes into the indexed text through Enriched.
type Structure struct {
	// MaxWords is the target chunk size; a chunk exceeds it only when a
	// single table or code block does. A sentence longer than it is cut
	// at clause punctuation, and a clause longer than it between words
	// (see boundedSpans).
	MaxWords int
	// OverlapWords is how much text, in whole sentences, a piece of a split
	// section repeats from the end of the previous piece, so an answer that
	// straddles the cut is whole in one of them.
	OverlapWords int
	// MinWords is the size under which a section is merged with the next
	// one (when the two fit in MaxWords), so a two-line section does not
	// become a chunk too thin to retrieve.
	MinWords int
}

// DefaultStructure is fonte's default chunker: about 180 words a chunk (a
// few paragraphs, ~250 model tokens), 30 words of overlap, sections under
// 30 words merged. Small enough that a chunk is about one thing, large
// enough to carry its context; the eval command measures the choice on
// your own questions (--chunk-size, --overlap).
func DefaultStructure() Structure {
	return Structure{MaxWords: 180, OverlapWords: 30, MinWords: 30}
}

// Validate reports settings that cannot work.
func (s Structure) Validate() error {
	if s.MaxWords <= 0 {
		return fmt.Errorf("chunk: size must be positive, got %d words", s.MaxWords)
	}
	if s.OverlapWords < 0 || s.OverlapWords >= s.MaxWords {
		return fmt.Errorf("chunk: overlap must be between 0 and the size (%d words), got %d", s.MaxWords, s.OverlapWords)
	}
	if s.MinWords < 0 {
		return fmt.Errorf("chunk: minimum section size must not be negative, got %d", s.MinWords)
	}
	return nil
}

// String describes the settings; stores record it to refuse mixing chunkers.
// v2 chunks tables by rows (v1 kept them whole), so an index built with
// v1 is rebuilt rather than left with whole tables for unchanged files;
// v3 ends no sentence at an Italian legal abbreviation ("D.Lgs.", "ss.",
// "artt."), which can move a long block's chunk boundary.
func (s Structure) String() string {
	return fmt.Sprintf("structure/v3 size=%d overlap=%d min=%d", s.MaxWords, s.OverlapWords, s.MinWords)
}

// piece is a span of the document ready to become (part of) a chunk.
type piece struct {
	start, end int
	words      int
	page       int
	text       string // the chunk's text when it is not the span (a table row), else ""
}

// section is the content under one heading path.
type section struct {
	headings []string
	heading  *Block // the heading block that opened it, nil for text before any heading
	blocks   []Block
	words    int
	tables   bool // holds a table, which is chunked by rows and never merged
}

// Split chunks doc given its blocks. Blocks must be in document order with
// spans inside doc.Text.
func (s Structure) Split(doc fonte.Document, blocks []Block) []fonte.Chunk {
	if s.Validate() != nil {
		s = DefaultStructure()
	}
	// Group blocks into sections.
	var secs []*section
	cur := &section{}
	for i := range blocks {
		b := blocks[i]
		if b.Kind == Heading {
			if len(cur.blocks) > 0 || cur.heading != nil {
				secs = append(secs, cur)
			}
			path := append(slices.Clone(b.Headings), strings.TrimSpace(b.Text))
			cur = &section{headings: path, heading: &blocks[i]}
			continue
		}
		cur.blocks = append(cur.blocks, b)
		cur.words += wordCount(b.Text)
		if b.Kind == Table {
			cur.tables = true
		}
	}
	secs = append(secs, cur)

	var out []fonte.Chunk
	emit := func(headings []string, p piece) {
		text := p.text
		if text == "" {
			text = doc.Text[p.start:p.end]
		}
		out = append(out, fonte.Chunk{
			ID:       ID(doc.ID, len(out)),
			DocID:    doc.ID,
			Title:    doc.Title,
			Headings: headings,
			Text:     text,
			Start:    p.start,
			End:      p.end,
			Page:     p.page,
			Position: len(out),
		})
	}

	for i := 0; i < len(secs); i++ {
		sec := secs[i]
		if len(sec.blocks) == 0 {
			continue // a heading with nothing under it lives on in its children's paths
		}
		// Merge tiny sections forward while the result still fits: the
		// merged chunk keeps the headings the sections share, and the
		// later sections' heading lines stay in its text.
		if sec.words < s.MinWords && !sec.tables {
			headings := sec.headings
			p := piece{start: sec.blocks[0].Start, end: sec.blocks[len(sec.blocks)-1].End, words: sec.words, page: sec.blocks[0].Page}
			j := i + 1
			for ; j < len(secs); j++ {
				next := secs[j]
				if len(next.blocks) == 0 {
					if next.heading == nil {
						break
					}
					continue
				}
				if p.words >= s.MinWords || p.words+next.words > s.MaxWords || next.tables {
					break
				}
				p.end = next.blocks[len(next.blocks)-1].End
				p.words += next.words
				headings = commonPrefix(headings, next.headings)
			}
			if j > i+1 {
				emit(headings, p)
				i = j - 1
				continue
			}
		}
		for _, p := range s.pack(sec.blocks, doc.Text) {
			emit(sec.headings, p)
		}
	}
	return out
}

// pack fills chunks with a section's blocks in order, splitting blocks
// larger than MaxWords at sentence boundaries (code excepted); a table with
// rows becomes one piece per row, between the blocks before and after it.
func (s Structure) pack(blocks []Block, text string) []piece {
	var out []piece
	from := 0
	for i, b := range blocks {
		if b.Kind != Table {
			continue
		}
		rows, ok := tableRows(b.Text)
		if !ok {
			continue
		}
		out = append(out, s.packText(blocks[from:i])...)
		for _, r := range rows {
			out = append(out, piece{b.Start + r.start, b.Start + r.end, wordCount(r.text), b.Page, r.text})
		}
		from = i + 1
	}
	return append(out, s.packText(blocks[from:])...)
}

// packText is pack for blocks without a table by rows.
func (s Structure) packText(blocks []Block) []piece {
	var units []piece // sentences of splittable blocks, whole atomic blocks
	var atomic []bool
	for _, b := range blocks {
		n := wordCount(b.Text)
		if b.Kind == Table || b.Kind == Code || n <= s.MaxWords {
			units = append(units, piece{b.Start, b.End, n, b.Page, ""})
			atomic = append(atomic, true)
			continue
		}
		for _, sp := range boundedSpans(b.Text, s.MaxWords) {
			units = append(units, piece{b.Start + sp[0], b.Start + sp[1], wordCount(b.Text[sp[0]:sp[1]]), b.Page, ""})
			atomic = append(atomic, false)
		}
	}
	var out []piece
	i := 0
	for i < len(units) {
		p := units[i]
		j := i + 1
		for j < len(units) && p.words+units[j].words <= s.MaxWords {
			p.end = units[j].end
			p.words += units[j].words
			j++
		}
		out = append(out, p)
		if j >= len(units) {
			break
		}
		// Overlap: start the next chunk a few sentences back, but only
		// within split text (an atomic block is never repeated) and always
		// moving forward.
		k := j
		back := 0
		for k-1 > i && !atomic[k-1] && back+units[k-1].words <= s.OverlapWords {
			back += units[k-1].words
			k--
		}
		i = k
	}
	return out
}

func commonPrefix(a, b []string) []string {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return a[:n:n]
}

// abbreviations that end with a full stop without ending a sentence, in
// English and Italian (lower-cased, without the final dot).
var abbreviations = map[string]bool{
	"e.g": true, "i.e": true, "etc": true, "vs": true, "mr": true, "mrs": true, "ms": true, "dr": true,
	"prof": true, "st": true, "no": true, "fig": true, "approx": true, "inc": true, "ltd": true, "jr": true, "sr": true,
	"ecc": true, "pag": true, "art": true, "sig": true, "sigg": true, "dott": true, "dott.ssa": true, "ing": true,
	"avv": true, "geom": true, "rag": true, "p.es": true, "es": true, "cfr": true, "n": true, "nr": true, "tel": true,
	"cap": true, "par": true, "vol": true, "ca": true,
	// Italian legal references: "artt. 13 e 14", "co. 2", "lett. a",
	// "e ss.", "segg.", "D. Lgs. 82/2005", "nn. 3 e 4".
	"artt": true, "co": true, "lett": true, "ss": true, "segg": true, "lgs": true, "nn": true,
	"cit": true, "rif": true, "sez": true, "cf": true, "al": true,
}

// dottedAbbreviationRE: an abbreviation written with inner dots whose
// first part has one or two letters ("d.lgs", "d.p.r", "e.g", "p.es"):
// its last dot ends no sentence. A domain ("gov.uk") has a longer first
// part and still can.
var dottedAbbreviationRE = regexp.MustCompile(`^\pL{1,2}(?:\.\pL{1,4})+$`)

// SentenceSpans splits text into sentences, returning [start, end) byte
// spans without surrounding white space. A sentence ends at . ! ? or …
// (with any closing quotes or brackets) followed by white space and then an
// upper-case letter, a digit or an opening quote or bracket, or at a line
// break that separates list items or lines; common English and Italian
// abbreviations, initials and decimal numbers do not end sentences.
func SentenceSpans(text string) [][2]int {
	var spans [][2]int
	start := -1
	add := func(end int) {
		if start < 0 {
			return
		}
		e := end
		for e > start {
			r, size := utf8.DecodeLastRuneInString(text[start:e])
			if !unicode.IsSpace(r) {
				break
			}
			e -= size
		}
		if e > start {
			spans = append(spans, [2]int{start, e})
		}
		start = -1
	}
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if start < 0 && !unicode.IsSpace(r) {
			start = i
		}
		next := i + size
		switch {
		case r == '\n':
			add(i)
		case r == '.' || r == '!' || r == '?' || r == '…':
			end := next
			for end < len(text) && strings.ContainsRune(`"')]»”’`, rune(text[end])) {
				end++
			}
			if endsSentence(text, i, end, r) {
				add(end)
				next = end
			}
		}
		i = next
	}
	add(len(text))
	return spans
}

// endsSentence decides whether the terminator at text[i] (closing quotes
// through text[end]) ends a sentence.
func endsSentence(text string, i, end int, r rune) bool {
	// Must be followed by white space (or the end), then a plausible start.
	if end < len(text) {
		c, _ := utf8.DecodeRuneInString(text[end:])
		if !unicode.IsSpace(c) {
			return false
		}
	}
	j := end
	for j < len(text) {
		c, size := utf8.DecodeRuneInString(text[j:])
		if !unicode.IsSpace(c) {
			break
		}
		j += size
	}
	if j < len(text) {
		c, _ := utf8.DecodeRuneInString(text[j:])
		if !(unicode.IsUpper(c) || unicode.IsDigit(c) || strings.ContainsRune(`"'(«“‘[`, c)) {
			return false
		}
	}
	if r != '.' {
		return true
	}
	// The word before the dot: an abbreviation or a single letter (an
	// initial) does not end the sentence.
	k := i
	for k > 0 {
		c, size := utf8.DecodeLastRuneInString(text[:k])
		if unicode.IsSpace(c) || strings.ContainsRune(`"'(«“‘[`, c) {
			break
		}
		k -= size
	}
	word := strings.ToLower(text[k:i])
	if abbreviations[word] || dottedAbbreviationRE.MatchString(word) {
		return false
	}
	if utf8.RuneCountInString(word) == 1 && unicode.IsLetter([]rune(word)[0]) {
		return false
	}
	return !itemNumber(text, k, word)
}

// itemNumber reports whether word, a run ending at a full stop and
// starting at text[k], numbers a list item ("1. Submit the form"): one to
// three digits opening a line, or following a colon, a semicolon, a
// bullet or a sentence's end. Such a dot opens the item rather than
// ending a sentence, so the number stays with the item's text; a number
// after a word ("take 10. Then") still ends its sentence.
func itemNumber(text string, k int, word string) bool {
	if len(word) > 3 || strings.TrimLeft(word, "0123456789") != "" {
		return false
	}
	for k > 0 {
		c, size := utf8.DecodeLastRuneInString(text[:k])
		if c == '\n' {
			return true
		}
		if !unicode.IsSpace(c) {
			return strings.ContainsRune(":;.!?•·-–*", c)
		}
		k -= size
	}
	return true
}
