package ingest

import "strings"

// Placeholder headings.
//
// Site generators let a page print its own front matter: the GDS Way's
// Markdown opens with "# <%= current_page.data.title %>" (Middleman, ERB),
// Jekyll and Hugo pages with "# {{ page.title }}". The heading a reader
// sees is the filled-in title; the placeholder itself is no heading at
// all, and taken literally it would give every page of a site the same
// heading text. A heading whose whole text is one such expression is
// therefore read as the document's title when it is the first heading and
// the front matter gives one, and as no heading otherwise.

// placeholderDelims are the delimiters of template expressions, longest
// opener first so "{{<" is tried before "{{".
var placeholderDelims = [...][2]string{
	{"{{<", ">}}"}, // Hugo shortcode
	{"{{%", "%}}"}, // Hugo shortcode with Markdown content
	{"{{", "}}"},   // Liquid, Jinja, Nunjucks, Hugo, Handlebars, Mustache
	{"{%", "%}"},   // Liquid, Jinja and Nunjucks tags
	{"<%", "%>"},   // ERB, EJS (<%= ... %>, <%- ... %>)
}

// isPlaceholder reports whether s, trimmed, is exactly one template
// expression: an opener, a non-empty body holding neither that opener nor
// its closer, and the closer. "{{ a }} and {{ b }}" and "Using {{ x }} in
// prose" are not.
func isPlaceholder(s string) bool {
	s = strings.TrimSpace(s)
	for _, d := range placeholderDelims {
		open, closer := d[0], d[1]
		if len(s) < len(open)+len(closer) || !strings.HasPrefix(s, open) || !strings.HasSuffix(s, closer) {
			continue
		}
		body := s[len(open) : len(s)-len(closer)]
		return strings.TrimSpace(body) != "" && !strings.Contains(body, open) && !strings.Contains(body, closer)
	}
	return false
}

// placeholderTitle returns a title candidate, or "" when it is only a
// placeholder (front matter "title: {{ site.name }}" names nothing).
func placeholderTitle(s string) string {
	if isPlaceholder(s) {
		return ""
	}
	return s
}
