package parse

import (
	"crypto/sha256"
	"encoding/hex"
	"path"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fonte-rag/fonte"
)

// heading is one entry of the open heading path.
type heading struct {
	level int
	text  string
}

// Builder accumulates blocks and the document text they slice, so every
// parser produces offsets the same way.
type Builder struct {
	text   strings.Builder
	blocks []Block
	path   []heading
	// Page is stamped on the blocks added from now on (0: no pages).
	Page int
	// Hidden counts the non-space characters a parser dropped because a
	// reader would not see them (Parsed.Hidden).
	Hidden int

	invisible, control int
}

// Blocks are the blocks added so far.
func (b *Builder) Blocks() []Block { return b.blocks }

// ClearHeadings closes every open heading: the blocks added next sit
// under none (a new slide, say).
func (b *Builder) ClearHeadings() { b.path = nil }

// Add normalizes text for its kind and appends it as a block; text that is
// empty after normalization is dropped.
func (b *Builder) Add(kind Kind, level int, text string) {
	text = b.clean(text, kind)
	if text == "" {
		return
	}
	var under []string
	if kind == KindHeading {
		level = min(max(level, 1), 6)
		// A heading closes every open heading at its level or deeper.
		for len(b.path) > 0 && b.path[len(b.path)-1].level >= level {
			b.path = b.path[:len(b.path)-1]
		}
		under = b.pathTexts()
		b.path = append(b.path, heading{level, text})
	} else {
		level = 0
		under = b.pathTexts()
	}
	if b.text.Len() > 0 {
		b.text.WriteString("\n\n")
	}
	start := b.text.Len()
	b.text.WriteString(text)
	b.blocks = append(b.blocks, Block{
		Kind: kind, Level: level, Text: text, Headings: under,
		Start: start, End: b.text.Len(), Page: b.Page,
	})
}

func (b *Builder) pathTexts() []string {
	if len(b.path) == 0 {
		return nil
	}
	out := make([]string, len(b.path))
	for i, h := range b.path {
		out[i] = h.text
	}
	return out
}

// clean drops invisible and control characters (counting them) and
// normalizes whitespace: code keeps its lines verbatim apart from trailing
// spaces; lists keep each line's leading indentation (it shows nesting);
// other kinds collapse runs of spaces, and headings become one line.
func (b *Builder) clean(s string, kind Kind) string {
	s = b.dropInvisible(s)
	lines := strings.Split(s, "\n")
	out := lines[:0]
	for _, line := range lines {
		switch kind {
		case KindCode:
			line = strings.TrimRightFunc(line, unicode.IsSpace)
			out = append(out, line)
			continue
		case KindList:
			indent := len(line) - len(strings.TrimLeft(line, " "))
			line = CollapseSpaces(line)
			if line != "" {
				line = strings.Repeat(" ", indent) + line
			}
		default:
			line = CollapseSpaces(line)
		}
		if line != "" {
			out = append(out, line)
		}
	}
	if kind == KindCode {
		// Leading and trailing blank lines carry nothing.
		for len(out) > 0 && out[0] == "" {
			out = out[1:]
		}
		for len(out) > 0 && out[len(out)-1] == "" {
			out = out[:len(out)-1]
		}
	}
	sep := "\n"
	if kind == KindHeading {
		sep = " "
	}
	return strings.Join(out, sep)
}

// dropInvisible removes invisible and control characters, counting them.
// Newlines and tabs stay; carriage returns, form and vertical feeds become
// spaces, since they are layout rather than content and are not counted.
// Invalid UTF-8 becomes U+FFFD, which the quality check weighs.
func (b *Builder) dropInvisible(s string) string {
	clean := true
	for _, r := range s {
		if IsInvisible(r) || (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r < 0xa0) || r == utf8.RuneError {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var sb strings.Builder
	sb.Grow(len(s))
	for _, r := range s {
		switch {
		case IsInvisible(r):
			b.invisible++
		case r == '\r' || r == '\f' || r == '\v':
			sb.WriteByte(' ')
		case r < 0x20 && r != '\n' && r != '\t', r >= 0x7f && r < 0xa0:
			b.control++
		default:
			// Invalid bytes come out of range as U+FFFD, so the result
			// is valid UTF-8 and the quality check counts them.
			sb.WriteRune(r)
		}
	}
	return sb.String()
}

// IsInvisible reports characters that render as nothing yet change the
// text a model reads: zero-width spaces and joiners, word joiner and the
// invisible operators, byte order mark, soft hyphen and Unicode tag
// characters (used to smuggle instructions past a human reader).
func IsInvisible(r rune) bool {
	switch {
	case r == 0x00ad, r == 0x200b, r == 0x200c, r == 0x200d, r == 0xfeff:
		return true
	case r >= 0x2060 && r <= 0x2064:
		return true
	case r >= 0xe0000 && r <= 0xe007f:
		return true
	}
	return false
}

// CollapseSpaces trims s and replaces every run of white space (including
// no-break spaces) with one ASCII space.
func CollapseSpaces(s string) string {
	var sb strings.Builder
	sb.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = sb.Len() > 0
			continue
		}
		if space {
			sb.WriteByte(' ')
			space = false
		}
		sb.WriteRune(r)
	}
	return sb.String()
}

// Finish assembles the Parsed value shared by all formats.
func (b *Builder) Finish(name, format string, raw []byte) *Parsed {
	sum := sha256.Sum256(raw)
	slash := filepath.ToSlash(name)
	return &Parsed{
		Doc: fonte.Document{
			ID:     slash,
			Source: name,
			SHA256: hex.EncodeToString(sum[:]),
			Text:   b.text.String(),
		},
		Blocks:    b.blocks,
		Format:    format,
		Hidden:    b.Hidden,
		Invisible: b.invisible,
		Control:   b.control,
	}
}

// FirstHeading returns the text of the first heading of the given level, or
// of any level when level is 0.
func FirstHeading(blocks []Block, level int) string {
	for _, bl := range blocks {
		if bl.Kind == KindHeading && (level == 0 || bl.Level == level) {
			return bl.Text
		}
	}
	return ""
}

// TitleFromName turns a file name into a readable title: the base name
// without extension, with dashes and underscores as spaces.
func TitleFromName(name string) string {
	base := path.Base(filepath.ToSlash(name))
	base = strings.TrimSuffix(base, path.Ext(base))
	t := CollapseSpaces(strings.NewReplacer("-", " ", "_", " ").Replace(base))
	if t == "" {
		return base
	}
	return t
}

// CleanTitle normalizes a title candidate: invisible characters removed,
// white space collapsed.
func CleanTitle(s string) string {
	var b Builder
	return CollapseSpaces(b.dropInvisible(s))
}
