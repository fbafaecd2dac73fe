package pdf

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fonte-rag/fonte/ingest/parse"
)

// tsvColumns are the columns of Tesseract's TSV output, in order.
var tsvColumns = []string{"level", "page_num", "block_num", "par_num", "line_num", "word_num",
	"left", "top", "width", "height", "conf", "text"}

// tsvWordLevel is the level of a word row; the others (page, block,
// paragraph, line) carry layout only.
const tsvWordLevel = 5

// parseTSV turns Tesseract's TSV output into pages of paragraphs, with the
// mean word confidence of each page. Words of one line are joined by
// spaces, lines of one paragraph too (a word hyphenated at a line end is
// joined whole), and paragraphs are Tesseract's (block, paragraph) pairs
// in reading order.
func parseTSV(tsv string) ([]pageText, error) {
	lines := strings.Split(strings.TrimRight(tsv, "\n"), "\n")
	if len(lines) == 0 || strings.Join(strings.Split(lines[0], "\t"), " ") != strings.Join(tsvColumns, " ") {
		return nil, fmt.Errorf("tesseract: output is not TSV (first line %q)", parse.Shorten(lines[0], 80))
	}
	var pages []pageText
	var cur *pageText
	var confSum float64
	type parKey struct{ block, par int }
	var key parKey
	var para []string // lines of the open paragraph
	var line []string // words of the open line
	lineKey := -1
	flushLine := func() {
		if len(line) > 0 {
			para = append(para, strings.Join(line, " "))
		}
		line = nil
	}
	flushPara := func() {
		flushLine()
		if len(para) > 0 && cur != nil {
			cur.paras = append(cur.paras, joinLines(para)) // as PDF lines: hyphenated words rejoined
		}
		para = nil
	}
	flushPage := func() {
		flushPara()
		if cur != nil && cur.words > 0 {
			cur.conf = confSum / float64(cur.words)
		}
	}
	for n, row := range lines[1:] {
		f := strings.Split(row, "\t")
		if len(f) != len(tsvColumns) {
			return nil, fmt.Errorf("tesseract: TSV line %d has %d columns, want %d", n+2, len(f), len(tsvColumns))
		}
		var num [6]int
		for i := range num {
			v, err := strconv.Atoi(f[i])
			if err != nil {
				return nil, fmt.Errorf("tesseract: TSV line %d: %s %q is not a number", n+2, tsvColumns[i], f[i])
			}
			num[i] = v
		}
		level, page, block, par, lineNum := num[0], num[1], num[2], num[3], num[4]
		if cur == nil || page != cur.page {
			flushPage()
			pages = append(pages, pageText{page: page})
			cur = &pages[len(pages)-1]
			confSum, key, lineKey = 0, parKey{-1, -1}, -1
		}
		if level != tsvWordLevel {
			continue
		}
		word := strings.TrimSpace(f[11])
		conf, err := strconv.ParseFloat(f[10], 64)
		if err != nil {
			return nil, fmt.Errorf("tesseract: TSV line %d: conf %q is not a number", n+2, f[10])
		}
		if word == "" || conf < 0 {
			continue
		}
		if k := (parKey{block, par}); k != key {
			flushPara()
			key, lineKey = k, -1
		}
		if lineNum != lineKey {
			flushLine()
			lineKey = lineNum
		}
		line = append(line, word)
		cur.words++
		confSum += conf
	}
	flushPage()
	return pages, nil
}
