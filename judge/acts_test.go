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
