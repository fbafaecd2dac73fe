package chunk

import (
	"slices"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

// build lays blocks out as ingest does: texts joined by blank lines, with
// heading paths tracked from the heading blocks.
func build(parts ...Block) (fonte.Document, []Block) {
	var sb strings.Builder
	var path []string
	var out []Block
	for i, b := range parts {
		if i > 0 {
			sb.WriteString("\n\n")
		}
		b.Start = sb.Len()
		sb.WriteString(b.Text)
		b.End = sb.Len()
		if b.Kind == Heading {
			if b.Level-1 < len(path) {
				path = path[:b.Level-1]
			}
			b.Headings = append([]string(nil), path...)
			path = append(path, b.Text)
		} else {
			b.Headings = append([]string(nil), path...)
		}
		out = append(out, b)
	}
	return fonte.Document{ID: "doc.md", Title: "Doc", Text: sb.String()}, out
}

func h(level int, text string) Block { return Block{Kind: Heading, Level: level, Text: text} }
func p(text string) Block            { return Block{Kind: Paragraph, Text: text} }

func sentences(n int, prefix string) string {
	var s []string
	for i := 0; i < n; i++ {
		s = append(s, prefix+" sentence number "+strings.Repeat("x", i%3+1)+" has seven words.")
	}
	return strings.Join(s, " ")
}

func checkSpans(t *testing.T, doc fonte.Document, cs []fonte.Chunk) {
	t.Helper()
	for i, c := range cs {
		if span := doc.Text[c.Start:c.End]; span != c.Text && !tableRowChunk(span, c.Text) {
			t.Fatalf("chunk %d text is not its span", i)
		}
		if c.Position != i || c.DocID != doc.ID || c.Title != doc.Title {
			t.Fatalf("chunk %d metadata %+v", i, c)
		}
	}
}

func TestStructureSectionsAndPaths(t *testing.T) {
	doc, blocks := build(
		h(1, "Leave"), p(sentences(6, "Leave")),
		h(2, "Sick leave"), p(sentences(6, "Sick")),
		h(1, "Travel"), p(sentences(6, "Travel")),
	)
	cs := Structure{MaxWords: 100, OverlapWords: 10, MinWords: 5}.Split(doc, blocks)
	checkSpans(t, doc, cs)
	if len(cs) != 3 {
		t.Fatalf("%d chunks, want 3", len(cs))
	}
	want := [][]string{{"Leave"}, {"Leave", "Sick leave"}, {"Travel"}}
	for i, c := range cs {
		if strings.Join(c.Headings, ">") != strings.Join(want[i], ">") {
			t.Errorf("chunk %d headings %v, want %v", i, c.Headings, want[i])
		}
	}
}

func TestStructureSplitsLongSectionsWithOverlap(t *testing.T) {
	doc, blocks := build(h(1, "Long"), p(sentences(40, "Long"))) // 280 words
	s := Structure{MaxWords: 50, OverlapWords: 14, MinWords: 5}
	cs := s.Split(doc, blocks)
	checkSpans(t, doc, cs)
	if len(cs) < 6 {
		t.Fatalf("%d chunks for 280 words at 50", len(cs))
	}
	for i, c := range cs {
		if wordCount(c.Text) > 50 {
			t.Errorf("chunk %d has %d words", i, wordCount(c.Text))
		}
		if !strings.HasSuffix(c.Text, ".") {
			t.Errorf("chunk %d does not end at a sentence: %q", i, c.Text)
		}
		if i > 0 {
			if c.Start >= cs[i-1].End {
				t.Errorf("chunk %d does not overlap the previous one", i)
			}
			if c.Start <= cs[i-1].Start {
				t.Errorf("chunk %d does not move forward", i)
			}
		}
	}
	if cs[len(cs)-1].End != blocks[1].End {
		t.Error("the end of the section is lost")
	}
}

// A table is chunked by rows: one chunk per data row, in document order
// between the text before and after it, its Text the row as "Column:
// value" pairs and its span the row's line in the document; a table with
// only a header line stays whole.
func TestStructureTablesByRows(t *testing.T) {
	table := Block{Kind: Table, Text: "Zone | Temperature | Goods\nA | frozen | ice cream\nB | chilled | dairy and fresh juice\nC | | dry goods"}
	lone := Block{Kind: Table, Text: "only | a | header"}
	doc, blocks := build(h(1, "Storage"), p(sentences(3, "Intro")), table, p(sentences(3, "After")), lone)
	cs := Structure{MaxWords: 40, OverlapWords: 5, MinWords: 5}.Split(doc, blocks)
	var got []string
	for _, c := range cs {
		got = append(got, c.Text)
		if !slices.Equal(c.Headings, []string{"Storage"}) {
			t.Errorf("chunk %q under %q", c.Text, c.Headings)
		}
	}
	want := []string{
		sentences(3, "Intro"),
		"Zone: A | Temperature: frozen | Goods: ice cream",
		"Zone: B | Temperature: chilled | Goods: dairy and fresh juice",
		"Zone: C | Goods: dry goods",
		sentences(3, "After") + "\n\nonly | a | header",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("chunks\n%q\nwant\n%q", got, want)
	}
	for i, line := range []string{"A | frozen | ice cream", "B | chilled | dairy and fresh juice", "C | | dry goods"} {
		if c := cs[1+i]; doc.Text[c.Start:c.End] != line {
			t.Errorf("row chunk %d spans %q, want its line %q", i, doc.Text[c.Start:c.End], line)
		}
	}
	// The chunks around the table are exact spans.
	for _, i := range []int{0, 4} {
		if c := cs[i]; doc.Text[c.Start:c.End] != c.Text {
			t.Errorf("chunk %d is not its span", i)
		}
	}
}

func TestTableRows(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		// An HTML caption heads every row.
		{"Opening hours\nDay | Hours\nMonday | 9-17\nSaturday | closed", []string{"Opening hours\nDay: Monday | Hours: 9-17", "Opening hours\nDay: Saturday | Hours: closed"}},
		// An empty header cell, empty cells, a pipe inside a word, a cell
		// equal to its header (a header row repeated down the table).
		{"| a | b\nx | | y|z\nc | a | b", []string{"x | b: y|z", "c | a | b"}},
		// One column.
		{"Name\nAlice\nBob", []string{"Name: Alice", "Name: Bob"}},
		// A layout table: one cell under a header of two (DocBook's notes).
		{"[Nota] | Nota\nSi usi questa sezione come un ripasso.", nil},
		// No data row.
		{"Name | Role", nil},
		{"Caption\nName | Role", nil},
	} {
		rows, ok := tableRows(c.text)
		var got []string
		for _, r := range rows {
			got = append(got, r.text)
		}
		if ok != (c.want != nil) || !slices.Equal(got, c.want) {
			t.Errorf("tableRows(%q) = %q, %v; want %q", c.text, got, ok, c.want)
		}
	}
}

