package chunk

import (
	"strings"

	"github.com/fonte-rag/fonte"
)

// Enriched is the text to index or embed for a chunk: its context path, a
// blank line, then its text, so a fragment still says what it is about
// (seed 002: "Support handbook > Refunds\n\nAn approved refund …"). The path
// is the document title followed by the heading path, joined by " > ";
// empty parts are left out, and a chunk with neither title nor headings is
// indexed as its bare text.
func Enriched(c fonte.Chunk) string {
	parts := make([]string, 0, len(c.Headings)+1)
	if c.Title != "" {
		parts = append(parts, c.Title)
	}
	for _, h := range c.Headings {
		if h != "" {
			parts = append(parts, h)
		}
	}
	if len(parts) == 0 {
		return c.Text
	}
	return strings.Join(parts, " > ") + "\n\n" + c.Text
}

// HeadingDotText is the indexing form of seed 002's retrievers: the
// innermost heading, ". ", then the text ("Refunds. An approved refund …"),
// which makes the heading's words searchable. A chunk without a heading is
// indexed as its bare text.
func HeadingDotText(c fonte.Chunk) string {
	if h := c.Heading(); h != "" {
		return h + ". " + c.Text
	}
	return c.Text
}
