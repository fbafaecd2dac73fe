package ingest

import (
	"strings"
	"testing"
)

// TestTextLayout: plain text is read as a person reads it.
func TestTextLayout(t *testing.T) {
	raw := strings.Join([]string{
		"=============",
		" Staff rules",
		"=============",
		"",
		"Travel",
		"======",
		"",
		"Requests for travel must reach the office at least ten working days",
		"before departure, and a trip longer than one week needs the written",
		"approval of the director.",
		"",
		"Claims",
		"------",
		"",
		"Send with every claim:",
		"",
		"- the original receipts, or a scan of them when the",
		"  receipt was issued abroad;",
		"- the signed form.",
		"",
		"Item        Limit",
		"Hotel       120 euro",
		"Meals       60 euro",
		"",
		"    go run ./cmd/claim --month 11",
		"    go run ./cmd/claim --send",
		"",
		"Office of Staff",
		"Via Roma 1",
		"00100 Roma",
		"",
		"This paragraph is a single long sentence followed by a dashed rule that is much shorter than it",
		"---",
	}, "\n")
	p, err := ParseText("rules.txt", []byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	if p.Doc.Title != "Staff rules" {
		t.Errorf("title %q, want the overlined heading", p.Doc.Title)
	}
	type want struct {
		kind  Kind
		level int
		text  string
	}
	wants := []want{
		{KindHeading, 1, "Staff rules"},
		{KindHeading, 2, "Travel"},
		{KindParagraph, 0, "Requests for travel must reach the office at least ten working days before departure, and a trip longer than one week needs the written approval of the director."},
		{KindHeading, 3, "Claims"},
		{KindParagraph, 0, "Send with every claim:"},
		{KindParagraph, 0, "- the original receipts, or a scan of them when the receipt was issued abroad;\n- the signed form."},
		{KindParagraph, 0, "Item Limit\nHotel 120 euro\nMeals 60 euro"},
		{KindParagraph, 0, "go run ./cmd/claim --month 11\ngo run ./cmd/claim --send"},
		{KindParagraph, 0, "Office of Staff\nVia Roma 1\n00100 Roma"},
		{KindParagraph, 0, "This paragraph is a single long sentence followed by a dashed rule that is much shorter than it\n---"},
	}
	if len(p.Blocks) != len(wants) {
		for _, b := range p.Blocks {
			t.Logf("%v %d %q", b.Kind, b.Level, b.Text)
		}
		t.Fatalf("%d blocks, want %d", len(p.Blocks), len(wants))
	}
	for i, w := range wants {
		b := p.Blocks[i]
		if b.Kind != w.kind || b.Level != w.level || b.Text != w.text {
			t.Errorf("block %d = %v %d %q, want %v %d %q", i, b.Kind, b.Level, b.Text, w.kind, w.level, w.text)
		}
	}
}

// TestTextLayoutKeepsShortLines: lines shorter than a wrap width are kept
// as the author broke them, and a short first line is still the title.
func TestTextLayoutKeepsShortLines(t *testing.T) {
	p, err := ParseText("a.txt", []byte("Title line\n\nRoses are red,\nviolets are blue.\n"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Doc.Title != "Title line" || len(p.Blocks) != 2 || p.Blocks[0].Kind != KindHeading || p.Blocks[1].Text != "Roses are red,\nviolets are blue." {
		t.Errorf("title %q blocks %+v", p.Doc.Title, p.Blocks)
	}
}
