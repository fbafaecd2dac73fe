package judge

import (
	"regexp"
	"strings"
)

// An answer quoted from a web page or a Markdown file can carry its
// markup: HTML tags (`<code class="filename">~/.gbp.conf</code>`), a tag
// cut off at the end of a passage (`</p`), Markdown links and a site
// generator's template tags. A reader sees the rendered text, so the
// judge reads that: left in, a tag's attribute is taken for the answer's
// code (`<code class=` against AllowTcpForwarding) and a code inside a
// tag is not found.

var (
	// htmlTagRE matches a tag of the elements that carry text in a page,
	// closed or cut off at the end of the passage; placeholders written
	// in angle brackets ("/media/<user>/<label>") are not tags.
	htmlTagRE = regexp.MustCompile(`(?i)</?` + htmlElements + `\b[^<>]*>`)
	// blockTagRE matches a tag that ends a block or a cell: its text and
	// the next are apart, as lines are ("…at all</td><td>Within…").
	blockTagRE = regexp.MustCompile(`(?i)</?(?:br|dd|div|dl|dt|h[1-6]|hr|li|ol|p|pre|table|tbody|td|th|thead|tr|ul)\b[^<>]*>`)
	// cutTagRE matches a tag cut off at the end of a quoted passage
	// ("…</p [2]"), keeping the citation marks after it.
	cutTagRE = regexp.MustCompile(`(?i)</?` + htmlElements + `\b[^<>\[]*((?:\s*\[\d+(?:\s*[,;]\s*\d+)*\])*\s*)$`)
	// markdownLinkRE matches a Markdown link, whose text is what the
	// reader sees.
	markdownLinkRE = regexp.MustCompile(`\[([^\[\]\n]+)\]\([^()\s]*(?:\([^()\s]*\))?[^()]*\)`)
	// templateRE matches a site generator's tag ("{% page … %}").
	templateRE = regexp.MustCompile(`\{[%{][^{}]*[%}]\}`)
	// hiddenRE matches an element a page does not show (display:none,
	// visibility:hidden, the hidden attribute) with its text, up to its
	// closing tag, one cut off, or the passage's end: no reader sees it.
	hiddenRE = regexp.MustCompile(`(?is)<(?:p|div|span|section|aside|li|td|a)\b[^<>]*(?:display\s*:\s*none|visibility\s*:\s*hidden|\shidden\b)[^<>]*>.*?(?:</(?:p|div|span|section|aside|li|td|a)\b[^<>]*>?|$)`)
	// entityRE matches an HTML character reference.
	entityRE = regexp.MustCompile(`&(?:#\d+|#x[0-9a-fA-F]+|[a-zA-Z]+);`)
)

// htmlElements are the elements that carry text in a page.
const htmlElements = `(?:a|abbr|b|br|code|dd|div|dl|dt|em|h[1-6]|hr|i|img|kbd|li|link|ol|p|pre|samp|span|strong|sub|sup|table|tbody|td|th|thead|tr|tt|u|ul|var)`

// entities are the character references a quoted page commonly holds.
var entities = map[string]string{"&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": `"`, "&apos;": "'", "&nbsp;": " ", "&#39;": "'"}

// plainText returns text as a reader sees it rendered: without hidden
// elements and their text, without HTML tags, with a Markdown link's
// text in place of the link, without template tags, and with character
// references resolved.
func plainText(text string) string {
	if !strings.ContainsAny(text, "<[{&") {
		return text
	}
	text = hiddenRE.ReplaceAllString(text, " ")
	text = templateRE.ReplaceAllString(text, " ")
	text = markdownLinkRE.ReplaceAllString(text, "$1")
	text = cutTagRE.ReplaceAllString(text, "$1")
	text = blockTagRE.ReplaceAllString(text, "\n")
	text = htmlTagRE.ReplaceAllString(text, "")
	return entityRE.ReplaceAllStringFunc(text, func(m string) string {
		if r, ok := entities[m]; ok {
			return r
		}
		return " "
	})
}
