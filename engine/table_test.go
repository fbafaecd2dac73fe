package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte/retrieve"
)

// TestTableCellQuestions indexes the 18F handbook's contacts page (its
// offices table: location, address, GSA region, office guide) and asks
// about single cells: the row of the office asked about ranks first,
// its text carries the header as "Column: value" pairs, its span is the
// row's line in the document, and the extractive answer cites the row.
func TestTableCellQuestions(t *testing.T) {
	ctx := context.Background()
	const page = "general-contacts.md"
	raw, err := os.ReadFile(filepath.Join("..", "..", "shared", "data", "handbook", "pages", "general-information-and-resources", page))
	if err != nil {
		t.Fatalf("the 18F handbook in ../shared/data: %v", err)
	}
	src, idx := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(src, page), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := Open(ctx, Settings{IndexDir: idx}, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, err := e.Index(ctx, src, nil); err != nil {
		t.Fatal(err)
	}
	rec, err := e.Document(ctx, page)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		question, row, line string
	}{
		{"What is the address of the Chicago office?",
			"Location: Chicago, IL | Address: 230 S. Dearborn St. 60604 | GSA region: 5", "Chicago, IL | 230 S. Dearborn St. 60604 | 5"},
		{"Which GSA region is the San Francisco office in?",
			"Location: San Francisco, CA | Address: 50 United Nations Plaza 94102 | GSA region: 9", "San Francisco, CA | 50 United Nations Plaza 94102 | 9"},
		{"Where is the New York City office located?",
			"Location: New York City, NY | Address: One World Trade Center, 10007 | GSA region: 2", "New York City, NY | One World Trade Center, 10007 | 2"},
	} {
		for _, mode := range []retrieve.Mode{retrieve.BM25, retrieve.Hybrid} {
			hits, err := e.Search(ctx, c.question, SearchOptions{K: 3, Mode: mode})
			if err != nil {
				t.Fatal(err)
			}
			if len(hits) == 0 {
				t.Fatalf("%q (%s): no hits", c.question, mode)
			}
			h := hits[0].Chunk
			if !strings.HasPrefix(h.Text, c.row) || h.Heading() != "Offices" {
				t.Errorf("%q (%s): top hit %q under %q, want the row %q under Offices", c.question, mode, h.Text, h.Headings, c.row)
				continue
			}
			if span := rec.Doc.Text[h.Start:h.End]; !strings.HasPrefix(span, c.line) || strings.Contains(span, "\n") {
				t.Errorf("%q (%s): the row chunk spans %q, want its line %q", c.question, mode, span, c.line)
			}
		}
		ans, err := e.Ask(ctx, c.question, AskOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if ans.Abstained || len(ans.Citations) == 0 {
			t.Errorf("%q: abstained (%q)", c.question, ans.Text)
			continue
		}
		cit := ans.Citations[0]
		if !strings.HasPrefix(cit.Chunk.Text, c.row) || !strings.Contains(cit.Quote, "Address:") {
			t.Errorf("%q: first citation quotes %q from %q, want the row with its header %q", c.question, cit.Quote, cit.Chunk.Text, c.row)
		}
		if span := rec.Doc.Text[cit.Start:cit.End]; !strings.HasPrefix(span, c.line) {
			t.Errorf("%q: the citation points at %q, want the row %q", c.question, span, c.line)
		}
	}
}
