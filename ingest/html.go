package ingest

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/fonte-rag/fonte/analysis"
)

// ParseHTML parses an HTML page. The title comes from <title>, else the
// first <h1>, else the file name; a title or heading whose whole text is
// one template placeholder ("{{ page.title }}") counts as none. Text is
// taken from <main> (or an element with role="main"), else from the
// page's only <article>, else from <body>.
//
// Dropped with their content: script, style, noscript, template, nav,
// head and embedded objects (svg, iframe, object, embed, canvas, audio,
// video, select, textarea), and header and footer unless they sit inside
// an article, main or section (there they hold that section's own heading
// or notes, not the site's banner).
//
// Hidden text (the hidden attribute, aria-hidden="true", inline style
// display:none, visibility:hidden, font-size:0 or opacity:0) is removed and its non-space
// characters are counted in Parsed.Hidden; zero-width characters and soft
// hyphens are removed and counted in Parsed.Invisible.
//
// Headings h1–h6, paragraphs, lists (ul, ol, dl, menu: one block per list,
// one item per line), tables (one row per line, cells joined by " | ") and
// pre (code) become blocks.
//
// The language is detected from the text; the declared <html lang> is used
// only when detection cannot decide, because page templates often declare
// lang="en" whatever the content.
func ParseHTML(name string, raw []byte) (*Parsed, error) {
	s, err := decodeText(name, raw)
	if err != nil {
		return nil, err
	}
	doc, err := html.Parse(strings.NewReader(s))
	if err != nil {
		return nil, &Refusal{Path: name, Reason: ReasonUnreadable, Detail: "not parseable as HTML", Err: err}
	}
	var b builder
	w := htmlWalker{b: &b}
	w.walk(contentRoot(doc))
	w.flush()

	out := b.Finish(name, "html", raw)
	out.Doc.Title = htmlTitle(doc)
	if out.Doc.Title == "" {
		out.Doc.Title = firstHeading(out.Blocks, 1)
	}
	if out.Doc.Title == "" {
		out.Doc.Title = titleFromName(name)
	}
	out.Doc.Language = analysis.DetectLanguage(out.Doc.Text)
	if out.Doc.Language == "" {
		out.Doc.Language = analysis.NormalizeLanguage(declaredLang(doc))
	}
	return out, nil
}

// htmlFragment extracts the blocks of an HTML fragment (an HTML block inside
// Markdown) into b, continuing b's heading path.
func htmlFragment(b *builder, src string) {
	body := &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body}
	nodes, err := html.ParseFragment(strings.NewReader(src), body)
	if err != nil {
		return
	}
	w := htmlWalker{b: b}
	for _, n := range nodes {
		w.walk(n)
	}
	w.flush()
}

// htmlWalker collects blocks from an HTML tree. Inline text accumulates in
// para until a block boundary flushes it as a paragraph.
type htmlWalker struct {
	b    *builder
	para strings.Builder
}

func (w *htmlWalker) flush() {
	if w.para.Len() == 0 {
		return
	}
	// Line breaks from <br> survive; other white space collapses.
	w.b.Add(KindParagraph, 0, w.para.String())
	w.para.Reset()
}

