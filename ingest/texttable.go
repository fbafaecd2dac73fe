package ingest

import (
	"strings"
)

// Tables drawn in plain text.
//
// reStructuredText, and plain text written the same way, draws tables two
// ways: a grid table boxes its cells with "+---+" borders and "|" sides,
// its header above a "+===+" border; a simple table sets its columns
// under "=====  =====" rules, its header between the first two of three.
// A cell may run over several lines, and a reader sees it as one piece of
// text under its column's header. Such a table is read here into what
// fonte makes of a Markdown or HTML table: one row a line, cells joined
// by " | ", the header first (several header rows merged, column by
// column), so the chunker and the answerer read a row with its header. A
// table without a header keeps its rows on their lines, cells separated
// by a space, as plain text: taking its first row for a header would
// label every row with it. A drawing that is not a well-formed table
// (spanning cells, text across a column's edge, no closing rule) stays
// the text it was.

// textPart is a run of a plain-text document read out: text to be laid
// out as plain text, or a table already read into rows.
type textPart struct {
	text  string
	table bool // rows on lines, laid out already
	head  bool // a table whose first line is its header
}

// textLine is one line of a plain-text document being read, or a table
// that stood in its place.
type textLine struct {
	text  string
	table *textPart
}

// joinParts groups lines into parts: the text between tables joined and
// passed through inline (the format's inline markup), and the tables.
func joinParts(lines []textLine, inline func(string) string) []textPart {
	var parts []textPart
	var run []string
	flush := func() {
		if len(run) > 0 {
			parts = append(parts, textPart{text: inline(strings.Join(run, "\n"))})
			run = nil
		}
	}
	for _, l := range lines {
		if l.table != nil {
			flush()
			parts = append(parts, *l.table)
			continue
		}
		run = append(run, l.text)
	}
	flush()
	return parts
}

// plainLines reads the drawn tables of plain text (not reStructuredText)
// and leaves its other lines as they are.
func plainLines(s string) []textLine {
	lines := strings.Split(s, "\n")
	var out []textLine
	for i := 0; i < len(lines); i++ {
		if t, n := drawnTable(lines[i:], plainEmphasis); n > 0 {
			out = append(out, textLine{table: t})
			i += n - 1
			continue
		}
		out = append(out, textLine{text: lines[i]})
	}
	return out
}

// maxDrawnLines bounds the lines one drawn table is looked for in, so that
// many openers of tables that never close cost a bounded scan each; a
// longer drawing is read in pieces or left as drawn.
const maxDrawnLines = 500

// drawnTable reads the grid or simple table that lines open with, each
// cell's text passed through inline; n is the number of lines it takes,
// 0 when lines do not open a well-formed table.
func drawnTable(lines []string, inline func(string) string) (*textPart, int) {
	lines = lines[:min(len(lines), maxDrawnLines)]
	if t, n := gridTable(lines, inline); n > 0 {
		return t, n
	}
	return simpleTable(lines, inline)
}

// indentOf returns the leading spaces of a line and the rest as runes.
func indentOf(line string) (string, []rune) {
	t := strings.TrimLeft(line, " ")
	return line[:len(line)-len(t)], []rune(strings.TrimRight(t, " \t\r"))
}

// gridBorder reports whether r is a grid border ("+---+--+", "+===+")
// with its "+" at cols, and its fill character.
func gridBorder(r []rune, cols []int) (rune, bool) {
	if len(cols) == 0 || len(r) != cols[len(cols)-1]+1 {
		return 0, false
	}
	fill := rune(0)
	c := 0
	for i, x := range r {
		if c < len(cols) && i == cols[c] {
			if x != '+' {
				return 0, false
			}
			c++
			continue
		}
		if fill == 0 {
			fill = x
		}
		if x != fill || (x != '-' && x != '=') {
			return 0, false
		}
	}
	return fill, c == len(cols)
}

// gridTable reads a grid table (see drawnTable).
func gridTable(lines []string, inline func(string) string) (*textPart, int) {
	indent, first := indentOf(lines[0])
	if len(first) < 3 || first[0] != '+' || first[1] != '-' {
		return nil, 0
	}
	var cols []int
	for i, x := range first {
		if x == '+' {
			cols = append(cols, i)
		}
	}
	if fill, ok := gridBorder(first, cols); !ok || fill != '-' || len(cols) < 2 {
		return nil, 0
	}
	var header, rows [][]string
	var cell [][]string // the lines of each cell of the row being read
	end := 0
	for j := 1; j < len(lines); j++ {
		ind, r := indentOf(lines[j])
		if ind != indent || len(r) == 0 {
			break
		}
		if fill, ok := gridBorder(r, cols); ok {
			if cell == nil {
				return nil, 0 // two borders in a row
			}
			rows = append(rows, cellTexts(cell, inline))
			if fill == '=' {
				if header != nil {
					return nil, 0
				}
				header, rows = rows, nil
			}
			cell, end = nil, j+1
			continue
		}
		if r[0] != '|' && r[0] != '+' {
			break // the table ended at its last border
		}
		if len(r) != cols[len(cols)-1]+1 {
			return nil, 0
		}
		if cell == nil {
			cell = make([][]string, len(cols)-1)
		}
		for c := range cols {
			if r[cols[c]] != '|' {
				return nil, 0 // a spanning cell
			}
			if c+1 < len(cols) {
				cell[c] = append(cell[c], string(r[cols[c]+1:cols[c+1]]))
			}
		}
	}
	if end == 0 || len(rows) == 0 {
		return nil, 0
	}
	return tablePart(header, rows), end
}

