package ingest

import (
	"bytes"
	"strings"
	"unicode"
)

// ERB tags in Markdown sources.
//
// Middleman and Rails sites (the GDS Way among them) write ERB in their
// Markdown: <% ... %> statements, <%# ... %> comments and <%= ... %>
// output tags. A reader of the rendered page sees nothing of a statement
// or a comment, and of an output tag only what it prints. What a helper
// prints cannot be known without running the site, but a helper whose
// arguments are all string literals, <%= warning_text('Do not ...') %>,
// prints those words, wrapped in markup; so an output tag is replaced by
// its string literals when it has nothing else for arguments, and dropped
// otherwise. A literal that is one word naming a file or a symbol
// ('partials/site-banner', 'nav_item') is a reference the helper
// resolves, not text, and is left out. "<%%" is ERB's escape for a
// literal "<%". Tags close as Liquid's do (see liquid.go): within
// maxTagLen bytes and before a blank line; an unclosed "<%" is text.
//
// A block that content_for captures (<% content_for :sidebar do %> ...
// <% end %>) goes whole: the layout puts it outside the page body (a
// sidebar, the head), and with only its tags taken out, its indented
// lines would read as a code block.

// erbReader reads the ERB tags of one source.
type erbReader struct {
	captures erbCapture
}

// tag reads the ERB tag opening at src[start] ("<%"), which must close
// before limit: the text it stands for and the offset just past it, past
// the block too when it opens a content_for capture.
func (r *erbReader) tag(src []byte, start, limit int) (text string, end int, ok bool) {
	text, end, ok = erbTag(src, start, limit)
	if ok && end-start >= 4 && erbCaptures(erbCode(string(src[start+2:end-2]))) {
		if e, found := r.captures.end(src, end, limit); found {
			end = e
		}
	}
	return text, end, ok
}

// erbTag parses the ERB tag opening at src[start] ("<%"), which must close
// before limit. It returns the text the tag stands for and the offset just
// past it.
func erbTag(src []byte, start, limit int) (text string, end int, ok bool) {
	if start+2 > limit || src[start] != '<' || src[start+1] != '%' {
		return "", 0, false
	}
	if start+2 < limit && src[start+2] == '%' {
		return "<%", start + 3, true
	}
	window := src[start+2 : min(limit, start+maxTagLen)]
	k := bytes.Index(window, []byte("%>"))
	if k < 0 || hasBlankLine(window[:k]) {
		return "", 0, false
	}
	end = start + 2 + k + 2
	inner := string(window[:k])
	if !strings.HasPrefix(inner, "=") {
		return "", end, true // a statement or a comment
	}
	expr := strings.TrimSpace(strings.TrimSuffix(strings.TrimLeft(inner, "="), "-"))
	lits, ok := erbLiterals(expr)
	if !ok {
		return "", end, true
	}
	var words []string
	for _, l := range lits {
		if t := strings.TrimSpace(l); t != "" && !erbReference(t) {
			words = append(words, t)
		}
	}
	return strings.Join(words, " "), end, true
}

