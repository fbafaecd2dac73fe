package ingest

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
	"go.abhg.dev/goldmark/frontmatter"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/analysis"
)

// markdown is the shared goldmark instance: CommonMark plus GitHub tables,
// strikethrough, task lists and autolinks, YAML/TOML front matter, and
// heading attributes ({#id}), which are markup and must not reach the
// heading text. Parsing is safe for concurrent use.
var markdown = goldmark.New(
	goldmark.WithExtensions(extension.GFM, &frontmatter.Extender{}),
	goldmark.WithParserOptions(parser.WithAttribute()),
)

// headingAttr matches a trailing {#id} or {.class} heading attribute.
var headingAttr = regexp.MustCompile(`\s*\{[#.][^{}]*\}$`)

// ParseMarkdown parses a Markdown file with goldmark.
//
// Front matter (YAML between "---" lines, or TOML between "+++") gives the
// title, the tags (from "tags", "keywords" and "categories", as lists or
// comma-separated strings) and a declared language ("lang", "language" or
// "locale"), which overrides detection. The title is the front matter
// title, else the first level-1 heading, else the file name. A heading
// whose whole text is one template placeholder ("# {{ page.title }}",
// "# <%= current_page.data.title %>") is the front matter title when it is
// the document's first heading and there is one, and no heading otherwise
// (see placeholder.go).
//
// Blocks: ATX and setext headings, paragraphs, lists (one block per list,
// one item per line, nested items indented, ordered items numbered),
// tables (one block, rows on lines, cells joined by " | "), code (fenced or
// indented, verbatim: a "# comment" line there is code, not a heading) and
// HTML blocks (read with the HTML rules, so hidden elements are removed).
// Links keep their text, images their alt text; HTML comments and inline
// tags are dropped, and inline elements that are hidden (counted in
// Parsed.Hidden) or never text (<script>) are dropped with their content.
// Template tags are removed first (see liquid.go and erb.go).
func ParseMarkdown(name string, raw []byte) (*Parsed, error) {
	s, err := decodeText(name, raw)
	if err != nil {
		return nil, err
	}
	src := []byte(s)
	if err := mdGuard(name, src); err != nil {
		return nil, err
	}
	if hasTemplateTags(src) {
		src = stripTemplates(src, keptRanges(src))
		if err := mdGuard(name, src); err != nil {
			return nil, err
		}
	}
	ctx := parser.NewContext()
	root := markdown.Parser().Parse(text.NewReader(src), parser.WithContext(ctx))
	// The front matter is read before the blocks: its title fills a
	// placeholder heading (see placeholder.go).
	meta, err := frontMatter(ctx)
	title := placeholderTitle(cleanTitle(metaString(meta, "title")))

	var b builder
	w := mdWalker{b: &b, src: src, title: title}
	w.block(root)
	out := b.Finish(name, "markdown", raw)

	if err != nil {
		if mentionsAccess(rawFrontMatter(src)) {
			return nil, &Refusal{Path: name, Reason: ReasonAccess, Field: "front matter", Err: err,
				Detail: "the front matter sets access but cannot be read, so the document's labels are unknown"}
		}
		out.FrontMatterErr = err
		out.Warnings = append(out.Warnings, fmt.Sprintf("front matter ignored: %v", err))
	}
	access, err := accessTags(meta)
	if err != nil {
		return nil, &Refusal{Path: name, Reason: ReasonAccess, Field: "access", Detail: err.Error()}
	}
	if len(out.Blocks) == 0 && meta != nil {
		// Site generators use such pages as redirects; say so.
		detail := "front matter only, no body"
		if to := metaString(meta, "redirect_to"); to != "" {
			detail += ", redirects to " + to
		}
		return nil, &Refusal{Path: name, Reason: ReasonEmpty, Detail: detail}
	}
	out.Doc.Title = title
	if out.Doc.Title == "" {
		out.Doc.Title = firstHeading(out.Blocks, 1)
	}
	if out.Doc.Title == "" {
		out.Doc.Title = titleFromName(name)
	}
	out.Doc.Tags = append(metaTags(meta), access...)
	for _, key := range []string{"lang", "language", "locale"} {
		if l := analysis.NormalizeLanguage(metaString(meta, key)); l != "" {
			out.Doc.Language = l
			break
		}
	}
	if out.Doc.Language == "" {
		out.Doc.Language = analysis.DetectLanguage(out.Doc.Text)
	}
	return out, nil
}

