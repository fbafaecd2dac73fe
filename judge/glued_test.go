package judge

import "testing"

// TestAbbreviationGluedToItsNumber pins that an abbreviation written
// against its number ("n.8", "art.7", "no.12") numbers as it does with
// a space, in both languages: the number states the reference's, and
// another number contradicts it.
func TestAbbreviationGluedToItsNumber(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"art. glued", "Quale articolo del regolamento fissa l'obbligo?", "L'art. 7 del regolamento.", "L'art.7 del regolamento.", Right},
		{"another article glued", "Quale articolo del regolamento fissa l'obbligo?", "L'art. 7 del regolamento.", "L'art.9 del regolamento.", Misleading},
		{"n. glued", "Quali linee guida sono richiamate per la sicurezza?", "Le linee guida n. 4 del garante.", "Le linee guida n.4 del garante.", Right},
		{"no. glued", "Which circular sets the rule?", "Circular no. 12 of 2021.", "Circular no.12 of 2021.", Right},
		{"another number, n. glued", "Quali linee guida sono richiamate per la sicurezza?", "Le linee guida n. 4 del garante.", "Le linee guida n.5 del garante.", Misleading},
	})
}
