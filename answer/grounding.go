package answer

import (
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/fonte-rag/fonte"
)

// Supported reports whether every content key of answer occurs among the
// keys of the chunks' text: seed 002's word-containment check, a crude but
// mechanical test of whether the retrieved text could have produced the
// answer. Numeric citation markers such as [2] or [1, 3] are ignored. An
// answer can be right and unsupported (seed 002's phone number); that is
// still a defect, because the same code will invent the next one.
func (k Keys) Supported(answer string, chunks []fonte.Chunk) bool {
	return len(k.missing(answer, k.context(chunks))) == 0
}

// Unsupported returns the sentences of answer (split by Sentences) that
// have at least one content key absent from the chunks' text, in order: the
// claims the product should flag. It returns nil when every sentence is
// supported.
func (k Keys) Unsupported(answer string, chunks []fonte.Chunk) []string {
	ctx := k.context(chunks)
	var out []string
	for _, s := range Sentences(answer) {
		if len(k.missing(s, ctx)) > 0 {
			out = append(out, s)
		}
	}
	return out
}

func (k Keys) context(chunks []fonte.Chunk) map[string]bool {
	ctx := make(map[string]bool)
	for _, c := range chunks {
		for key := range k.Of(c.Text) {
			ctx[key] = true
		}
	}
	return ctx
}

// missing returns the keys of text, citation markers removed, absent from
// ctx.
func (k Keys) missing(text string, ctx map[string]bool) []string {
	var out []string
	for key := range k.Of(stripCitations(text)) {
		if !ctx[key] {
			out = append(out, key)
		}
	}
	return out
}

// Sentences splits an answer into sentences for per-claim checks: a
// sentence ends at ".", "!" or "?" followed by white space or the end of the
// text (so "5.5" and "v1.2" stay whole), keeping any citation markers right
// after the stop ("… 5 days. [1]"), and at every line break. Pieces are
// trimmed and empty ones dropped.
func Sentences(text string) []string {
	var out []string
	add := func(s string) {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	start := 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\n':
			add(text[start:i])
			start = i + 1
		case '.', '!', '?':
			end := i + 1
			for {
				j := end
				for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
					j++
				}
				if _, n := citationAt(text[j:]); n > 0 {
					end = j + n
					continue
				}
				break
			}
			if end == len(text) || unicode.IsSpace(rune(text[end])) {
				add(text[start:end])
				start, i = end, end-1
			}
		}
	}
	add(text[start:])
	return out
}

// Citations returns the source numbers cited in answer as [n] or [n, m],
// in order of first appearance, each once.
func Citations(answer string) []int {
	var out []int
	for i := 0; i < len(answer); i++ {
		if nums, n := citationAt(answer[i:]); n > 0 {
			for _, x := range nums {
				if !slices.Contains(out, x) {
					out = append(out, x)
				}
			}
			i += n - 1
		}
	}
	return out
}

// BadCitations returns, in increasing order, the cited numbers that name no
// source: below 1 or above sources. A model that cites [4] of three sources
// invented a reference.
func BadCitations(answer string, sources int) []int {
	var bad []int
	for _, n := range Citations(answer) {
		if n < 1 || n > sources {
			bad = append(bad, n)
		}
	}
	slices.Sort(bad)
	return bad
}

// citationAt parses a citation marker at the start of s: "[", one or more
// numbers separated by commas and spaces, "]". It returns the numbers and
// the marker's length, or 0 when s does not start with one.
func citationAt(s string) ([]int, int) {
	if s == "" || s[0] != '[' {
		return nil, 0
	}
	end := strings.IndexByte(s[:min(len(s), 64)], ']') // markers are short; bound the scan
	if end < 2 {
		return nil, 0
	}
	var nums []int
	for _, f := range strings.Split(s[1:end], ",") {
		f = strings.TrimSpace(f)
		n, err := strconv.Atoi(f)
		if err != nil || f == "" || f[0] == '+' || f[0] == '-' {
			return nil, 0
		}
		nums = append(nums, n)
	}
	return nums, end + 1
}

// stripCitations removes citation markers from text.
func stripCitations(text string) string {
	if !strings.Contains(text, "[") {
		return text
	}
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		if _, n := citationAt(text[i:]); n > 0 {
			b.WriteByte(' ')
			i += n - 1
			continue
		}
		b.WriteByte(text[i])
	}
	return b.String()
}