// keptRanges returns the sorted byte ranges of src that template tags are
// not stripped from: code (blocks and spans), where template syntax is
// content, and headings that are one placeholder, which the walker
// replaces as a whole (see placeholder.go).
func keptRanges(src []byte) [][2]int {
	root := markdown.Parser().Parse(text.NewReader(src))
	var ranges [][2]int
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			lines := n.Lines()
			if lines.Len() > 0 {
				ranges = append(ranges, [2]int{lines.At(0).Start, lines.At(lines.Len() - 1).Stop})
			}
			return ast.WalkSkipChildren, nil
		case *ast.Heading:
			if lines := n.Lines(); lines.Len() > 0 && isPlaceholder(string(lines.Value(src))) {
				ranges = append(ranges, [2]int{lines.At(0).Start, lines.At(lines.Len() - 1).Stop})
				return ast.WalkSkipChildren, nil
			}
		case *ast.CodeSpan:
			first, last := -1, -1
			for c := n.FirstChild(); c != nil; c = c.NextSibling() {
				if t, ok := c.(*ast.Text); ok {
					if first < 0 {
						first = t.Segment.Start
					}
					last = t.Segment.Stop
				}
			}
			if first >= 0 && last > first {
				ranges = append(ranges, [2]int{first, last})
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	sort.Slice(ranges, func(i, j int) bool { return ranges[i][0] < ranges[j][0] })
	// Merge overlaps so the ranges are disjoint.
	merged := ranges[:0]
	for _, r := range ranges {
		if n := len(merged); n > 0 && r[0] <= merged[n-1][1] {
			merged[n-1][1] = max(merged[n-1][1], r[1])
			continue
		}
		merged = append(merged, r)
	}
	return merged
}

// mdWalker turns a goldmark AST into blocks.
type mdWalker struct {
	b   *builder
	src []byte
	// title is the front matter title, which a placeholder first heading
	// stands for; headed records that a heading has been seen.
	title  string
	headed bool
}

func (w *mdWalker) block(n ast.Node) {
	switch n := n.(type) {
	case *ast.Heading:
		// goldmark removes well-formed {#id} attributes; ids it cannot
		// parse (with parentheses, say) would stay in the text.
		t := strings.TrimSpace(w.inline(n, " "))
		t = strings.TrimSpace(headingAttr.ReplaceAllString(t, ""))
		// The source is what is checked, not the text: "{{<x>}}" renders
		// without its "<x>", which reads as an HTML tag, and a code span
		// "`{{ page.title }}`" shows the syntax rather than using it.
		if isPlaceholder(string(n.Lines().Value(w.src))) {
			t = ""
			if !w.headed {
				t = w.title
			}
		}
		w.headed = true
		w.b.Add(KindHeading, n.Level, t)
	case *ast.Paragraph, *ast.TextBlock:
		w.b.Add(KindParagraph, 0, w.inline(n, "\n"))
	case *ast.List:
		var lines []string
		w.listLines(n, 0, &lines)
		w.b.Add(KindList, 0, strings.Join(lines, "\n"))
	case *east.Table:
		w.b.Add(KindTable, 0, w.tableText(n))
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		w.b.Add(KindCode, 0, w.codeText(n))
	case *ast.HTMLBlock:
		htmlFragment(w.b, w.htmlText(n))
	case *ast.ThematicBreak:
	default:
		// Document, blockquote and containers from extensions.
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			w.block(c)
		}
	}
}

// inline renders the inline content of n as text; hard line breaks become
// hard, soft ones a space.
func (w *mdWalker) inline(n ast.Node, hard string) string {
	var sb strings.Builder
	w.inlineTo(&sb, n, hard)
	return sb.String()
}

func (w *mdWalker) inlineTo(sb *strings.Builder, n ast.Node, hard string) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if r, ok := c.(*ast.RawHTML); ok {
			c = w.rawInline(sb, r, hard)
			continue
		}
		w.inlineNode(sb, c, hard)
	}
}

