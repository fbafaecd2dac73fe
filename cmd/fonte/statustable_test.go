package main

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/fonte-rag/fonte/engine"
)

// TestStatusTableAligned: fonte status's columns line up whatever the
// ids' lengths (the id column was 50 wide, and a longer id pushed its row
// right), the chunk counts' widths and the languages.
func TestStatusTableAligned(t *testing.T) {
	t.Parallel()
	day := time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC)
	docs := []engine.DocStatus{
		{ID: "index.html.md", Language: "en", Analysis: "en", Chunks: 4, Updated: day},
		{ID: "documentation/standards/justice-digital-front-end-engineering-standards.html.md", Language: "en", Analysis: "en", Chunks: 31, Updated: day},
		{ID: "persone/città/ferie-è-permessi.md", Language: "it", Analysis: "it", Chunks: 1200, Updated: day},
		{ID: "misc/unknown.txt", Language: "", Analysis: "neutral", Chunks: 2, Updated: day},
	}
	var b strings.Builder
	printDocTable(&b, docs)
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != len(docs) {
		t.Fatalf("%d lines for %d documents:\n%s", len(lines), len(docs), b.String())
	}
	// col is the rune offset of s in line.
	col := func(line, s string) int {
		i := strings.Index(line, s)
		if i < 0 {
			return -1
		}
		return utf8.RuneCountInString(line[:i])
	}
	for _, s := range []string{" chunks", "updated"} {
		want := col(lines[0], s)
		for i, l := range lines {
			if got := col(l, s); got != want || got < 0 {
				t.Errorf("%q at column %d in line %d, %d in line 0:\n%s", s, got, i, want, b.String())
			}
		}
	}
	if !strings.Contains(lines[3], "  ? (analysis neutral)") || !strings.Contains(lines[2], " 1200 chunks") {
		t.Errorf("cells lost:\n%s", b.String())
	}
}
