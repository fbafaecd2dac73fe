package judge

import "testing"

// TestBoundTurned pins that the reference's number said as a bound the
// other way ("at least 6" for up to 6), or as strictly past a number
// the reference states as it is ("more than 45 days" for 45 days), is
// misleading in both languages; and that a ceiling or floor of an exact
// figure, the same bound in other words, a bound negated or set as a
// condition, or the reference's "over" (a period as often as a bound),
// is not.
func TestBoundTurned(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"a ceiling turned into a floor", "How many guests can each member bring?", "Up to 6 guests.", "At least 6 guests.", Misleading},
		{"a floor turned into a ceiling, in Italian", "Quanti ospiti può portare ogni socio?", "Almeno 6 ospiti.", "Al massimo sei ospiti.", Misleading},
		{"strictly more than an exact figure", "How long are visitor logs kept?", "45 days.", "More than 45 days.", Misleading},
		{"strictly less than an exact figure, in Italian", "Per quanto tempo si tengono i registri dei visitatori?", "45 giorni.", "Meno di 45 giorni.", Misleading},
		{"a floor of an exact figure", "How long must a passphrase be?", "16 characters.", "At least sixteen characters.", Right},
		{"the same ceiling in other words", "Quanti ospiti può portare ogni socio?", "Fino a 6 ospiti.", "Non più di 6 ospiti.", Right},
		{"a ceiling said after the number", "How many guests can each member bring?", "6 guests or fewer.", "At most six guests.", Right},
		{"over read as neither", "Do I need a permit for the shed?", "Yes, for sheds over 15 square metres.",
			"Yes, for sheds of more than 15 square metres.", Right},
		{"a bound after an article, in Italian", "Serve il permesso per la casetta?", "Sì, per casette oltre i 15 metri quadri.",
			"Sì, se la casetta supera i 15 metri quadri, cioè per più di 15 metri quadri.", Right},
		{"a condition from the other side", "Do I need to register a stay abroad of a month?", "No, not for 40 days or less.",
			"Only if the stay lasts more than 40 days, so not for a month.", Right},
	})
}
