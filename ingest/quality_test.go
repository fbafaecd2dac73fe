package ingest

import (
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/fonte-rag/fonte/ingest/internal/ingesttest"
)

var wantRefusal = ingesttest.WantRefusal

func TestRefusals(t *testing.T) {
	prose := "The quick brown fox jumps over the lazy dog near the river bank. "
	binary := make([]byte, 4096)
	for i := range binary {
		binary[i] = byte(i * 7 % 256)
	}
	noNUL := make([]byte, 4096)
	for i := range noNUL {
		noNUL[i] = byte(0x80 + i%64) // continuation bytes: never valid UTF-8
	}
	cases := []struct {
		name   string
		raw    string
		reason Reason
	}{
		{"empty.md", "", ReasonEmpty},
		{"blank.txt", " \n\t\n  \n", ReasonEmpty},
		{"frontmatter-only.md", "---\ntitle: Redirect\nredirect_to: /elsewhere/\n---\n", ReasonEmpty},
		{"only-markup.md", "<!-- nothing -->\n\n---\n\n{% include \"x.html\" %}\n", ReasonEmpty},
		{"punctuation.txt", "... --- !!! ??? ***", ReasonEmpty},
		{"empty-body.html", "<html><head><title>T</title></head><body><script>x()</script></body></html>", ReasonEmpty},
		{"binary.txt", string(binary), ReasonBinary},
		{"binary.md", "# Title\n\x00\x01\x02 some text", ReasonBinary},
		{"invalid-utf8.html", string(noNUL), ReasonBinary},
		{"replacement.txt", strings.Repeat("text \uFFFD\uFFFD ", 50), ReasonGarbled},
		{"controls.txt", strings.Repeat("abc\x01\x02\x03 def ", 40), ReasonGarbled},
		{"symbols.txt", strings.Repeat("#$%& *+/< =>@^ ", 20) + "word", ReasonGarbled},
		{"glued.txt", strings.Repeat(strings.ReplaceAll(prose, " ", ""), 5), ReasonGarbled},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse(c.name, []byte(c.raw))
			wantRefusal(t, err, c.reason)
		})
	}
}

func TestAcceptedText(t *testing.T) {
	cases := map[string]string{
		"short.txt":   "Hi.",
		"numbers.md":  "# Rates\n\n| Year | Rate |\n|---|---|\n| 2023 | 1.5% |\n| 2024 | 2.0% |\n\nRates are set every year by the board.",
		"code.md":     "# Tool\n\n```go\nfunc main() { fmt.Println(\"hello, world\") }\n```\n\nRun it with go run.",
		"one-fffd.md": "A long paragraph of ordinary prose with a single stray \uFFFD replacement character somewhere in the middle of it, which is not enough to call the text garbled.",
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			parseString(t, name, src)
		})
	}
}

func TestDecodeUTF16(t *testing.T) {
	u := utf16.Encode([]rune("Perché sì\n\nSecondo paragrafo."))
	le := []byte{0xff, 0xfe}
	be := []byte{0xfe, 0xff}
	for _, v := range u {
		le = append(le, byte(v), byte(v>>8))
		be = append(be, byte(v>>8), byte(v))
	}
	for name, raw := range map[string][]byte{"le.txt": le, "be.txt": be} {
		p, err := Parse(name, raw)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if p.Doc.Text != "Perché sì\n\nSecondo paragrafo." {
			t.Errorf("%s: text %q", name, p.Doc.Text)
		}
	}
}

func TestStats(t *testing.T) {
	s := Stats("ab 12 \uFFFD\x01 x-y !!")
	if s.Letters != 4 || s.Digits != 2 || s.Replacement != 1 || s.Control != 1 || s.Tokens != 5 || s.Words != 3 {
		t.Errorf("Stats = %+v", s)
	}
}
