package judge

import "testing"

// TestLinkToTheAddress pins that a link to the reference's address, with
// its scheme or "www.", names the address, in either language, and that
// a link's scheme before its colon is no word that opens the answer in
// place of the address.
func TestLinkToTheAddress(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"scheme", "Su quale sito trovo i modelli dei bandi?", "Su modelli.esempio.it.", "https://modelli.esempio.it", Right},
		{"scheme and www", "Which site has the templates?", "templates.example.org.", "https://www.templates.example.org/", Right},
		{"inside a quoted passage", "Su quale sito trovo i modelli dei bandi?", "Su modelli.esempio.it.",
			"I modelli e i kit sono pubblicati sul sito https://modelli.esempio.it. [1]", Right},
		{"another site", "Which site has the templates?", "templates.example.org.", "https://forms.example.net", Misleading},
	})
}
