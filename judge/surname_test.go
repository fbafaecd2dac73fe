package judge

import "testing"

// TestTitleAndSurname pins that a title and the surname name the
// reference's person in both languages ("Dr Verdi", "la dottoressa
// Verdi" for Anna Verdi), that a title is no name of its own, and that
// another surname after a title is another person.
func TestTitleAndSurname(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"title and surname", "Who is the fire warden?", "Anna Verdi.", "Dr Verdi.", Right},
		{"titolo e cognome", "Chi è l'addetta antincendio?", "Anna Verdi.", "La dottoressa Verdi.", Right},
		{"another surname", "Who is the fire warden?", "Anna Verdi.", "Ms Neri.", Misleading},
	})
}
