package chunk

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

// seeds is where the seeds' fixtures live, beside the repository.
var seeds = filepath.Join("..", "..", "shared", "fixtures", "seeds")

func readFixture(t testing.TB, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(seeds, name))
	if err != nil {
		t.Fatalf("seed fixture: %v", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("seed fixture %s: %v", name, err)
	}
}

// Seed 000: the first two passages of the invoices document, windowed four
// ways; only overlap keeps the answer sentence whole.
func TestWindowsSeed000(t *testing.T) {
	var fx struct {
		Documents map[string][]string `json:"documents"`
	}
	readFixture(t, "seed000-rulebook-it.json", &fx)
	text := strings.Join(fx.Documents["fatture"][:2], " ")
	if n := len(strings.Fields(text)); n != 51 {
		t.Fatalf("words in the text: %d, want 51", n)
	}
	const sentence = "entro cinque giorni dalla notifica di scarto"
	for _, tc := range []struct {
		size, overlap, chunks int
		whole                 bool
	}{
		{20, 0, 3, false},
		{20, 8, 4, true},
		{40, 0, 2, false},
		{40, 10, 2, true},
	} {
		ws := Windows(text, tc.size, tc.overlap)
		whole := false
		for _, w := range ws {
			whole = whole || strings.Contains(w, sentence)
		}
		if len(ws) != tc.chunks || whole != tc.whole {
			t.Errorf("size %d, overlap %d: %d chunks, whole %v; want %d, %v",
				tc.size, tc.overlap, len(ws), whole, tc.chunks, tc.whole)
		}
	}

	noOverlap := []string{
		"il codice destinatario prima dell'invio. Una fattura scartata dal sistema di interscambio va corretta e rinviata entro cinque giorni dalla",
		"notifica di scarto, mantenendo lo stesso numero e la stessa data.",
	}
	if got := Windows(text, 20, 0)[1:]; !reflect.DeepEqual(got, noOverlap) {
		t.Errorf("no overlap >\n got %q\nwant %q", got, noOverlap)
	}
	withOverlap := []string{
		"dodici giorni dalla data dell'operazione. L'ufficio amministrativo controlla il codice destinatario prima dell'invio. Una fattura scartata dal sistema di interscambio",
		"dell'invio. Una fattura scartata dal sistema di interscambio va corretta e rinviata entro cinque giorni dalla notifica di scarto, mantenendo",
	}
	if got := Windows(text, 20, 8)[1:3]; !reflect.DeepEqual(got, withOverlap) {
		t.Errorf("with overlap 8 >\n got %q\nwant %q", got, withOverlap)
	}
}

// Seed 001: SOP-001 with windows of 12 words and overlap 3.
func TestWindowsSeed001(t *testing.T) {
	var fx struct {
		Documents map[string]string `json:"documents"`
	}
	readFixture(t, "seed001-sops-en.json", &fx)
	want := []string{
		"Holidays are requested on the portal at least ten days in advance.",
		"days in advance. The manager approves or rejects within three days.",
	}
	if got := Windows(fx.Documents["SOP-001"], 12, 3); !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func TestWindowsEdges(t *testing.T) {
	for _, tc := range []struct {
		text          string
		size, overlap int
		want          []string
	}{
		{"", 3, 1, nil},
		{" \n\t ", 3, 1, nil},
		{"a b", 5, 4, []string{"a b"}},            // fewer words than the overlap: one window
		{"a b c d", 2, 0, []string{"a b", "c d"}}, // exact multiple: no empty tail
		{"a b c d e", 3, 1, []string{"a b c", "c d e"}},
		{"a b c d e f", 3, 1, []string{"a b c", "c d e", "e f"}},
		{"  a\n\nb\tc  ", 2, 1, []string{"a b", "b c"}},
	} {
		if got := Windows(tc.text, tc.size, tc.overlap); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Windows(%q, %d, %d) = %q, want %q", tc.text, tc.size, tc.overlap, got, tc.want)
		}
	}
}

