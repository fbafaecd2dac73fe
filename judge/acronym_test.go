package judge

import "testing"

// TestAcronymForItsSpelledOutName pins that an acronym the reference
// gives in parentheses after its words states them, however many words
// they are and with the function words between them ("Total Cost of
// Ownership (TCO)"), in both languages, and that words whose initials do
// not spell it are not stated by it.
func TestAcronymForItsSpelledOutName(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"four words", "How do we compare the two offers?", "By their Total Cost of Ownership (TCO).", "By the TCO.", Right},
		{"quattro parole", "Chi coordina il progetto?", "L'Ufficio per la Transizione Digitale (UTD) del comune.", "L'UTD.", Right},
		{"another acronym", "How do we compare the two offers?", "By their Total Cost of Ownership (TCO).", "By the ROI.", Misleading},
		{"initials that do not spell it", "Chi coordina il progetto?", "L'Ufficio Tecnico Centrale di Roma (UTD).", "L'UTD.", Partial},
	})
}
