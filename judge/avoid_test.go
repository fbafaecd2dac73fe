package judge

import "testing"

// TestAvoidSaysNo pins that a sentence that says to avoid what the
// question asks about says no, in both languages, and that a question
// asking about avoiding reads the same words as a yes.
func TestAvoidSaysNo(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"avoid", "Can we use acronyms in page titles?", "No. Avoid acronyms; spell them out.",
			"Avoid acronyms in page titles and headings. [1]", Right},
		{"evitare", "Possiamo usare le sigle nei titoli delle pagine?", "No. Evitare le sigle; vanno scritte per esteso.",
			"Evitare le sigle nei titoli e nelle intestazioni. [1]", Right},
		{"avoid against a yes", "Can we use acronyms in page titles?", "Yes.", "Avoid acronyms in page titles.", Misleading},
		{"a question about avoiding", "Should we avoid acronyms in page titles?", "Yes.", "Avoid acronyms in page titles.", Right},
	})
}

// TestAvoidSomethingElse pins that "avoid" or "evitare" said of a thing
// the question does not name, a condition after it set aside, says no
// to nothing asked, in both languages; and that said of the thing asked
// it still says no.
func TestAvoidSomethingElse(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"another thing avoided", "Can we use a joke as a page title?", "No, titles stay literal.",
			"Page titles should be clear - avoid global variables unless you have a strong reason. [1]", Wrong},
		{"un'altra cosa", "Possiamo usare una battuta come titolo della pagina?", "No, i titoli devono essere letterali.",
			"Il titolo della pagina va scritto chiaro: evitare variabili globali tranne nei test. [1]", Wrong},
		{"the thing asked avoided", "Can we use a joke as a page title?", "No. Avoid jokes and slang in titles.",
			"Avoid jokes in page titles unless the page is itself about humour. [1]", Right},
	})
}