func TestStructureMergesTinySections(t *testing.T) {
	doc, blocks := build(
		h(1, "Contact"),
		h(2, "Phone"), p("Call the desk."),
		h(2, "Chat"), p("Live chat is on the help page."),
		h(2, "Hours"), p(sentences(8, "Hours")),
	)
	cs := Structure{MaxWords: 200, OverlapWords: 10, MinWords: 20}.Split(doc, blocks)
	checkSpans(t, doc, cs)
	if len(cs) != 1 || !strings.Contains(cs[0].Text, "Live chat") || !strings.Contains(cs[0].Text, "Call the desk.") {
		t.Fatalf("tiny sections not merged: %d chunks, first %q", len(cs), cs[0].Text)
	}
	if got := strings.Join(cs[0].Headings, ">"); got != "Contact" {
		t.Errorf("merged headings %q, want the shared parent", got)
	}
	if !strings.Contains(cs[0].Text, "Chat") {
		t.Error("a merged section's heading line must stay in the text")
	}
}

func TestStructureValidate(t *testing.T) {
	for _, s := range []Structure{{MaxWords: 0}, {MaxWords: 10, OverlapWords: 10}, {MaxWords: 10, OverlapWords: -1}, {MaxWords: 10, MinWords: -1}} {
		if s.Validate() == nil {
			t.Errorf("%+v accepted", s)
		}
	}
	if DefaultStructure().Validate() != nil {
		t.Error("default invalid")
	}
}

func TestSentenceSpans(t *testing.T) {
	cases := []struct {
		text string
		want []string
	}{
		{"Refunds take 5 days. International ones take 10.", []string{"Refunds take 5 days.", "International ones take 10."}},
		{"Costs 3.5 euro, e.g. coffee. Next one!", []string{"Costs 3.5 euro, e.g. coffee.", "Next one!"}},
		{"Il sig. Rossi approva ecc. Poi la nota è inviata. «Sì» disse.", []string{"Il sig. Rossi approva ecc. Poi la nota è inviata.", "«Sì» disse."}},
		{"Ask J. Smith. Then wait?  Yes.", []string{"Ask J. Smith.", "Then wait?", "Yes."}},
		{"- first item\n- second item", []string{"- first item", "- second item"}},
		{"lower. case does not split", []string{"lower. case does not split"}},
		{"1. Submit the form. Then wait.\n2. Send it to HR.", []string{"1. Submit the form.", "Then wait.", "2. Send it to HR."}},
		{"Steps: 1. Fill it in. 2. Sign it.\n- 3. File it.", []string{"Steps: 1. Fill it in.", "2. Sign it.", "- 3. File it."}},
		{"Refunds take 10. Then 2025. Was it?", []string{"Refunds take 10.", "Then 2025.", "Was it?"}},
		// Italian legal references end no sentence; a domain still can.
		{"Si applica il D.Lgs. 82/2005 e gli artt. 13 e ss. Del resto vale il D.P.R. 445.", []string{"Si applica il D.Lgs. 82/2005 e gli artt. 13 e ss. Del resto vale il D.P.R. 445."}},
		{"Vedi il D. Lgs. 50/2016, co. 2, lett. b del testo. Fine.", []string{"Vedi il D. Lgs. 50/2016, co. 2, lett. b del testo.", "Fine."}},
		{"Publish it on GOV.UK. Then tell users.", []string{"Publish it on GOV.UK.", "Then tell users."}},
		{"", nil},
	}
	for _, c := range cases {
		var got []string
		for _, sp := range SentenceSpans(c.text) {
			got = append(got, c.text[sp[0]:sp[1]])
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%q:\n got  %q\n want %q", c.text, got, c.want)
		}
	}
}

func FuzzStructure(f *testing.F) {
	f.Add("Title", "One. Two three. Four five six.", 5, 2)
	f.Add("", "a\n\nb", 1, 0)
	f.Fuzz(func(t *testing.T, head, body string, size, overlap int) {
		if size <= 0 || size > 500 || overlap < 0 || overlap >= size {
			return
		}
		doc, blocks := build(h(1, head), p(body), Block{Kind: Table, Text: body}, p(body))
		cs := Structure{MaxWords: size, OverlapWords: overlap, MinWords: 2}.Split(doc, blocks)
		for i, c := range cs {
			if c.Start < 0 || c.End > len(doc.Text) || c.Start > c.End || (doc.Text[c.Start:c.End] != c.Text && !tableRowChunk(doc.Text[c.Start:c.End], c.Text)) {
				t.Fatalf("chunk %d span [%d,%d) invalid", i, c.Start, c.End)
			}
		}
	})
}