func (w *mdWalker) inlineNode(sb *strings.Builder, c ast.Node, hard string) {
	switch c := c.(type) {
	case *ast.Text:
		v := c.Value(w.src)
		if !c.IsRaw() {
			v = unescapeMarkdown(v)
		}
		sb.Write(v)
		switch {
		case c.HardLineBreak():
			sb.WriteString(hard)
		case c.SoftLineBreak():
			sb.WriteByte(' ')
		}
	case *ast.String:
		sb.Write(c.Value)
	case *ast.AutoLink:
		sb.Write(c.Label(w.src))
	case *east.TaskCheckBox:
	default:
		// Emphasis, links (their text), images (their alt text), code
		// spans, strikethrough.
		w.inlineTo(sb, c, hard)
	}
}

// rawInline handles an inline HTML tag. Tags and comments are markup and
// their text is in the sibling nodes, with three exceptions: <br> is a line
// break, <img> gives its alt text, and an element that is hidden (or
// never text, like <script>) drops everything up to its end tag, counted
// as hidden when it was hidden. It returns the last node it consumed.
func (w *mdWalker) rawInline(sb *strings.Builder, r *ast.RawHTML, hard string) ast.Node {
	tag, end := parseTag(r.Segments.Value(w.src))
	if tag == nil {
		return r
	}
	switch {
	case tag.DataAtom == atom.Br:
		sb.WriteString(hard)
		return r
	case end:
		return r
	}
	hidden := isHidden(tag)
	if tag.DataAtom == atom.Img {
		if alt := attr(tag, "alt"); alt != "" && !hidden {
			sb.WriteString(" " + alt + " ")
		}
		return r
	}
	if voidElements[tag.DataAtom] || (!hidden && !dropped(tag)) {
		return r
	}
	var skipped strings.Builder
	depth := 0
	last := ast.Node(r)
	for n := r.NextSibling(); n != nil; n = n.NextSibling() {
		last = n
		if raw, ok := n.(*ast.RawHTML); ok {
			if t, isEnd := parseTag(raw.Segments.Value(w.src)); t != nil && t.Data == tag.Data {
				if !isEnd {
					depth++
				} else if depth--; depth < 0 {
					break
				}
			}
			continue
		}
		w.inlineNode(&skipped, n, " ")
	}
	if hidden {
		for _, c := range skipped.String() {
			if !unicode.IsSpace(c) {
				w.b.Hidden++
			}
		}
	}
	return last
}

// voidElements never have content or an end tag.
var voidElements = map[atom.Atom]bool{
	atom.Area: true, atom.Base: true, atom.Br: true, atom.Col: true, atom.Embed: true,
	atom.Hr: true, atom.Img: true, atom.Input: true, atom.Link: true, atom.Meta: true,
	atom.Source: true, atom.Track: true, atom.Wbr: true,
}

// parseTag reads one inline HTML tag as an element node (without parent
// or children); end reports an end tag. Comments and other markup give nil.
func parseTag(raw []byte) (n *html.Node, end bool) {
	z := html.NewTokenizer(bytes.NewReader(raw))
	switch z.Next() {
	case html.StartTagToken, html.SelfClosingTagToken:
	case html.EndTagToken:
		end = true
	default:
		return nil, false
	}
	t := z.Token()
	return &html.Node{Type: html.ElementNode, Data: t.Data, DataAtom: t.DataAtom, Attr: t.Attr}, end
}

// unescapeMarkdown resolves backslash escapes and character references in
// a text segment.
func unescapeMarkdown(v []byte) []byte {
	if bytes.IndexByte(v, '\\') >= 0 {
		v = util.UnescapePunctuations(v)
	}
	if bytes.IndexByte(v, '&') >= 0 {
		v = util.ResolveEntityNames(util.ResolveNumericReferences(v))
	}
	return v
}