// walk visits n: block-level elements become blocks, inline content is
// appended to the current paragraph.
func (w *htmlWalker) walk(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		w.para.WriteString(strings.ReplaceAll(n.Data, "\n", " "))
		return
	case html.DocumentNode:
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			w.walk(c)
		}
		return
	case html.ElementNode:
	default:
		return // comments, doctype
	}
	if dropped(n) {
		return
	}
	if isHidden(n) {
		w.b.Hidden += hiddenChars(n)
		return
	}
	switch n.DataAtom {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		w.flush()
		var sb strings.Builder
		w.collect(n, &sb, nil, " ")
		// A template's "<h1>{{ title }}</h1>" has no heading text of its
		// own (see placeholder.go); HTML has no front matter to fill it.
		w.b.Add(KindHeading, int(n.Data[1]-'0'), placeholderTitle(sb.String()))
	case atom.Ul, atom.Ol, atom.Dl, atom.Menu:
		w.flush()
		var lines []string
		w.listLines(n, 0, &lines)
		w.b.Add(KindList, 0, strings.Join(lines, "\n"))
	case atom.Table:
		w.flush()
		w.b.Add(KindTable, 0, w.tableText(n))
	case atom.Pre:
		w.flush()
		var sb strings.Builder
		w.collectPre(n, &sb)
		w.b.Add(KindCode, 0, sb.String())
	case atom.Br:
		w.para.WriteByte('\n')
	case atom.Img:
		if alt := attr(n, "alt"); alt != "" {
			w.para.WriteString(" " + alt + " ")
		}
	case atom.Hr:
		w.flush()
	default:
		block := isBlockElement(n)
		if block {
			w.flush()
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			w.walk(c)
		}
		if block {
			w.flush()
		}
	}
}

// collect appends the visible text under n to sb, on one line: block
// elements are separated by spaces and <br> becomes br. Children for which
// skip returns true are left out (their caller handles them).
func (w *htmlWalker) collect(n *html.Node, sb *strings.Builder, skip func(*html.Node) bool, br string) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.collectNode(c, sb, skip, br)
	}
}

// collectNode is collect for one node and its subtree.
func (w *htmlWalker) collectNode(c *html.Node, sb *strings.Builder, skip func(*html.Node) bool, br string) {
	switch c.Type {
	case html.TextNode:
		sb.WriteString(c.Data)
		return
	case html.ElementNode:
	default:
		return
	}
	if dropped(c) {
		return
	}
	if isHidden(c) {
		w.b.Hidden += hiddenChars(c)
		return
	}
	if skip != nil && skip(c) {
		return
	}
	switch c.DataAtom {
	case atom.Br:
		sb.WriteString(br)
		return
	case atom.Img:
		if alt := attr(c, "alt"); alt != "" {
			sb.WriteString(" " + alt + " ")
		}
		return
	}
	block := isBlockElement(c)
	if block {
		sb.WriteByte(' ')
	}
	w.collect(c, sb, skip, br)
	if block {
		sb.WriteByte(' ')
	}
}

// collectPre appends the text under a <pre> verbatim.
func (w *htmlWalker) collectPre(n *html.Node, sb *strings.Builder) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.TextNode:
			sb.WriteString(c.Data)
		case c.Type != html.ElementNode, dropped(c):
		case isHidden(c):
			w.b.Hidden += hiddenChars(c)
		case c.DataAtom == atom.Br:
			sb.WriteByte('\n')
		default:
			w.collectPre(c, sb)
		}
	}
}

func isListElement(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Ul, atom.Ol, atom.Dl, atom.Menu:
		return true
	}
	return false
}

// listLines appends one line per item of list, nested lists indented two
// spaces per level below their item. Ordered items are numbered, others
// get a dash.
func (w *htmlWalker) listLines(list *html.Node, depth int, lines *[]string) {
	indent := strings.Repeat("  ", depth)
	num := 1
	if s, err := strconv.Atoi(attr(list, "start")); err == nil {
		num = s
	}
	ordered := list.DataAtom == atom.Ol
	var stray strings.Builder // text directly inside the list element
	flushStray := func() {
		if t := collapseSpaces(stray.String()); t != "" {
			*lines = append(*lines, indent+t)
		}
		stray.Reset()
	}
	for c := list.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			stray.WriteString(c.Data)
			continue
		}
		if c.Type != html.ElementNode || dropped(c) {
			continue
		}
		if isHidden(c) {
			w.b.Hidden += hiddenChars(c)
			continue
		}
		switch {
		case c.DataAtom == atom.Li || c.DataAtom == atom.Dt || c.DataAtom == atom.Dd:
			flushStray()
			var sb strings.Builder
			w.collect(c, &sb, isListElement, " ")
			marker := "- "
			switch {
			case ordered:
				marker = fmt.Sprintf("%d. ", num)
				num++
			case c.DataAtom == atom.Dt:
				marker = ""
			case c.DataAtom == atom.Dd:
				marker = "  "
			}
			if t := collapseSpaces(sb.String()); t != "" {
				*lines = append(*lines, indent+marker+t)
			}
			w.nestedLists(c, depth+1, lines)
		case isListElement(c):
			flushStray()
			w.listLines(c, depth+1, lines)
		default:
			// Stray markup directly in a list (wrappers, broken HTML).
			w.collectNode(c, &stray, isListElement, " ")
			w.nestedLists(c, depth+1, lines)
		}
	}
	flushStray()
}

