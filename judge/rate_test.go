package judge

import "testing"

// TestRateDenominator pins that a rate counted per another thing is
// another figure (README's rule 2: another unit), in both languages, and
// that the same rate said otherwise, or without what it is per, is not.
func TestRateDenominator(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"per week for a day", "How much is the meal allowance?", "25 euro a day.", "25 euro a week.", Misleading},
		{"per day said otherwise", "How much is the meal allowance?", "25 euro a day.", "25 euro per day.", Right},
		{"per left out", "How much is the meal allowance?", "25 euro a day.", "25 euro.", Right},
		{"per mile for per kilometre", "What is the cycling allowance?", "0.20 euro per kilometre.", "0.20 euro per mile.", Misleading},
		{"al mese per all'anno", "Quante ore di formazione sono previste?", "40 ore all'anno.", "40 ore al mese.", Misleading},
		{"ogni anno per all'anno", "Quante ore di formazione sono previste?", "40 ore all'anno.", "40 ore ogni anno.", Right},
		{"a settimana per al mese", "Quanti giorni posso lavorare da remoto?", "Fino a 2 giorni al mese.", "Fino a 2 giorni a settimana.", Misleading},
	})
}
