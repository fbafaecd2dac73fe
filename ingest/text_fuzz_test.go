package ingest

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"
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

// minDuration is the fastest of three runs of fn, which keeps a busy
// machine's pauses out of the comparison.
func minDuration(fn func()) time.Duration {
	best := time.Duration(1<<63 - 1)
	for range 3 {
		start := time.Now()
		fn()
		best = min(best, time.Since(start))
	}
	return best
}

// TestMarkdownPathological holds ParseMarkdown on inputs that took goldmark
// seconds (nested containers, delimiter runs, padded tables) to the time of
// a realistic document of the same size: they are refused as pathological
// or parsed within a generous factor.
func TestMarkdownPathological(t *testing.T) {
	const n = 90 << 10
	// The normal input: the handbook's Markdown, repeated to n bytes.
	var sb strings.Builder
	for sb.Len() < n {
		for _, name := range []string{"leave.md", "lavoro-agile.md", "inserimento-nuovi-assunti.md"} {
			raw, err := os.ReadFile("../examples/handbook/people/" + name)
			if err != nil {
				t.Fatal(err)
			}
			sb.Write(raw)
			sb.WriteString("\n\n")
		}
	}
	normal := []byte(sb.String()[:n])
	if _, err := ParseMarkdown("normal.md", normal); err != nil {
		t.Fatalf("normal input refused: %v", err)
	}
	base := minDuration(func() { _, _ = ParseMarkdown("normal.md", normal) })
	const factor = 60
	for name, src := range pathologicalMarkdown(n) {
		var err error
		d := minDuration(func() { _, err = ParseMarkdown("p.md", []byte(src)) })
		var r *Refusal
		if err != nil && (!errors.As(err, &r) || !strings.Contains(r.Detail, "pathological: ")) {
			t.Errorf("%s: error %v, want a pathological refusal or a result", name, err)
		}
		t.Logf("%s: %v (normal %v), refused: %v", name, d, base, err != nil)
		if d > factor*base {
			t.Errorf("%s: %v, more than %d times the %v of a normal document of %d bytes", name, d, factor, base, n)
		}
	}
}
