package judge

import "testing"

// TestActTypeSpellings pins that an act's type reads the same written in
// full, abbreviated with or without spaces, or in English, and that an
// act with another number or year in the lead contradicts the
// reference's, however the two are written.
func TestActTypeSpellings(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"abbreviation without spaces", "Quale decreto disciplina la conservazione?", "Il D. Lgs. n. 42 del 2004.", "Il D.Lgs. 42/2004.", Right},
		{"in full", "Quale decreto disciplina la conservazione?", "Il D. Lgs. n. 42 del 2004.", "Il decreto legislativo 42/2004.", Right},
		{"in english", "Quale decreto disciplina la conservazione?", "Il D. Lgs. n. 42 del 2004.", "Legislative Decree 42 of 2004.", Right},
		{"another act", "Quale decreto disciplina la conservazione?", "Il D. Lgs. n. 42 del 2004.", "Il D.Lgs. 82/2005.", Misleading},
		{"another year", "Which decree governs retention?", "Presidential Decree no. 445 of 2000.", "D.P.R. 445/2001.", Misleading},
		{"the same act, year first", "Which decree governs retention?", "Presidential Decree no. 445 of 2000.", "Il D.P.R. del 2000, n. 445.", Right},
	})
}

// TestActNamedByItsNumber pins that an answer naming an act by its
// number and year states the day and month of the date that gives the
// reference's year, and that naming it by its number states the type
// and issuer written before the number; a date beside a number that
// holds its year is a fact of its own, and another number is no such
// act.
func TestActNamedByItsNumber(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"number and year for a dated act", "Quale decreto regola gli appalti?", "Il Decreto legislativo 12 aprile 2006, n. 163.", "Il d.lgs. 163/2006.", Right},
		{"number and year, the date after", "Which decree regulates procurement?", "Legislative Decree no. 163 of 12 April 2006.", "Decree 163/2006.", Right},
		{"the issuer left out", "Con quale atto sono state approvate le regole?", "Con la Circolare ACME n. 21 del 3 marzo 2020.", "Con la circolare n. 21 del 3 marzo 2020.", Right},
		{"a date beside a number with its year", "Con quale atto sono state approvate le regole?", "Con la Circolare n. 21/2020 del 3 marzo 2020.", "Con la circolare n. 21 del 2020.", Partial},
		{"another number", "Quale decreto regola gli appalti?", "Il Decreto legislativo 12 aprile 2006, n. 163.", "Il d.lgs. 50/2006.", Misleading},
	})
}

// TestArticleOfAnotherAct pins that the reference's article given to
// another act, named by its acronym, contradicts it in both languages,
// and that the same article of the same act, or of an act written in
// other words, does not.
func TestArticleOfAnotherAct(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"another act", "Quale articolo del TUEL fissa le competenze?", "L'art. 42 del TUEL.", "L'art. 42 del CCNL.", Misleading},
		{"another act, english", "Which article of the GDPR covers the records?", "Article 30 of the GDPR.", "Article 30 of the NIS2.", Misleading},
		{"the same act", "Quale articolo del TUEL fissa le competenze?", "L'art. 42 del TUEL.", "L'articolo 42 del TUEL.", Right},
		{"the act in words", "Quale legge prevede gli accordi?", "L'art. 11 della legge 400/1988.", "Article 11 of Law 400/1988.", Right},
	})
}
