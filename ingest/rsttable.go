package ingest

import (
	"strconv"
	"strings"
)

// The table directives of reStructuredText: csv-table, whose rows are
// comma-separated values (":header:" a row of its own), and list-table,
// whose rows are the items of a bullet list, each a list of cells. Both
// are read into the table layout of texttable.go, the directive's title
// as the table's caption line (as an HTML caption is). A table loaded
// from a file (":file:", ":url:") has no rows here; a body that is not
// such a table is read as the text it is.

// rstOption is one ":name: value" option of a directive.
type rstOption struct{ name, value string }

// rstOptions splits a directive's body (unindented) into its options and
// its content; an option's value may run on over indented lines.
func rstOptions(body []string) (opts []rstOption, content []string) {
	i := 0
	for ; i < len(body); i++ {
		t := body[i]
		if strings.TrimSpace(t) == "" {
			break
		}
		if strings.HasPrefix(t, ":") {
			if name, value, ok := strings.Cut(t[1:], ":"); ok && name != "" {
				opts = append(opts, rstOption{strings.ToLower(name), strings.TrimSpace(value)})
				continue
			}
		}
		if len(opts) > 0 && strings.HasPrefix(t, " ") {
			opts[len(opts)-1].value = strings.TrimSpace(opts[len(opts)-1].value + " " + strings.TrimSpace(t))
			continue
		}
		break
	}
	return opts, body[i:]
}

// rstDirectiveTable reads a csv-table or list-table directive's body; ok
// is false when it holds no table to read.
func rstDirectiveTable(name, title string, body []string) (*textPart, bool) {
	opts, content := rstOptions(body)
	headerRows := 0
	var header []string
	delim, quote, escape := ',', '"', rune(0)
	for _, o := range opts {
		switch o.name {
		case "file", "url":
			return nil, false
		case "header-rows":
			n, err := strconv.Atoi(o.value)
			if err != nil || n < 0 {
				return nil, false
			}
			headerRows = n
		case "header":
			h := csvRecords(o.value, ',', '"', 0)
			if len(h) != 1 {
				return nil, false
			}
			header = h[0]
		case "delim", "quote", "escape":
			r := []rune(o.value)
			switch {
			case o.value == "tab":
				r = []rune{'\t'}
			case o.value == "space":
				r = []rune{' '}
			case len(r) != 1:
				return nil, false
			}
			switch o.name {
			case "delim":
				delim = r[0]
			case "quote":
				quote = r[0]
			default:
				escape = r[0]
			}
		}
	}
	var rows [][]string
	switch name {
	case "csv-table":
		rows = csvRecords(strings.Join(content, "\n"), delim, quote, escape)
	case "list-table":
		var ok bool
		if rows, ok = listTableRows(content); !ok {
			return nil, false
		}
	}
	if headerRows > len(rows) {
		return nil, false
	}
	var head [][]string
	if header != nil {
		head = append(head, header)
	}
	head = append(head, rows[:headerRows]...)
	rows = rows[headerRows:]
	if len(rows) == 0 {
		return nil, false
	}
	for _, r := range append(head, rows...) {
		for c := range r {
			r[c] = collapseSpaces(rstInline(r[c]))
		}
	}
	t := tablePart(head, rows)
	if title = strings.TrimSpace(rstInline(title)); title != "" {
		t.text = title + "\n" + t.text
	}
	return t, true
}

// csvRecords reads comma-separated values as docutils does: white space
// after a delimiter is skipped, a quoted value may hold delimiters, line
// breaks and its quote doubled (or after the escape character), blank
// lines are no records. Nothing is lost on broken input: an unclosed
// quote takes the rest of the text into its value, and rows keep the
// number of values they have.
func csvRecords(s string, delim, quote, escape rune) [][]string {
	var records [][]string
	var rec []string
	var val strings.Builder
	r := []rune(s)
	atStart := true // at the start of a value
	quoted := false
	endRecord := func() {
		rec = append(rec, strings.TrimSpace(val.String()))
		val.Reset()
		if len(rec) > 1 || rec[0] != "" {
			records = append(records, rec)
		}
		rec, atStart = nil, true
	}
	for i := 0; i < len(r); i++ {
		c := r[i]
		switch {
		case quoted:
			switch {
			case escape != 0 && c == escape && i+1 < len(r):
				i++
				val.WriteRune(r[i])
			case c == quote && i+1 < len(r) && r[i+1] == quote:
				i++
				val.WriteRune(quote)
			case c == quote:
				quoted = false
			default:
				val.WriteRune(c)
			}
		case atStart && c == ' ' && delim != ' ':
		case atStart && c == quote:
			quoted, atStart = true, false
		case c == delim:
			rec = append(rec, strings.TrimSpace(val.String()))
			val.Reset()
			atStart = true
		case c == '\n':
			endRecord()
		case escape != 0 && c == escape && i+1 < len(r):
			i++
			val.WriteRune(r[i])
			atStart = false
		default:
			val.WriteRune(c)
			atStart = false
		}
	}
	if val.Len() > 0 || len(rec) > 0 {
		endRecord()
	}
	return records
}

// listMarker returns the width of the bullet ("* ", "- ", "+ ") a line
// opens with, or 0.
func listMarker(line string) int {
	if len(line) >= 1 && strings.ContainsRune("*-+", rune(line[0])) && (len(line) == 1 || line[1] == ' ') {
		return min(len(line), 2)
	}
	return 0
}

// bulletItems splits unindented lines into the items of a bullet list,
// each item's lines unindented; ok is false when a line at the left
// margin opens no item.
func bulletItems(lines []string) (items [][]string, ok bool) {
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			if len(items) > 0 {
				items[len(items)-1] = append(items[len(items)-1], "")
			}
			continue
		}
		if w := listMarker(l); w > 0 {
			items = append(items, []string{l[w:]})
			continue
		}
		if len(items) == 0 || !strings.HasPrefix(l, " ") {
			return nil, false
		}
		// Continuation lines are indented under the item's text.
		t := strings.TrimLeft(l, " ")
		cut := min(len(l)-len(t), 2)
		items[len(items)-1] = append(items[len(items)-1], l[cut:])
	}
	return items, len(items) > 0
}

// listTableRows reads a list-table's content: a bullet list of rows, each
// a bullet list of cells.
func listTableRows(content []string) ([][]string, bool) {
	rowItems, ok := bulletItems(content)
	if !ok {
		return nil, false
	}
	var rows [][]string
	for _, item := range rowItems {
		// The row's first cell starts on the row's own line ("* - a").
		item[0] = strings.TrimLeft(item[0], " ")
		cells, ok := bulletItems(item)
		if !ok {
			return nil, false
		}
		row := make([]string, len(cells))
		for c, lines := range cells {
			var words []string
			for _, l := range lines {
				if t := strings.TrimSpace(l); t != "" {
					words = append(words, t)
				}
			}
			row[c] = strings.Join(words, " ")
		}
		rows = append(rows, row)
	}
	return rows, true
}
