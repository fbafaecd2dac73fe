package judge

import "testing"

// TestGlossaryOfOtherTerms pins that a glossary of other terms,
// answering a question that asks what a term means, talks about
// something else even when its definitions share the reference's
// words, in both languages; a glossary that defines the term asked
// answers.
func TestGlossaryOfOtherTerms(t *testing.T) {
	const q, ref = "What is a steward in the data office?", "The person who checks a dataset's contents and publishes it in the official catalogue."
	const qi, refi = "Chi è il curatore nell'ufficio dati?", "La persona che controlla i contenuti di un dataset e lo pubblica nel catalogo ufficiale."
	runJudgeCases(t, []judgeCase{
		{"other terms", q, ref,
			"- data owner (DO): the person who may publish a dataset's contents in the official catalogue.\n- data user (DU): a person with read access to the official catalogue. [1]", Wrong},
		{"altri termini", qi, refi,
			"- titolare dei dati (TD): la persona che può pubblicare i contenuti di un dataset nel catalogo ufficiale.\n- utente dei dati (UD): persona con accesso in lettura al catalogo ufficiale. [1]", Wrong},
		{"the term among them", q, ref,
			"- data owner (DO): the person accountable for a dataset.\n- steward: the person who checks a dataset's contents and publishes it in the official catalogue. [1]", Right},
		{"il termine tra le voci", qi, refi,
			"- titolare dei dati (TD): la persona responsabile di un dataset.\n- curatore: la persona che controlla i contenuti di un dataset e lo pubblica nel catalogo ufficiale. [1]", Right},
	})
}
