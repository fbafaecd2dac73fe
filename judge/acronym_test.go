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

// TestAcronymSpelledOutInTheAnswer pins that an answer writing a
// reference's acronym by the words its capitals stand for states it, in
// both languages, the function words between them skipped, and that
// words with other initials name another thing.
func TestAcronymSpelledOutInTheAnswer(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"spelled out", "Who runs the shared hosting?", "The CDDO, with the hosting team.", "The Central Digital and Data Office, with the hosting team.", Right},
		{"per esteso", "Chi gestisce il registro?", "L'AgID, con il comune.", "L'Agenzia per l'Italia Digitale, con il comune.", Right},
		{"other initials", "Chi gestisce il registro?", "L'AgID, con il comune.", "L'Agenzia delle Entrate, con il comune.", Misleading},
	})
}

// TestAcronymAcrossFunctionWords pins that an answer naming a
// reference's name by the acronym of its capitalised words states it,
// the function words and elided articles between them skipped, in both
// languages; and that another acronym does not.
func TestAcronymAcrossFunctionWords(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"of between", "Who approves the budget?", "The Office of Public Finance.", "The OPF.", Right},
		{"un articolo eliso", "Quale testo regola i lavori?", "L'articolo 7 del Testo Unico dell'Edilizia Privata.", "L'art. 7 del TUEP.", Right},
		{"another acronym", "Quale testo regola i lavori?", "L'articolo 7 del Testo Unico dell'Edilizia Privata.", "L'art. 7 del TUIR.", Misleading},
	})
}
