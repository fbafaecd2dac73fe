package ingest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte/internal/bombdoc"
)

// A run of small Word files that each stay within the per-file limits is
// stopped by the run's budget as the file that crosses it inflates, not
// after: the bytes inflated stay within the limit plus one read.
func TestBudgetStopsInflatingARunOfDOCX(t *testing.T) {
	t.Parallel()
	one, err := ParseWithin(NewBudget(context.Background(), Limits{}), "one.docx", bombdoc.DOCX(3000, 0))
	if err != nil {
		t.Fatal(err)
	}
	if one.Expanded < 300_000 {
		t.Fatalf("a 3,000-row table expanded to %d bytes; the test needs a larger file", one.Expanded)
	}
	limit := 3*one.Expanded + one.Expanded/2 // three files and a half
	b := NewBudget(context.Background(), Limits{ExpandedBytes: limit})
	var stopped error
	parsed := 0
	for i := range 10 {
		name := fmt.Sprintf("spese-%d.docx", i)
		if _, err := ParseWithin(b, name, bombdoc.DOCX(3000, i)); err != nil {
			stopped = err
			break
		}
		parsed++
	}
	var le *LimitError
	if !errors.As(stopped, &le) || le.Limit != LimitExpandedBytes || le.Max != limit || le.Path != "spese-3.docx" {
		t.Fatalf("after %d files: %v, want a LimitError of %s %d at spese-3.docx", parsed, stopped, LimitExpandedBytes, limit)
	}
	if !Stops(stopped) {
		t.Error("Stops does not recognise a LimitError")
	}
	if used := b.Used().ExpandedBytes; used > limit+64<<10 {
		t.Errorf("inflated %d bytes for a limit of %d: the fourth file was not stopped as it inflated", used, limit)
	}
	msg := stopped.Error()
	for _, want := range []string{LimitExpandedBytes, fmt.Sprint(limit), "spese-3.docx", "nothing of it was indexed"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the error does not say %q: %s", want, msg)
		}
	}
}

// Pages are charged for presentations' slides (and PDFs' pages); text
// formats are charged the text they extract.
func TestBudgetChargesPagesAndText(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join("testdata", "office", "slides-it.pptx"))
	if err != nil {
		t.Fatal(err)
	}
	b := NewBudget(context.Background(), Limits{Pages: 5})
	if _, err := ParseWithin(b, "a.pptx", raw); err != nil {
		t.Fatal(err)
	}
	if got := b.Used().Pages; got != 3 {
		t.Fatalf("3 slides charged as %d pages", got)
	}
	_, err = ParseWithin(b, "b.pptx", raw)
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != LimitPages || le.Max != 5 || le.Path != "b.pptx" {
		t.Fatalf("the second presentation: %v, want a LimitError of %s 5", err, LimitPages)
	}

	text := NewBudget(context.Background(), Limits{})
	p, err := ParseWithin(text, "note.md", []byte("# Ferie\n\nLe ferie si chiedono con dieci giorni di anticipo.\n"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Expanded != int64(len(p.Doc.Text)) || text.Used().ExpandedBytes != p.Expanded {
		t.Errorf("a Markdown file charged %d (recorded %d) for %d bytes of text", text.Used().ExpandedBytes, p.Expanded, len(p.Doc.Text))
	}
}

// A run whose context has ended parses nothing more, and a walk with its
// budget stops with the context's error instead of refusing each file.
func TestBudgetStopsWithItsContext(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	b := NewBudget(ctx, Limits{})
	if _, err := ParseWithin(b, "a.docx", bombdoc.DOCX(100, 0)); !errors.Is(err, context.Canceled) || !Stops(err) {
		t.Fatalf("parsing after the end of the run: %v", err)
	}
	if used := b.Used(); used != (Usage{}) {
		t.Errorf("a canceled run was charged %+v", used)
	}

	dir := t.TempDir()
	for i := range 3 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("d%d.docx", i)), bombdoc.DOCX(100, i), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	seen := 0
	err := Walk(dir, WalkOptions{Budget: b}, func(Entry) error { seen++; return nil })
	if !errors.Is(err, context.Canceled) || seen != 0 {
		t.Errorf("a walk of a canceled run: %v after %d files", err, seen)
	}
}

// A nil budget charges nothing and never stops: Parse's behaviour.
func TestNilBudget(t *testing.T) {
	t.Parallel()
	var b *Budget
	if err := b.AddChunks("x", 1<<30); err != nil || b.Err() != nil || b.Used() != (Usage{}) {
		t.Errorf("a nil budget: %v %v %+v", err, b.Err(), b.Used())
	}
	if _, err := ParseWithin(nil, "a.docx", bombdoc.DOCX(10, 0)); err != nil {
		t.Error(err)
	}
}