// cellTexts joins the lines of each cell into its text: the lines of a
// line block ("| a", "| b") and of paragraphs read on, as a reader reads
// a cell.
func cellTexts(cells [][]string, inline func(string) string) []string {
	out := make([]string, len(cells))
	for i, lines := range cells {
		var words []string
		for _, l := range lines {
			t := strings.TrimSpace(l)
			if t == "|" || strings.HasPrefix(t, "| ") {
				t = strings.TrimSpace(t[1:])
			}
			if t != "" {
				words = append(words, t)
			}
		}
		out[i] = collapseSpaces(inline(strings.Join(words, " ")))
	}
	return out
}

// tablePart lays rows out as a table: the header rows merged into one line
// first, when there are any, then a row a line, cells joined by " | "; a
// table without header keeps its rows, cells joined by a space.
func tablePart(header, rows [][]string) *textPart {
	var out []string
	if len(header) > 0 {
		merged := make([]string, 0, len(header[0]))
		for _, h := range header {
			for c, v := range h {
				if c >= len(merged) {
					merged = append(merged, "")
				}
				merged[c] = strings.TrimSpace(merged[c] + " " + v)
			}
		}
		out = append(out, strings.Join(merged, " | "))
	}
	sep := " | "
	if len(header) == 0 {
		sep = " "
	}
	for _, r := range rows {
		if line := strings.TrimSpace(strings.Join(r, sep)); strings.Trim(line, "| ") != "" {
			out = append(out, line)
		}
	}
	return &textPart{text: strings.Join(out, "\n"), table: true, head: len(header) > 0}
}

// simpleRule reads a simple table's rule ("=====  ===  ====") into the
// start and end of each column; ok needs two columns at least.
func simpleRule(r []rune) (cols [][2]int, ok bool) {
	for i := 0; i < len(r); {
		if r[i] == ' ' {
			i++
			continue
		}
		if r[i] != '=' {
			return nil, false
		}
		j := i
		for j < len(r) && r[j] == '=' {
			j++
		}
		cols = append(cols, [2]int{i, j})
		i = j
	}
	return cols, len(cols) >= 2
}

// sameRule reports whether rule r marks the columns cols: the same
// starts, and the same ends but the last column's, which may run on.
func sameRule(r []rune, cols [][2]int) bool {
	c, ok := simpleRule(r)
	if !ok || len(c) != len(cols) {
		return false
	}
	for i := range c {
		if c[i][0] != cols[i][0] || (i+1 < len(c) && c[i][1] != cols[i][1]) {
			return false
		}
	}
	return true
}

// simpleTable reads a simple table (see drawnTable).
func simpleTable(lines []string, inline func(string) string) (*textPart, int) {
	indent, first := indentOf(lines[0])
	cols, ok := simpleRule(first)
	if !ok {
		return nil, 0
	}
	var rules []int
	end := 0
	for j := 1; j < len(lines) && end == 0; j++ {
		ind, r := indentOf(lines[j])
		if len(r) == 0 {
			continue
		}
		if len(ind) < len(indent) {
			return nil, 0
		}
		r = []rune(strings.TrimRight(lines[j][len(indent):], " \t\r"))
		if sameRule(r, cols) {
			rules = append(rules, j)
			if len(rules) > 2 {
				return nil, 0
			}
			if j+1 == len(lines) || strings.TrimSpace(lines[j+1]) == "" {
				end = j + 1
			}
			continue
		}
		for c := 0; c+1 < len(cols); c++ {
			for k := cols[c][1]; k < min(len(r), cols[c+1][0]); k++ {
				if r[k] != ' ' {
					return nil, 0 // text across a column's edge: prose, no table
				}
			}
		}
	}
	if end == 0 || len(rules) > 2 {
		return nil, 0
	}
	read := func(from, to int) ([][]string, bool) {
		var rows [][][]string
		for _, l := range lines[from:to] {
			if strings.TrimSpace(l) == "" {
				continue
			}
			r := []rune(strings.TrimRight(l[len(indent):], " \t\r"))
			cells := make([]string, len(cols))
			for c := range cols {
				lo, hi := cols[c][0], len(r)
				if c+1 < len(cols) {
					hi = min(hi, cols[c+1][0])
					// Text between columns crosses a column's edge.
					for k := cols[c][1]; k < hi; k++ {
						if r[k] != ' ' {
							return nil, false
						}
					}
				}
				if lo < hi {
					cells[c] = string(r[lo:hi])
				}
			}
			if strings.TrimSpace(cells[0]) != "" || len(rows) == 0 {
				rows = append(rows, make([][]string, len(cols)))
			}
			row := rows[len(rows)-1]
			for c := range cells {
				row[c] = append(row[c], cells[c])
			}
		}
		out := make([][]string, len(rows))
		for i, r := range rows {
			out[i] = cellTexts(r, inline)
		}
		return out, true
	}
	var header, rows [][]string
	if len(rules) == 2 {
		h, ok1 := read(1, rules[0])
		b, ok2 := read(rules[0]+1, rules[1])
		if !ok1 || !ok2 {
			return nil, 0
		}
		header, rows = h, b
	} else {
		b, ok := read(1, rules[0])
		if !ok {
			return nil, 0
		}
		rows = b
	}
	if len(rows) == 0 {
		return nil, 0
	}
	return tablePart(header, rows), end
}