// listLines appends one line per item of l; an item's paragraphs share its
// line, nested lists follow indented by two spaces per level, and code or
// tables inside an item follow as indented lines.
func (w *mdWalker) listLines(l *ast.List, depth int, lines *[]string) {
	indent := strings.Repeat("  ", depth)
	num := l.Start
	for item := l.FirstChild(); item != nil; item = item.NextSibling() {
		marker := "- "
		if l.IsOrdered() {
			marker = fmt.Sprintf("%d. ", num)
			num++
		}
		var parts []string
		emitted := false
		flush := func() {
			t := collapseSpaces(strings.Join(parts, " "))
			parts = parts[:0]
			if t == "" {
				return
			}
			if !emitted {
				*lines = append(*lines, indent+marker+t)
				emitted = true
				return
			}
			*lines = append(*lines, indent+"  "+t)
		}
		for c := item.FirstChild(); c != nil; c = c.NextSibling() {
			switch c := c.(type) {
			case *ast.List:
				flush()
				emitted = true // a nested list right away keeps the item's place
				w.listLines(c, depth+1, lines)
			case *ast.FencedCodeBlock, *ast.CodeBlock:
				flush()
				emitted = true
				w.indented(w.codeText(c), indent+"  ", lines)
			case *east.Table:
				flush()
				emitted = true
				w.indented(w.tableText(c), indent+"  ", lines)
			case *ast.HTMLBlock:
				var sub builder
				htmlFragment(&sub, w.htmlText(c))
				w.b.Hidden += sub.Hidden
				for _, bl := range sub.Blocks() {
					parts = append(parts, strings.ReplaceAll(bl.Text, "\n", " "))
				}
			default:
				parts = append(parts, w.plain(c))
			}
		}
		flush()
	}
}

// plain renders any block as one line of text.
func (w *mdWalker) plain(n ast.Node) string {
	switch n.(type) {
	case *ast.Paragraph, *ast.TextBlock, *ast.Heading:
		return w.inline(n, " ")
	}
	var parts []string
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		parts = append(parts, w.plain(c))
	}
	return strings.Join(parts, " ")
}

func (w *mdWalker) indented(s, indent string, lines *[]string) {
	for line := range strings.SplitSeq(s, "\n") {
		if strings.TrimSpace(line) != "" {
			*lines = append(*lines, indent+line)
		}
	}
}

func (w *mdWalker) tableText(t *east.Table) string {
	var rows []string
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		var cells []string
		empty := true
		for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
			c := collapseSpaces(w.inline(cell, " "))
			if c != "" {
				empty = false
			}
			cells = append(cells, c)
		}
		if !empty {
			rows = append(rows, strings.Join(cells, " | "))
		}
	}
	return strings.Join(rows, "\n")
}

func (w *mdWalker) codeText(n ast.Node) string {
	var sb strings.Builder
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		sb.Write(seg.Value(w.src))
	}
	return sb.String()
}

func (w *mdWalker) htmlText(n *ast.HTMLBlock) string {
	var sb strings.Builder
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		sb.Write(seg.Value(w.src))
	}
	if n.HasClosure() {
		sb.Write(n.ClosureLine.Value(w.src))
	}
	return sb.String()
}

// frontMatter decodes the front matter into a map with lower-case keys.
func frontMatter(ctx parser.Context) (map[string]any, error) {
	d := frontmatter.Get(ctx)
	if d == nil {
		return nil, nil
	}
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		return nil, err
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		lk := strings.ToLower(k)
		if _, dup := out[lk]; dup && lk == "access" {
			// Which would win depends on map order: refuse rather than guess.
			return nil, fmt.Errorf("access is given twice, in keys that differ only in case")
		}
		out[lk] = v
	}
	return out, nil
}

// metaString returns a scalar front matter value as a string.
func metaString(meta map[string]any, key string) string {
	switch v := meta[key].(type) {
	case nil:
		return ""
	case string:
		return v
	case []any, map[string]any:
		return ""
	default:
		return fmt.Sprint(v)
	}
}

// accessTags turns the front matter's "access" labels into access tags:
// only readers allowed one of them see the document. The value is a list
// of label strings ([hr, finance]) or one string of labels separated by
// commas ("hr, finance"). Anything else is an error naming what is wrong,
// never a document without labels: a number or true (YAML reads
// `access: [2024]` as a number), an empty list or string, an empty label.
func accessTags(meta map[string]any) ([]string, error) {
	v, ok := meta["access"]
	if !ok {
		return nil, nil
	}
	var labels []string
	switch v := v.(type) {
	case string:
		labels = strings.Split(v, ",")
	case []any:
		for i, l := range v {
			s, ok := l.(string)
			if !ok {
				return nil, fmt.Errorf("front matter access: item %d is %s; want label strings (quote a label that YAML reads otherwise: %q)", i+1, describeValue(l), fmt.Sprint(l))
			}
			labels = append(labels, s)
		}
	default:
		return nil, fmt.Errorf("front matter access is %s; want a list of labels such as [hr]", describeValue(v))
	}
	if len(labels) == 0 {
		return nil, fmt.Errorf("front matter access is an empty list; give at least one label, or remove the key to make the document public")
	}
	var tags []string
	for i, l := range labels {
		l = strings.TrimSpace(l)
		if l == "" {
			return nil, fmt.Errorf("front matter access: label %d of %q is empty", i+1, labels)
		}
		if t := fonte.AccessTag(l); !slices.Contains(tags, t) {
			tags = append(tags, t)
		}
	}
	return tags, nil
}

