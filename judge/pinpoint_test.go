package judge

import "testing"

// TestOpeningPinpointIsAKeyFact pins that an article's number that opens
// the reference is what it answers with, in both languages: an answer
// with the act alone misses it, another article contradicts it. An
// article named inside a longer sentence stays where a rule is written.
func TestOpeningPinpointIsAKeyFact(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"the act alone", "Quale norma prevede il registro?", "L'art. 12 della legge 300/1970.", "La legge 300/1970.", Partial},
		{"article and act", "Quale norma prevede il registro?", "L'art. 12 della legge 300/1970.", "L'articolo 12 della legge 300/1970.", Right},
		{"the act alone, english", "Which rule sets up the register?", "Article 12 of Law 300/1970.", "Law 300/1970.", Partial},
		{"another article", "Which rule sets up the register?", "Article 12 of Law 300/1970.", "Article 14 of Law 300/1970.", Misleading},
		{"an article inside the sentence", "Entro quando va aggiornato il registro?", "Entro 30 giorni, come previsto dall'art. 12 del regolamento.", "Entro 30 giorni.", Right},
	})
}
