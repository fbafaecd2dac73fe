package answer

import (
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

// A quoted sentence that opens with a pronoun is quoted with the
// sentence before it in the same paragraph, which names what the
// pronoun stands for; across a paragraph break, a heading or a list
// intro it is quoted alone.
func TestQuoteWithReferent(t *testing.T) {
	for _, c := range []struct{ question, text, want string }{
		{"Which conventions do the Kotlin rules follow?",
			"We use ktlint for linting. Its rules follow the Kotlin conventions.",
			"We use ktlint for linting. Its rules follow"},
		{"Come si scaricano i sorgenti corretti della nuova versione?",
			"Basterà eseguire uscan nella directory del pacchetto. Questo scaricherà i sorgenti corretti della nuova versione.",
			"Basterà eseguire uscan"},
		{"Which conventions do the Kotlin rules follow?",
			"We use ktlint for linting.\n\nIts rules follow the Kotlin conventions.",
			"Its rules follow"},
		// A sentence before that states a figure of its own would open
		// the answer with it.
		{"How long is the refund window for it?",
			"Hotels refund within 10 days. Its refund window for trains is 30 days.",
			"30 days — Its refund window"},
		{"Which conventions do the Kotlin rules follow?",
			"Linters we use:\nIts rules follow the Kotlin conventions.",
			"Its rules follow"},
	} {
		got, n, span := ExtractSpan(c.question, []fonte.Chunk{{ID: "c", Text: c.text}})
		if n != 1 || !strings.HasPrefix(got, c.want) {
			t.Errorf("%q: got %q, want it to start %q", c.question, got, c.want)
			continue
		}
		quote := c.want
		if _, after, lead := strings.Cut(c.want, " — "); lead {
			quote = after // the quote starts after the lead
		}
		if !strings.HasPrefix(c.text[span[0]:span[1]], quote) {
			t.Errorf("%q: cited span %q, want it to start %q", c.question, c.text[span[0]:span[1]], quote)
		}
	}
}