// describeValue names a front matter value and its kind for an error.
func describeValue(v any) string {
	switch v := v.(type) {
	case nil:
		return "empty"
	case bool:
		return fmt.Sprintf("the boolean %v", v)
	case int, int64, uint64, float64:
		return fmt.Sprintf("the number %v", v)
	case map[string]any:
		return "a map"
	case []any:
		return "a list"
	default:
		return fmt.Sprintf("%v (%T)", v, v)
	}
}

// accessKey finds an access key at the start of a front matter line,
// YAML (access:) or TOML (access =), quoted or not, in any case.
var accessKey = regexp.MustCompile(`(?mi)^[ \t]*["']?access["']?[ \t]*[:=]`)

// mentionsAccess reports whether front matter text that could not be
// decoded sets access, so the file must be refused rather than indexed
// without its labels.
func mentionsAccess(raw []byte) bool { return accessKey.Match(raw) }

// rawFrontMatter returns the text between a document's front matter
// delimiters ("---" or "+++" lines, as package frontmatter reads them), or
// to the end of src when the block is never closed; nil when src does not
// open with one.
func rawFrontMatter(src []byte) []byte {
	first, rest, _ := bytes.Cut(src, []byte("\n"))
	delim := bytes.TrimSuffix(first, []byte("\r"))
	if len(delim) < 3 || (delim[0] != '-' && delim[0] != '+') || len(bytes.Trim(delim, string(delim[:1]))) != 0 {
		return nil
	}
	for off := 0; off < len(rest); {
		line, _, _ := bytes.Cut(rest[off:], []byte("\n"))
		if bytes.Equal(bytes.TrimSuffix(line, []byte("\r")), delim) {
			return rest[:off]
		}
		off += len(line) + 1
	}
	return rest
}

// metaTags gathers tags from "tags", "keywords" and "categories": lists of
// strings, or strings separated by commas (tags without commas are
// separated by spaces, as Jekyll reads them). Duplicates are dropped
// regardless of case; the first spelling wins.
func metaTags(meta map[string]any) []string {
	var tags []string
	seen := map[string]bool{}
	addTag := func(t string) {
		t = collapseSpaces(t)
		if t == "" || seen[strings.ToLower(t)] {
			return
		}
		seen[strings.ToLower(t)] = true
		tags = append(tags, t)
	}
	for _, key := range []string{"tags", "keywords", "categories"} {
		switch v := meta[key].(type) {
		case string:
			if strings.Contains(v, ",") || key == "keywords" {
				for t := range strings.SplitSeq(v, ",") {
					addTag(t)
				}
			} else {
				for _, t := range strings.Fields(v) {
					addTag(t)
				}
			}
		case []any:
			for _, t := range v {
				switch t := t.(type) {
				case string:
					addTag(t)
				case nil, []any, map[string]any:
				default:
					addTag(fmt.Sprint(t))
				}
			}
		}
	}
	return tags
}

// Limits on the Markdown structures goldmark handles in superlinear time:
// block quotes and list items nested on one line (">>>>…", "1. 1. 1. …"),
// emphasis and link delimiters in one paragraph ("*a_*a_…", "[](…"), and
// tables whose delimiter row declares many more cells than the rows hold
// (goldmark pads every row to the header's width). Within the limits,
// parsing takes time linear in the input; past them the file is refused
// as pathological rather than tying up ingestion for seconds or minutes.
const (
	mdMaxNesting = 40   // containers opened on one line
	mdMaxDelims  = 1000 // delimiter bytes in one paragraph, heading or table cell
)

