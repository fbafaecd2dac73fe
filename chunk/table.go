package chunk

import (
	"slices"
	"strings"
)

// splitCells returns the cells of one table line, trimmed. The ingest
// parsers join cells with " | " and then collapse white space, so an
// empty cell leaves "| |" and an empty first or last cell a bare "|" at
// the line's edge: a separator is a pipe with white space or the line's
// edge on both sides. A pipe inside a word ("a|b") is not one.
func splitCells(line string) []string {
	var cells []string
	from := 0
	for i := 0; i < len(line); i++ {
		if line[i] != '|' {
			continue
		}
		if (i == 0 || isSpaceByte(line[i-1])) && (i == len(line)-1 || isSpaceByte(line[i+1])) {
			cells = append(cells, strings.TrimSpace(line[from:i]))
			from = i + 1
		}
	}
	return append(cells, strings.TrimSpace(line[from:]))
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' }

// tableRow is one data row of a table block: its byte span in the block's
// text and its text as "Column: value" pairs.
type tableRow struct {
	start, end int
	text       string
}

// tableRows reads a table block (one row per line, cells separated by
// " | ") as a header and data rows. The header is the first line with
// more than one cell, or the first line of a one-column table; a line
// before it with a single cell (an HTML caption) is kept as the caption
// and heads every row's text. Each data row reads as "Column: value"
// pairs joined by " | ", empty cells left out, so a row says what its
// numbers and names are without the header line beside it. ok is false
// for a table with no data row under its header.
func tableRows(text string) (rows []tableRow, ok bool) {
	type line struct {
		start, end int
		cells      []string
	}
	var lines []line
	cols := 0
	for off := 0; off <= len(text); {
		end := strings.IndexByte(text[off:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += off
		}
		if s := strings.TrimSpace(text[off:end]); s != "" {
			cells := splitCells(text[off:end])
			lines = append(lines, line{off, end, cells})
			cols = max(cols, len(cells))
		}
		off = end + 1
	}
	head := 0
	var caption string
	if cols > 1 && len(lines) > 0 && len(lines[0].cells) == 1 {
		caption, head = lines[0].cells[0], 1
	}
	if len(lines) < head+2 {
		return nil, false
	}
	header := lines[head].cells
	if len(header) > 1 && !slices.ContainsFunc(lines[head+1:], func(l line) bool { return filled(l.cells) > 1 }) {
		// Every row under a header of several cells is one cell: a layout
		// table (DocBook's notes and warnings: "[Nota] | Nota" over the
		// note's text), not data, and it stays whole with its text.
		return nil, false
	}
	for _, l := range lines[head+1:] {
		var pairs []string
		for i, v := range l.cells {
			if v == "" {
				continue
			}
			name := ""
			if i < len(header) {
				name = header[i]
			}
			if name == "" || name == v {
				pairs = append(pairs, v)
			} else {
				pairs = append(pairs, name+": "+v)
			}
		}
		if len(pairs) == 0 {
			continue
		}
		t := strings.Join(pairs, " | ")
		if caption != "" {
			t = caption + "\n" + t
		}
		rows = append(rows, tableRow{l.start, l.end, t})
	}
	return rows, len(rows) > 0
}

// filled counts the non-empty cells.
func filled(cells []string) int {
	n := 0
	for _, c := range cells {
		if c != "" {
			n++
		}
	}
	return n
}
