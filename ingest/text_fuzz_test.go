package ingest

import (
	"errors"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
)

// utf16Bytes encodes s as UTF-16 with a byte order mark.
func utf16Bytes(s string, bigEndian bool) []byte {
	out := []byte{0xff, 0xfe}
	if bigEndian {
		out = []byte{0xfe, 0xff}
	}
	for _, u := range utf16.Encode([]rune(s)) {
		if bigEndian {
			out = append(out, byte(u>>8), byte(u))
		} else {
			out = append(out, byte(u), byte(u>>8))
		}
	}
	return out
}

// FuzzText feeds plain text in odd encodings (UTF-16 with either byte
// order mark, odd-length UTF-16, Windows-1252 mixed with UTF-8, a UTF-8
// byte order mark, CR and CRLF line ends, control characters) to
// ParseText: the result is a refusal or a document whose text is valid
// UTF-8 and whose blocks slice it (checkInvariants).
func FuzzText(f *testing.F) {
	addSeeds(f, "testdata/*/input.txt")
	addSeeds(f, "../examples/handbook/*/*.txt")
	for _, s := range [][]byte{
		[]byte("Title\n\nFirst paragraph\nsecond line.\r\n\r\nThird.\rFourth."),
		[]byte("\xef\xbb\xbfBOM then text"),
		[]byte("caff\xe8 \x93quoted\x94 \x80 euro, and UTF-8 caffè together"),
		utf16Bytes("Ferie e permessi\n\nLe ferie si chiedono con 15 giorni di anticipo.", false),
		utf16Bytes("Big endian\r\n\r\nText 😀 with a surrogate pair.", true),
		{0xff, 0xfe, 'a', 0, 0x00, 0xd8, 'b', 0}, // lone high surrogate
		{0xfe, 0xff, 0, 'a', 0},                  // odd length
		[]byte("tab\there\x01\x02\x7f\u200b\u00ad\U000E0041 controls"),
		[]byte(strings.Repeat("a", 200) + "\n\nshort"),
		{},
		[]byte("\n\n\n \t \n"),
		[]byte(".. csv-table:: T\n   :header: \"a\", \"b\"\n   :delim: ;\n\n   \"x\"; \"y\"; z\n   \"open\n"),
		[]byte(".. list-table::\n   :header-rows: 2\n\n   * - a\n     - b\n   * -\n"),
		[]byte("+--+---+\n|é | b |\n+==+===+\n| 1| 2 |\n+--+---+\n\n===  ===\na    b\n===  ===\n     c\n===  ===\n"),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		fuzzParse(t, ParseText, "fuzz.txt", raw)
	})
}

// FuzzParse runs the dispatching entry point on every format, with the
// quality check: a result passes the invariants, any error is a *Refusal.
func FuzzParse(f *testing.F) {
	for _, ext := range []string{".md", ".html", ".txt", ".pdf"} {
		f.Add(ext, []byte("# Title\n\nSome words about <b>leave</b> and *travel*."))
	}
	if raw, err := os.ReadFile("../examples/handbook/finance/travel-and-expenses-policy.pdf"); err == nil {
		f.Add(".pdf", raw)
	}
	f.Fuzz(func(t *testing.T, ext string, raw []byte) {
		p, err := Parse("fuzz"+ext, raw)
		if err != nil {
			var r *Refusal
			if !errors.As(err, &r) {
				t.Fatalf("error is not a *Refusal: %v", err)
			}
			if r.Reason == "" {
				t.Fatalf("refusal without a reason: %v", err)
			}
			return
		}
		checkInvariants(t, p)
	})
}

// pathologicalMarkdown lists inputs goldmark parses in superlinear time
// (seconds for 90 KB before the guard) or memory.
func pathologicalMarkdown(n int) map[string]string {
	rep := func(s string) string { return strings.Repeat(s, n/len(s)+1)[:n] }
	return map[string]string{
		"nested block quotes":   rep(">"),
		"nested ordered lists":  rep("1. "),
		"quotes and lists":      rep("> - "),
		"lists and quotes":      rep("- > "),
		"emphasis run":          rep("*a_"),
		"open links":            rep("[]("),
		"open links with text":  rep("[a]("),
		"nested brackets":       strings.Repeat("[", n/2) + strings.Repeat("]", n/2),
		"padded table":          strings.Repeat("|a", n/8) + "|\n" + strings.Repeat("|-", n/8) + "|\n" + strings.Repeat("|b\n", n/12),
		"strikethrough run":     rep("~~a"),
		"delimiter rows":        rep("|-|\n"),
		"bare delimiter rows":   rep("-|\n"),
		"images":                rep("!["),
		"emphasis under limits": rep(strings.Repeat("*a_", 330) + "\n\n"),
		"brackets under limits": rep(strings.Repeat("[", 500) + strings.Repeat("]", 500) + "\n\n"),
		"nesting under limits":  rep(strings.Repeat(">", 40) + "a\n\n"),
	}
}

