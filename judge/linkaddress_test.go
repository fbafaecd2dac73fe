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

// TestSiteByItsName pins that a site named by the words of its address
// ("Moduli Comune" for moduli.comune.it) names the address, in both
// languages, and that another site's name, or one word of the address
// alone, does not.
func TestSiteByItsName(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"il nome del sito", "Su quale sito trovo i moduli?", "Su moduli.comune.it.", "Sul sito Moduli Comune.", Right},
		{"the site's name", "Which site has the forms?", "forms.council.uk.", "On the Forms Council site.", Right},
		{"another site", "Which site has the forms?", "forms.council.uk.", "On the Papers Council site.", Misleading},
		{"one word", "Su quale sito trovo i moduli?", "Su moduli.comune.it.", "Sul sito del Comune.", Misleading},
	})
}
