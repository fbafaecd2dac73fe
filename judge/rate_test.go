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

// TestRateAfterACurrencySign pins that a figure whose currency is
// written before it ("£500", "€40", "EUR 40") is counted per what
// follows it, as "500 pounds a month" is.
func TestRateAfterACurrencySign(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"a month for a year", "What is the yearly budget for books?", "Up to £500 a year.", "Up to £500 a month.", Misleading},
		{"the same year", "What is the yearly budget for books?", "Up to £500 a year.", "Up to £500 per year.", Right},
		{"left out", "What is the yearly budget for books?", "Up to £500 a year.", "Up to £500.", Right},
		{"al giorno per a settimana", "Quanto è il rimborso per i pasti?", "€40 a settimana.", "€40 al giorno.", Misleading},
		{"the word before", "How much is the phone allowance?", "EUR 40 per month.", "EUR 40 per week.", Misleading},
		{"sign before and word after", "How much is the phone allowance?", "EUR 40 per month.", "40 euro a month.", Right},
	})
}

// TestRateAdded pins that a figure counted per a thing the reference
// does not count it per contradicts it in both languages, unless the
// question or the reference says per what or the thing is a unit of
// time; a rate the reference gives and the answer leaves out is still
// the same figure.
func TestRateAdded(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"per request added", "How many retries does the client make?", "3 retries, then it gives up.", "3 retries per request, then it gives up.", Misleading},
		{"per utente aggiunto", "Quanti tentativi fa il client?", "3 tentativi, poi si arrende.", "3 tentativi per utente, poi si arrende.", Misleading},
		{"per a unit of time", "How much for a hotel in Rome?", "180 euro.", "Up to 180 euro per night.", Right},
		{"the question's rate", "How many hours a week do I work?", "40 hours.", "40 hours a week.", Right},
		{"the reference's rate left out", "How many days can I work from home?", "2 days a week.", "2 days.", Right},
	})
}
