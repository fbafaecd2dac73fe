package judge

import "testing"

// TestOtherArticleOfTheAct pins that a lead citing another article of
// the act whose article the reference cites names another rule, in both
// languages, in a quoted passage about the question as in a short
// answer, while one that cites the reference's article, alone or beside
// another, does not.
func TestOtherArticleOfTheAct(t *testing.T) {
	const q, ref = "Do we have to record the newsletter list in our register of processing?", "Yes, under Article 30 of the GDPR."
	const qi, refi = "La lista della newsletter va annotata nel registro dei trattamenti?", "Sì, ai sensi dell'art. 30 del GDPR."
	runJudgeCases(t, []judgeCase{
		{"another article", q, ref, "Yes, under Article 13 of the GDPR.", Misleading},
		{"un altro articolo", qi, refi, "Sì, ai sensi dell'art. 13 del GDPR.", Misleading},
		{"another article in a passage", q, ref,
			"Newsletter lists must be recorded in the register of processing, as Article 13 of the GDPR requires. [1]", Misleading},
		{"un altro articolo in un passo", qi, refi,
			"Le liste della newsletter vanno annotate nel registro dei trattamenti, come chiede l'art. 13 del GDPR. [1]", Misleading},
		{"the same article in a passage", q, ref,
			"Newsletter lists must be recorded in the register of processing, as Article 30 of the GDPR requires. [1]", Right},
		{"the same article", q, ref, "Yes: Article 30 of the GDPR requires it.", Right},
		{"lo stesso articolo accanto a un altro", qi, refi, "Sì, lo chiede l'art. 30 del GDPR, insieme all'art. 5 del GDPR.", Right},
	})
}
