package answer

import (
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

// A yes/no question whose quoted rule forbids, allows or obliges without
// doubt is answered yes or no first; a rule that both allows and forbids,
// or a question of fact, gets neither.
func TestYesNoPolarity(t *testing.T) {
	for _, c := range []struct{ question, text, want string }{
		{"Can we deploy on Fridays?", "Do not deploy on Fridays; deploy from Monday to Thursday.", "No — Do not deploy"},
		{"Si può parcheggiare nel cortile?", "Nel cortile è vietato parcheggiare le auto dei dipendenti.", "No — Nel cortile"},
		{"Posso portare il cane in ufficio?", "I dipendenti possono portare il cane in ufficio il venerdì.", "Sì — I dipendenti"},
		{"Do we have to sign the visitor log?", "Every visitor must sign the visitor log at reception.", "Yes — Every visitor"},
		// "i" and "a" are Italian stop words too: "I" inside the question says
		// English (shortLanguage).
		{"Must I sign a form?", "Every visitor must sign a form at reception.", "Yes — Every visitor"},
		{"Can I use my own laptop?", "You can use your own laptop, but you must not connect it to the office network.", "You can use"},
		{"Is the canteen open on Sundays?", "The canteen is not open on Sundays.", "The canteen"},
		// The subject first, as Italian often puts it.
		{"Il manuale si può stampare a colori?", "Il manuale non può essere stampato a colori.", "No — Il manuale"},
		// A yes needs every word of the question: a rule on a
		// neighbouring case ("un repository distinto") says nothing of
		// "un solo repository".
		{"Un progetto con più moduli va pubblicato in un solo repository?", "Ogni modulo autonomo va pubblicato in un repository distinto.", "Ogni modulo"},
		// A rule under a condition the question leaves open
		// (underCondition) gets neither yes nor no...
		{"Can I claim a taxi after a late meeting?", "You can claim a taxi after a late meeting if your manager approves it in advance.", "You can claim"},
		{"Si può prendere un taxi dopo una riunione serale?", "Si può prendere un taxi dopo una riunione serale se il responsabile lo approva prima.", "Si può prendere"},
		{"Can we deploy on Fridays?", "If the release touches payments, do not deploy on Fridays.", "If the release"},
		{"Si può fare il rilascio il venerdì?", "Se il rilascio tocca i pagamenti, non si può fare il rilascio il venerdì.", "Se il rilascio"},
		// ...but a condition the question states is its case, and one
		// past a contrast is an exception to the rule.
		{"Can I claim a taxi if my manager approves it?", "You can claim a taxi if your manager approves it.", "Yes — You can"},
		{"Should the report open in a new window?", "The report should not open in a new window by default, but if readers ask for one, offer a link.", "No — The report"},
	} {
		got, n, _ := ExtractSpan(c.question, []fonte.Chunk{{ID: "c", Text: c.text}})
		if n != 1 || !strings.HasPrefix(got, c.want) {
			t.Errorf("%q: got %q, want it to start %q", c.question, got, c.want)
		}
	}
}

// TestShortLanguageReadsThePronoun: "I" inside a short question is the
// English pronoun, so the text is English; the Italian article is lower
// case there, and a first word "I" decides nothing.
func TestShortLanguageReadsThePronoun(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"Do I need a visa?", "en"},
		{"Can I bring my dog to the office?", "en"},
		{"Devo portare i documenti?", "it"},
		{"I documenti vanno firmati da chi?", "it"},
	} {
		if got := shortLanguage(tc.text); got != tc.want {
			t.Errorf("shortLanguage(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

// "può" rules as "can" does, although Go's \b finds no boundary after
// its "ò": a sentence that states what one può do counts as a rule.
func TestYesNoSpansReadPuò(t *testing.T) {
	for _, s := range []string{"Si può portare un ospite.", "Un ospite può entrare dopo le 18."} {
		found := false
		for _, m := range typedSpans(s, YesNoAnswer) {
			found = found || s[m[0]:m[1]] == "può"
		}
		if !found {
			t.Errorf("typedSpans(%q, YesNoAnswer) = %v: want it to hold \"può\"", s, typedSpans(s, YesNoAnswer))
		}
	}
}