func TestWindowValidation(t *testing.T) {
	for _, tc := range []struct{ size, overlap int }{{0, 0}, {3, 3}, {3, 4}, {3, -1}} {
		if _, err := NewWindow(tc.size, tc.overlap); !errors.Is(err, ErrWindow) {
			t.Errorf("NewWindow(%d, %d) error = %v, want ErrWindow", tc.size, tc.overlap, err)
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Window{%d, %d}.Chunk did not panic", tc.size, tc.overlap)
				}
			}()
			Window{tc.size, tc.overlap}.Chunk(fonte.Document{Text: "a b c"})
		}()
	}
	if w, err := NewWindow(3, 2); err != nil || w != (Window{3, 2}) {
		t.Errorf("NewWindow(3, 2) = %v, %v", w, err)
	}
}

func TestWindowChunk(t *testing.T) {
	doc := fonte.Document{ID: "sop/001.md", Title: "Holidays", Text: "  One two\nthree  four\n\nfive. "}
	got := Window{Size: 3, Overlap: 1}.Chunk(doc)
	want := []fonte.Chunk{
		{ID: "sop/001.md#0", DocID: "sop/001.md", Title: "Holidays", Text: "One two three", Start: 2, End: 15, Position: 0},
		{ID: "sop/001.md#1", DocID: "sop/001.md", Title: "Holidays", Text: "three four five.", Start: 10, End: 28, Position: 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
	if s := doc.Text[got[1].Start:got[1].End]; s != "three  four\n\nfive." {
		t.Errorf("span of chunk 1 = %q", s)
	}
	if got := (Window{Size: 3, Overlap: 1}).Spans(doc.Text); !reflect.DeepEqual(got, []Span{{2, 15}, {10, 28}}) {
		t.Errorf("Spans = %v", got)
	}
}

// Seed 002: one chunk per heading, with the sizes the seed prints.
func TestByHeadingSeed002(t *testing.T) {
	var fx struct {
		Small string `json:"handbook_small"`
		Large string `json:"handbook"`
	}
	readFixture(t, "seed002-handbook-en.json", &fx)

	small := ByHeading{}.Chunk(fonte.Document{ID: "handbook", Text: fx.Small})
	var got []string
	for _, c := range small {
		got = append(got, fmt.Sprintf("%s %s %d chars", c.ID, c.Heading(), len(c.Text)))
	}
	want := []string{
		"handbook#0 Refunds 159 chars",
		"handbook#1 Returns 133 chars",
		"handbook#2 Delivery 113 chars",
		"handbook#3 Accounts 135 chars",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("small handbook:\n got %q\nwant %q", got, want)
	}
	if small[0].Text != "An approved refund is returned to the original payment method within 5 working days. International refunds take up to 10 working days because of bank clearing." {
		t.Errorf("c0 text = %q", small[0].Text)
	}

	large := ByHeading{}.Chunk(fonte.Document{ID: "handbook", Text: fx.Large})
	total := 0
	for _, c := range large {
		total += len(c.Text)
		checkSpan(t, fx.Large, c)
	}
	if len(large) != 12 || total != 1352 {
		t.Errorf("large handbook: %d chunks, %d characters; want 12, 1352", len(large), total)
	}
}

// checkSpan asserts that a chunk's span holds exactly the chunk's words.
func checkSpan(t *testing.T, text string, c fonte.Chunk) {
	t.Helper()
	if c.Start < 0 || c.Start > c.End || c.End > len(text) {
		t.Fatalf("chunk %s: span [%d, %d) outside text of %d bytes", c.ID, c.Start, c.End, len(text))
	}
	span := strings.Join(strings.Fields(text[c.Start:c.End]), " ")
	if want := strings.Join(strings.Fields(c.Text), " "); span != want {
		t.Errorf("chunk %s: span holds %q, text is %q", c.ID, span, want)
	}
}

func TestSections(t *testing.T) {
	md := "Intro line.\n" +
		"# Billing #\n" +
		"\n" +
		"## Refunds\n" +
		"Refunds take  5 days.\r\n" +
		"   \n" +
		"Second paragraph.\n" +
		"```sh\n" +
		"# not a heading\n" +
		"```\n" +
		"### Card ##\n" +
		"Card text.\n" +
		"## C#\n" +
		"Sharp.\n" +
		"#hashtag is text\n" +
		"    # indented code, not a heading\n" +
		"# Other\n" +
		"Other text."
	got := Sections(md)
	want := []Section{
		{Headings: nil, Text: "Intro line."},
		{Headings: []string{"Billing", "Refunds"}, Text: "Refunds take  5 days. Second paragraph. ```sh # not a heading ```"},
		{Headings: []string{"Billing", "Refunds", "Card"}, Text: "Card text."},
		{Headings: []string{"Billing", "C#"}, Text: "Sharp. #hashtag is text # indented code, not a heading"},
		{Headings: []string{"Other"}, Text: "Other text."},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d sections: %+v", len(got), got)
	}
	for i := range want {
		if !reflect.DeepEqual(got[i].Headings, want[i].Headings) || got[i].Text != want[i].Text {
			t.Errorf("section %d = %q %q, want %q %q", i, got[i].Headings, got[i].Text, want[i].Headings, want[i].Text)
		}
		checkSpan(t, md, fonte.Chunk{ID: fmt.Sprint(i), Text: got[i].Text, Start: got[i].Start, End: got[i].End})
	}
	if s := md[got[4].Start:got[4].End]; s != "Other text." {
		t.Errorf("last span = %q", s)
	}
	if got := Sections("# Only a heading\n\n## And another\n"); len(got) != 0 {
		t.Errorf("blank sections: %+v", got)
	}
	// An unclosed fence runs to the end: nothing after it is a heading.
	if got := Sections("# A\n~~~~\n# B\n~~~\ntext"); len(got) != 1 || got[0].Text != "~~~~ # B ~~~ text" {
		t.Errorf("unclosed fence: %+v", got)
	}
}

func TestEnriched(t *testing.T) {
	c := fonte.Chunk{
		Title:    "Support handbook",
		Headings: []string{"Refunds"},
		Text:     "An approved refund is returned to the original payment method within 5 working days. International refunds take up to 10 working days because of bank clearing.",
	}
	want := "Support handbook > Refunds\n\nAn approved refund is returned to the original payment method within 5 working days. International refunds take up to 10 working days because of bank clearing."
	if got := Enriched(c); got != want {
		t.Errorf("Enriched = %q", got)
	}
	for _, tc := range []struct {
		c    fonte.Chunk
		want string
	}{
		{fonte.Chunk{Title: "T", Headings: []string{"A", "B"}, Text: "x"}, "T > A > B\n\nx"},
		{fonte.Chunk{Headings: []string{"A"}, Text: "x"}, "A\n\nx"},
		{fonte.Chunk{Title: "T", Text: "x"}, "T\n\nx"},
		{fonte.Chunk{Text: "x"}, "x"},
	} {
		if got := Enriched(tc.c); got != tc.want {
			t.Errorf("Enriched(%+v) = %q, want %q", tc.c, got, tc.want)
		}
	}
	if got := HeadingDotText(c); got != "Refunds. "+c.Text {
		t.Errorf("HeadingDotText = %q", got)
	}
	if got := HeadingDotText(fonte.Chunk{Headings: []string{"A", "B"}, Text: "x"}); got != "B. x" {
		t.Errorf("HeadingDotText nested = %q", got)
	}
	if got := HeadingDotText(fonte.Chunk{Text: "x"}); got != "x" {
		t.Errorf("HeadingDotText bare = %q", got)
	}
}

func TestWithin(t *testing.T) {
	doc := fonte.Document{ID: "d", Title: "T", Text: "# A\none two\nthree four five\n# B\nsix\n"}
	got := Within(ByHeading{}, Window{Size: 3, Overlap: 1}).Chunk(doc)
	want := []fonte.Chunk{
		{ID: "d#0", DocID: "d", Title: "T", Headings: []string{"A"}, Text: "one two three", Start: 4, End: 17, Position: 0},
		{ID: "d#1", DocID: "d", Title: "T", Headings: []string{"A"}, Text: "three four five", Start: 12, End: 27, Position: 1},
		{ID: "d#2", DocID: "d", Title: "T", Headings: []string{"B"}, Text: "six", Start: 32, End: 35, Position: 2},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
	for _, c := range got {
		checkSpan(t, doc.Text, c)
	}
}

// FuzzWindow checks, for any text and valid settings, that windows never
// panic, cover every word in order, and that each chunk's span slices back
// to the chunk's words.
func FuzzWindow(f *testing.F) {
	f.Add("Holidays are requested on the portal at least ten days in advance.", uint8(12), uint8(3))
	f.Add("", uint8(1), uint8(0))
	f.Add("a\u00a0b\u2003c\xffd  e", uint8(2), uint8(1))
	f.Fuzz(func(t *testing.T, text string, size, overlap uint8) {
		w := Window{Size: 1 + int(size)%40}
		w.Overlap = int(overlap) % w.Size
		words := strings.Fields(text)
		chunks := w.Chunk(fonte.Document{ID: "d", Text: text})
		if len(words) == 0 {
			if len(chunks) != 0 {
				t.Fatalf("%d chunks from a text without words", len(chunks))
			}
			return
		}
		next := 0 // index of the first word not yet covered
		for i, c := range chunks {
			checkSpan(t, text, c)
			cw := strings.Fields(c.Text)
			if len(cw) == 0 || len(cw) > w.Size {
				t.Fatalf("chunk %d has %d words, size %d", i, len(cw), w.Size)
			}
			start := i * (w.Size - w.Overlap)
			if !reflect.DeepEqual(cw, words[start:start+len(cw)]) {
				t.Fatalf("chunk %d = %q, want words from %d", i, cw, start)
			}
			if start > next || start+len(cw) <= next {
				t.Fatalf("chunk %d starts at word %d, brings nothing new after word %d", i, start, next)
			}
			next = start + len(cw)
		}
		if next != len(words) {
			t.Fatalf("windows cover %d of %d words", next, len(words))
		}
		if got := Windows(text, w.Size, w.Overlap); len(got) != len(chunks) {
			t.Fatalf("Windows gives %d windows, Chunk %d", len(got), len(chunks))
		}
	})
}

// FuzzSections checks that any input splits without panicking and that
// every section's span holds exactly its words.
func FuzzSections(f *testing.F) {
	f.Add("# A\ntext\n## B\nmore\n```\n# x\n```\n")
	f.Add("#\n#\t#\n   ### c ###\r\nbody\r\n")
	f.Fuzz(func(t *testing.T, md string) {
		for i, s := range Sections(md) {
			if strings.TrimSpace(s.Text) == "" {
				t.Fatalf("section %d is blank", i)
			}
			checkSpan(t, md, fonte.Chunk{ID: fmt.Sprint(i), Text: s.Text, Start: s.Start, End: s.End})
		}
	})
}

// benchText returns n pseudo-random words with a fixed seed, broken into
// Markdown sections of about 120 words.
func benchText(n int) string {
	r := rand.New(rand.NewPCG(1, 2))
	vocab := strings.Fields("refund return delivery account password payment invoice damage gift subscription contact the a of to within days working")
	var b strings.Builder
	for i := range n {
		if i%120 == 0 {
			fmt.Fprintf(&b, "\n## Section %d\n", i/120)
		}
		b.WriteString(vocab[r.IntN(len(vocab))])
		if r.IntN(12) == 0 {
			b.WriteString(".\n")
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

func BenchmarkWindow(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		doc := fonte.Document{ID: "bench", Text: benchText(n)}
		w := Window{Size: 200, Overlap: 40}
		b.Run(fmt.Sprintf("words=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(doc.Text)))
			for b.Loop() {
				w.Chunk(doc)
			}
		})
	}
}

func BenchmarkByHeading(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		doc := fonte.Document{ID: "bench", Text: benchText(n)}
		b.Run(fmt.Sprintf("words=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(doc.Text)))
			for b.Loop() {
				ByHeading{}.Chunk(doc)
			}
		})
	}
}
