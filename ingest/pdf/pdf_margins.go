package pdf

import (
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Running headers, footers and page numbers repeat on every page; left in,
// they split paragraphs that continue across pages and fill chunks with
// the same words. They are recognised by where they sit and by repeating,
// not by any producer's layout.

// marginLines is how many lines from the top and from the bottom of a
// page are looked at: a header or footer is at most two lines.
const marginLines = 2

// maxRunningLen is the longest repeated margin line taken as a running
// header or footer: they are short, and a body line that happens to sit
// at the top of short pages and repeat, numbers aside, is not removed.
const maxRunningLen = 70

// minRunningPages is on how many pages a margin line must repeat to be
// taken as a running header or footer (fewer in shorter documents: on
// every page).
const minRunningPages = 3

// pageNumberRE matches a line that is only a page number: "12", "- 12 -",
// "xiv", "Page 3", "Pagina 3 di 10", "3 / 10", "3 of 10".
var pageNumberRE = regexp.MustCompile(`(?i)^(page|pagina|pag\.|p\.)?\s*[-–—]?\s*(\d{1,5}|[ivxlcdm]{1,7})\s*[-–—]?\s*((of|di|/)\s*\d{1,5})?$`)

// dropRunningLines removes from lines (in reading order, page by page)
// the page numbers and the lines at the top or bottom of a page that
// repeat, digits aside, at the top or bottom of other pages.
func dropRunningLines(lines []pdfLine, pages int) []pdfLine {
	if len(lines) == 0 {
		return lines
	}
	// The margin lines of each page: indexes into lines.
	byPage := map[int][]int{}
	for i, l := range lines {
		byPage[l.page] = append(byPage[l.page], i)
	}
	margin := map[int]bool{}
	for _, idx := range byPage {
		sorted := append([]int(nil), idx...)
		sort.SliceStable(sorted, func(a, b int) bool { return lines[sorted[a]].y > lines[sorted[b]].y })
		for k, i := range sorted {
			if k < marginLines || k >= len(sorted)-marginLines {
				margin[i] = true
			}
		}
	}
	// On how many pages each margin text appears.
	seen := map[string]map[int]bool{}
	for i := range margin {
		k := runningKey(lines[i].text)
		if seen[k] == nil {
			seen[k] = map[int]bool{}
		}
		seen[k][lines[i].page] = true
	}
	need := minRunningPages
	if pages < minRunningPages {
		need = max(pages, 2)
	}
	out := lines[:0:0]
	for i, l := range lines {
		if margin[i] {
			t := strings.TrimSpace(l.text)
			if pageNumberRE.MatchString(t) || (utf8.RuneCountInString(t) <= maxRunningLen && len(seen[runningKey(t)]) >= need) {
				continue
			}
		}
		out = append(out, l)
	}
	return out
}

// runningKey is a margin line's text with digits made alike, so "Page 3"
// and "Page 4", or "2.1 Setup 17" and "2.1 Setup 18", compare equal.
func runningKey(s string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(s) {
		switch {
		case unicode.IsDigit(r):
			r = '#'
		case unicode.IsSpace(r):
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}