// nestedLists finds the outermost lists under n (the item's sub-lists) and
// appends their lines. Hidden elements were already counted by collect.
func (w *htmlWalker) nestedLists(n *html.Node, depth int, lines *[]string) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode || dropped(c) || isHidden(c) {
			continue
		}
		if isListElement(c) {
			w.listLines(c, depth, lines)
			continue
		}
		w.nestedLists(c, depth, lines)
	}
}

// tableText renders a table one row per line, cells joined by " | ". A
// caption comes first; nested tables are flattened into their cell.
func (w *htmlWalker) tableText(t *html.Node) string {
	var lines []string
	var rows func(n *html.Node)
	rows = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode || dropped(c) {
				continue
			}
			if isHidden(c) {
				w.b.Hidden += hiddenChars(c)
				continue
			}
			switch c.DataAtom {
			case atom.Caption:
				var sb strings.Builder
				w.collect(c, &sb, nil, " ")
				if s := collapseSpaces(sb.String()); s != "" {
					lines = append(lines, s)
				}
			case atom.Tr:
				if row := w.rowText(c); row != "" {
					lines = append(lines, row)
				}
			case atom.Table:
				// A table directly inside a table (not in a cell) is
				// invalid; read it as more rows.
				rows(c)
			default:
				rows(c)
			}
		}
	}
	rows(t)
	return strings.Join(lines, "\n")
}

func (w *htmlWalker) rowText(tr *html.Node) string {
	var cells []string
	empty := true
	for c := tr.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode || (c.DataAtom != atom.Td && c.DataAtom != atom.Th) || dropped(c) {
			continue
		}
		if isHidden(c) {
			w.b.Hidden += hiddenChars(c)
			continue
		}
		var sb strings.Builder
		w.collect(c, &sb, nil, " ")
		cell := collapseSpaces(sb.String())
		if cell != "" {
			empty = false
		}
		cells = append(cells, cell)
	}
	if empty {
		return ""
	}
	return strings.Join(cells, " | ")
}

// dropped reports elements whose content is never document text.
func dropped(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Script, atom.Style, atom.Noscript, atom.Template, atom.Nav, atom.Head,
		atom.Svg, atom.Iframe, atom.Object, atom.Embed, atom.Canvas, atom.Audio,
		atom.Video, atom.Select, atom.Textarea, atom.Datalist:
		return true
	case atom.Header, atom.Footer:
		for p := n.Parent; p != nil; p = p.Parent {
			switch p.DataAtom {
			case atom.Article, atom.Main, atom.Section:
				return false
			}
		}
		return true
	}
	return false
}

// isHidden reports elements a reader does not see: the hidden attribute,
// aria-hidden="true", or an inline style with display:none,
// visibility:hidden (or collapse), font-size:0 or opacity:0. Stylesheets
// are not evaluated. Text hidden this way is where injections addressed
// to a model hide from the people who review a page.
func isHidden(n *html.Node) bool {
	for _, a := range n.Attr {
		switch a.Key {
		case "hidden":
			return true
		case "aria-hidden":
			if strings.EqualFold(strings.TrimSpace(a.Val), "true") {
				return true
			}
		case "style":
			if styleHides(a.Val) {
				return true
			}
		}
	}
	return n.DataAtom == atom.Input && strings.EqualFold(attr(n, "type"), "hidden")
}