// mdBlocks parses Markdown blocks only (no inline parsers, so no
// delimiter processing): the guard counts delimiters per inline-parsed
// block with it. Tables are included so their cells count separately.
var mdBlocks = parser.NewParser(
	parser.WithBlockParsers(parser.DefaultBlockParsers()...),
	parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
	parser.WithParagraphTransformers(util.Prioritized(extension.NewTableParagraphTransformer(), 200)),
)

// mdGuard refuses Markdown whose structure would make goldmark take
// superlinear time or memory; see mdMaxNesting and mdMaxDelims.
func mdGuard(name string, src []byte) error {
	refuse := func(format string, args ...any) error {
		return &Refusal{Path: name, Reason: ReasonUnreadable, Detail: "pathological: " + fmt.Sprintf(format, args...)}
	}
	// One pass over the lines: container nesting, and table sizes (checked
	// before the block parse, which builds the padded cells).
	lines := bytes.SplitAfter(src, []byte("\n"))
	// off[i] is line i's byte offset, end[i] the first blank line at or
	// after line i (len(lines) when none), so a table's size is O(1).
	off := make([]int, len(lines)+1)
	end := make([]int, len(lines)+1)
	for i, l := range lines {
		off[i+1] = off[i] + len(l)
	}
	end[len(lines)] = len(lines)
	for i := len(lines) - 1; i >= 0; i-- {
		if end[i] = end[i+1]; len(bytes.TrimSpace(lines[i])) == 0 {
			end[i] = i
		}
	}
	for i, line := range lines {
		depth, rest := containerDepth(line)
		if depth > mdMaxNesting {
			return refuse("%d block quotes or list items nested on line %d (limit %d)", depth, i+1, mdMaxNesting)
		}
		cols := delimiterRowColumns(rest)
		if cols == 0 {
			continue
		}
		rows, size := end[i+1]-(i+1), off[end[i+1]]-off[i+1]
		if cells := cols * rows; cells > 4*size+4096 {
			return refuse("table of %d columns padded over %d rows of %d bytes", cols, rows, size)
		}
	}
	root := mdBlocks.Parse(text.NewReader(src))
	var err error
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering || n.Type() != ast.TypeBlock || n.IsRaw() {
			return ast.WalkContinue, nil
		}
		segs := n.Lines()
		count := 0
		for i := 0; i < segs.Len(); i++ {
			seg := segs.At(i)
			for _, c := range seg.Value(src) {
				switch c {
				case '*', '_', '~', '[', ']', '(', ')', '`', '!':
					count++
				}
			}
		}
		if count > mdMaxDelims {
			line := bytes.Count(src[:segs.At(0).Start], []byte("\n")) + 1
			err = refuse("%d emphasis, link or code delimiters in the block at line %d (limit %d)", count, line, mdMaxDelims)
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	return err
}

// containerDepth counts the block quote and list item markers that open
// the line, generously (any indentation, thematic breaks included), and
// returns the rest of the line.
func containerDepth(line []byte) (int, []byte) {
	d, i := 0, 0
	for {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i == len(line) {
			return d, line[i:]
		}
		end := i + 1
		switch c := line[i]; {
		case c == '>':
			d, i = d+1, end
			continue
		case c == '-' || c == '+' || c == '*':
		case c >= '0' && c <= '9':
			for end < len(line) && end-i < 10 && line[end] >= '0' && line[end] <= '9' {
				end++
			}
			if end == len(line) || (line[end] != '.' && line[end] != ')') {
				return d, line[i:]
			}
			end++
		default:
			return d, line[i:]
		}
		if end < len(line) && line[end] != ' ' && line[end] != '\t' && line[end] != '\n' && line[end] != '\r' {
			return d, line[i:]
		}
		d, i = d+1, end
	}
}

// delimiterRowColumns returns the number of columns a line would declare
// as a GFM table delimiter row ("|---|:--:|"), counted generously, or 0
// when it cannot be one.
func delimiterRowColumns(line []byte) int {
	cols, dash := 0, false
	for _, c := range line {
		switch c {
		case '-':
			if !dash {
				cols++
			}
			dash = true
		case '|', ':', ' ', '\t', '\r', '\n':
			if c != ':' {
				dash = false
			}
		default:
			return 0
		}
	}
	return cols
}