// markdownPathologicalRefused names the inputs of pathologicalMarkdown
// past the guard's limits (mdMaxNesting, mdMaxDelims, the padded table):
// ParseMarkdown refuses them. The others sit under the limits and parse.
var markdownPathologicalRefused = map[string]bool{
	"nested block quotes": true, "nested ordered lists": true, "quotes and lists": true,
	"lists and quotes": true, "emphasis run": true, "open links": true,
	"open links with text": true, "nested brackets": true, "padded table": true,
	"strikethrough run": true, "images": true,
}

// TestMarkdownPathological holds ParseMarkdown's guard on inputs that took
// goldmark seconds (nested containers, delimiter runs, padded tables): past
// the limits they are refused as pathological, under them they parse. How
// long each takes against a realistic document of the same size is
// BenchmarkMarkdownPathological's to measure, not a test's.
func TestMarkdownPathological(t *testing.T) {
	for name, src := range pathologicalMarkdown(90 << 10) {
		_, err := ParseMarkdown("p.md", []byte(src))
		var r *Refusal
		refused := errors.As(err, &r) && strings.Contains(r.Detail, "pathological: ")
		if err != nil && !refused {
			t.Errorf("%s: error %v, want a pathological refusal or a result", name, err)
		}
		if want := markdownPathologicalRefused[name]; refused != want {
			t.Errorf("%s: refused %v, want %v (%v)", name, refused, want, err)
		}
	}
}

// TestMarkdownGuardLimits puts each limit at its edge: mdMaxNesting
// containers on a line and mdMaxDelims delimiters in a paragraph parse,
// one more is refused, naming the file.
func TestMarkdownGuardLimits(t *testing.T) {
	cases := []struct {
		name string
		at   func(n int) string
		max  int
	}{
		{"nested block quotes", func(n int) string { return strings.Repeat(">", n) + " a\n" }, mdMaxNesting},
		{"nested lists", func(n int) string { return strings.Repeat("- ", n) + "a\n" }, mdMaxNesting},
		{"emphasis delimiters", func(n int) string { return "x " + strings.Repeat("*", n) + " y\n" }, mdMaxDelims},
		{"link brackets", func(n int) string { return "x " + strings.Repeat("[", n) + " y\n" }, mdMaxDelims},
	}
	for _, c := range cases {
		if _, err := ParseMarkdown("edge.md", []byte(c.at(c.max))); err != nil {
			t.Errorf("%s at the limit (%d): %v, want it parsed", c.name, c.max, err)
		}
		_, err := ParseMarkdown("edge.md", []byte(c.at(c.max+1)))
		var r *Refusal
		if !errors.As(err, &r) || !strings.Contains(r.Detail, "pathological: ") || !strings.Contains(err.Error(), "edge.md") {
			t.Errorf("%s past the limit (%d): %v, want a pathological refusal naming edge.md", c.name, c.max+1, err)
		}
	}
}

// BenchmarkMarkdownPathological times ParseMarkdown on a realistic
// document of 90 KB (the handbook's Markdown repeated) and on each input
// of pathologicalMarkdown of the same size: the guard keeps those that
// parse within a small factor of the realistic one, and refuses the others
// in well under its time. go test -bench MarkdownPathological ./ingest
func BenchmarkMarkdownPathological(b *testing.B) {
	const n = 90 << 10
	var sb strings.Builder
	for sb.Len() < n {
		for _, name := range []string{"leave.md", "lavoro-agile.md", "inserimento-nuovi-assunti.md"} {
			raw, err := os.ReadFile("../examples/handbook/people/" + name)
			if err != nil {
				b.Fatal(err)
			}
			sb.Write(raw)
			sb.WriteString("\n\n")
		}
	}
	inputs := pathologicalMarkdown(n)
	inputs["realistic"] = sb.String()[:n]
	names := slices.Sorted(maps.Keys(inputs))
	for _, name := range names {
		src := []byte(inputs[name])
		b.Run(strings.ReplaceAll(name, " ", "_"), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				_, _ = ParseMarkdown("p.md", src)
			}
		})
	}
}