// styleHides reports whether an inline style hides its element.
func styleHides(style string) bool {
	for decl := range strings.SplitSeq(style, ";") {
		prop, val, ok := strings.Cut(decl, ":")
		if !ok {
			continue
		}
		prop = strings.ToLower(strings.TrimSpace(prop))
		val = strings.ToLower(strings.TrimSpace(val))
		val = strings.TrimSpace(strings.TrimSuffix(val, "!important"))
		switch {
		case prop == "display" && val == "none":
			return true
		case prop == "visibility" && (val == "hidden" || val == "collapse"):
			return true
		case (prop == "font-size" || prop == "opacity") && zeroLength(val):
			// Text drawn at size 0 or fully transparent is there for
			// machines only.
			return true
		}
	}
	return false
}

// zeroLength reports whether a CSS value is zero whatever its unit
// ("0", "0px", "0em", "0.0%").
func zeroLength(val string) bool {
	num := strings.TrimRight(val, "abcdefghijklmnopqrstuvwxyz%")
	if num == "" {
		return false
	}
	f, err := strconv.ParseFloat(num, 64)
	return err == nil && f == 0
}

// hiddenChars counts the non-space characters of the text under a hidden
// element, leaving out content that would be dropped anyway (scripts).
func hiddenChars(n *html.Node) int {
	count := 0
	var visit func(*html.Node)
	visit = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch c.Type {
			case html.TextNode:
				for _, r := range c.Data {
					if !unicode.IsSpace(r) {
						count++
					}
				}
			case html.ElementNode:
				if !dropped(c) {
					visit(c)
				}
			}
		}
	}
	visit(n)
	return count
}

// isBlockElement reports elements that break a paragraph.
func isBlockElement(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Address, atom.Article, atom.Aside, atom.Blockquote, atom.Body, atom.Center,
		atom.Dd, atom.Details, atom.Dialog, atom.Dir, atom.Div, atom.Dl, atom.Dt,
		atom.Fieldset, atom.Figcaption, atom.Figure, atom.Footer, atom.Form, atom.Header,
		atom.Hgroup, atom.Hr, atom.Html, atom.Legend, atom.Li, atom.Main, atom.Menu,
		atom.Ol, atom.Optgroup, atom.Option, atom.P, atom.Section, atom.Summary,
		atom.Table, atom.Tbody, atom.Td, atom.Tfoot, atom.Th, atom.Thead, atom.Tr,
		atom.Ul, atom.Caption, atom.Pre, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		return true
	}
	return false
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// find returns the first element in document order for which match is
// true, or nil.
func find(n *html.Node, match func(*html.Node) bool) *html.Node {
	if n.Type == html.ElementNode && match(n) {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if f := find(c, match); f != nil {
			return f
		}
	}
	return nil
}

// contentRoot picks the element holding the page's main text.
func contentRoot(doc *html.Node) *html.Node {
	if m := find(doc, func(n *html.Node) bool {
		return n.DataAtom == atom.Main || strings.EqualFold(attr(n, "role"), "main")
	}); m != nil {
		return m
	}
	var articles []*html.Node
	var visit func(*html.Node)
	visit = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.DataAtom == atom.Article {
				articles = append(articles, c)
				continue // nested articles (comments) belong to this one
			}
			visit(c)
		}
	}
	visit(doc)
	if len(articles) == 1 {
		return articles[0]
	}
	if body := find(doc, func(n *html.Node) bool { return n.DataAtom == atom.Body }); body != nil {
		return body
	}
	return doc
}

func htmlTitle(doc *html.Node) string {
	t := find(doc, func(n *html.Node) bool { return n.DataAtom == atom.Title })
	if t == nil {
		return ""
	}
	var sb strings.Builder
	for c := t.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			sb.WriteString(c.Data)
		}
	}
	return placeholderTitle(cleanTitle(sb.String()))
}

func declaredLang(doc *html.Node) string {
	if h := find(doc, func(n *html.Node) bool { return n.DataAtom == atom.Html }); h != nil {
		return attr(h, "lang")
	}
	return ""
}
