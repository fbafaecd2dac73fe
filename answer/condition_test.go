package answer

import (
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

// TestConditionItemsForbidNothing: a list item quoted under an intro that
// sets conditions ("…, provided they:", "purché:") is a condition of the
// intro's rule, so its negation ("do not break the terms") is no "No" to
// a yes/no question, in English and Italian; the intro's own rule gives
// the yes or no. An item under an intro that sets no condition still
// says no when it forbids.
func TestConditionItemsForbidNothing(t *testing.T) {
	for _, c := range []struct{ question, text, want, not string }{
		{"Can I put a static help site on GitHub Pages?",
			"Static websites are usually fine to be hosted on GitHub Pages, provided they:\n\n- are simple to maintain\n- do not break the GitHub terms for Pages",
			"", "No"},
		{"Posso mettere un sito statico di aiuto su GitHub Pages?",
			"I siti statici di solito vanno bene su GitHub Pages, se rispettano queste regole:\n\n- sono semplici da mantenere\n- non devono violare i termini di GitHub per Pages",
			"", "No"},
		{"Can we use GitHub Pages for hosting?",
			"Teams follow these hosting rules:\n\n- do not use GitHub Pages for hosting services\n- keep every service on the Cloud Platform",
			"No — ", ""},
	} {
		got, n, _ := ExtractSpan(c.question, []fonte.Chunk{{ID: "c", Text: c.text}})
		if n != 1 {
			t.Errorf("%q: nothing quoted", c.question)
			continue
		}
		if c.want != "" && !strings.HasPrefix(got, c.want) {
			t.Errorf("%q: got %q, want it to start %q", c.question, got, c.want)
		}
		if c.not != "" && strings.HasPrefix(got, c.not) {
			t.Errorf("%q: got %q, which answers %q", c.question, got, c.not)
		}
	}
	for _, c := range []struct{ intro, item, want string }{
		{"Static sites are fine on GitHub Pages, provided they:", "- do not break the terms", "Static sites are fine on GitHub Pages"},
		{"You can use a shared rota as long as:", "- nobody is on call half the time", "You can use a shared rota"},
		{"Si può usare un rota comune a condizione che:", "- nessuno sia reperibile metà del tempo", "Si può usare un rota comune"},
		{"Do not use these platforms:", "- a personal server", "- a personal server"},
	} {
		text := c.intro + "\n\n" + c.item
		sp := [2]int{len(c.intro) + 2, len(text)}
		if got := ruleOfItem(text, [2]int{0, len(text)}, sp); got != c.want {
			t.Errorf("ruleOfItem(%q) = %q, want %q", text, got, c.want)
		}
	}
}