// erbLiterals reads a Ruby expression that is a string literal, or a
// method call whose arguments, in parentheses or not, are all string
// literals ("warning_text('x')", "t 'a', 'b'"). ok is false for anything
// else: a variable, a symbol, a hash, interpolation.
func erbLiterals(expr string) (lits []string, ok bool) {
	s := expr
	// The method name, when there is one: identifiers joined by dots,
	// the last possibly ending in ? or !.
	i := 0
	for i < len(s) && (s[i] == '_' || s[i] == '.' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || i > 0 && s[i] >= '0' && s[i] <= '9') {
		i++
	}
	if i < len(s) && i > 0 && (s[i] == '?' || s[i] == '!') {
		i++
	}
	s = strings.TrimSpace(s[i:])
	if i > 0 && strings.HasPrefix(s, "(") {
		if !strings.HasSuffix(s, ")") {
			return nil, false
		}
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	for s != "" {
		lit, rest, ok := rubyString(s)
		if !ok {
			return nil, false
		}
		lits = append(lits, lit)
		s = strings.TrimSpace(rest)
		if s == "" {
			break
		}
		if s[0] != ',' {
			return nil, false
		}
		s = strings.TrimSpace(s[1:])
		if s == "" {
			return nil, false
		}
	}
	return lits, len(lits) > 0
}

// rubyString reads the single- or double-quoted Ruby string literal that
// s opens with, its escapes undone; a double-quoted one with #{...}
// interpolation is not a literal.
func rubyString(s string) (lit, rest string, ok bool) {
	if s == "" || (s[0] != '\'' && s[0] != '"') {
		return "", "", false
	}
	q := s[0]
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == q:
			return b.String(), s[i+1:], true
		case c == '\\' && i+1 < len(s):
			i++
			switch n := s[i]; {
			case n == q || n == '\\':
				b.WriteByte(n)
			case q == '"' && n == 'n':
				b.WriteByte('\n')
			case q == '"' && n == 't':
				b.WriteByte('\t')
			default:
				b.WriteByte('\\')
				b.WriteByte(n)
			}
		case q == '"' && c == '#' && i+1 < len(s) && s[i+1] == '{':
			return "", "", false
		default:
			b.WriteByte(c)
		}
	}
	return "", "", false
}

// erbReference reports whether a literal is one word naming a file, a
// path or a symbol ("partials/banner", "nav_item", "/guide.html") rather
// than words for the reader.
func erbReference(s string) bool {
	return !strings.ContainsFunc(s, unicode.IsSpace) && strings.ContainsAny(s, "/_\\")
}

// erbCode returns the Ruby code of a statement tag, without its trim
// marks, or "" for an output tag or a comment.
func erbCode(inner string) string {
	if strings.HasPrefix(inner, "=") || strings.HasPrefix(inner, "#") {
		return ""
	}
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(inner, "-"), "-"))
}

// erbDepth is how a statement changes the nesting of Ruby blocks: +1 for
// one that opens a block ("content_for :x do", "if x", "items.each do
// |i|"), -1 for "end", 0 otherwise.
func erbDepth(code string) int {
	first, _, _ := strings.Cut(code, " ")
	switch first {
	case "end":
		return -1
	case "if", "unless", "case", "while", "until", "for", "begin":
		return 1
	}
	if strings.HasSuffix(code, " do") || code == "do" || strings.Contains(code, " do |") && strings.HasSuffix(code, "|") {
		return 1
	}
	return 0
}

// erbCapture finds the end of a content_for block whose opening tag ends
// at from: the offset just past its "<% end %>", before limit. A search
// that fails is remembered (failedFrom), and an opener after it, within
// the same limit, is not searched again, so unclosed openers cost one scan.
type erbCapture struct {
	failedFrom, failedLimit int
	failed                  bool
}

func (c *erbCapture) end(src []byte, from, limit int) (int, bool) {
	if c.failed && from >= c.failedFrom && limit == c.failedLimit {
		return 0, false
	}
	depth := 1
	for i := from; i < limit; {
		j := bytes.Index(src[i:limit], []byte("<%"))
		if j < 0 {
			break
		}
		j += i
		window := src[j+2 : min(limit, j+maxTagLen)]
		k := bytes.Index(window, []byte("%>"))
		if k < 0 {
			i = j + 2
			continue
		}
		depth += erbDepth(erbCode(string(window[:k])))
		i = j + 2 + k + 2
		if depth == 0 {
			return i, true
		}
	}
	c.failedFrom, c.failedLimit, c.failed = from, limit, true
	return 0, false
}

// erbCaptures reports whether a statement captures its block for the
// layout.
func erbCaptures(code string) bool {
	return strings.HasPrefix(code, "content_for ") && erbDepth(code) == 1
}
