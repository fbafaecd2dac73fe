package judge

import "testing"

// TestPeriodForAnEvent pins that a lead giving a period of the calendar
// contradicts a reference that ties the time to each occurrence of an
// event, in both languages, and that a lead tied to the event, or a
// reference that gives a period itself, is not read so.
func TestPeriodForAnEvent(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"a period for each release", "When do we update the threat model?", "After each major release, with the security lead.", "Once a year, with the security lead.", Misleading},
		{"ogni mese per ogni rilascio", "Quando va aggiornato il registro dei rischi?", "Dopo ogni rilascio, con il responsabile della sicurezza.", "Ogni mese, con il responsabile della sicurezza.", Misleading},
		{"the event", "When do we update the threat model?", "After each major release, with the security lead.", "Every time there is a major release, with the security lead.", Right},
		{"a period in the reference", "When do we update the threat model?", "Every year, and after each major release.", "Every year, and after each major release too.", Right},
	})
}
