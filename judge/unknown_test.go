package judge

import "testing"

// TestBareUnknownAbstains pins that a bare "Unknown." or "Not
// specified." abstains in both languages, as "I don't know" does
// (README rule 10), and that the same words in a clause that answers
// ("The cause is unknown, so the fee is 40 euro") do not.
func TestBareUnknownAbstains(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"unknown", "How long is the trial period?", "4 months.", "Unknown.", Abstained},
		{"not specified, and where", "How long is the trial period?", "4 months.", "Not specified in the handbook.", Abstained},
		{"non è specificato", "Quanto dura il periodo di prova?", "4 mesi.", "Non è specificato.", Abstained},
		{"non indicato, e dove", "Quanto dura il periodo di prova?", "4 mesi.", "Non indicato nella guida.", Abstained},
		{"unknown inside an answer", "How much is the late fee?", "40 euro.", "The reason is unknown, but the fee is 40 euro.", Right},
	})
}

// TestAbstentionsInOtherWords pins abstentions worded in other ways, in
// both languages (README: "abstentions worded in many ways"), and that
// an answer which says where the fact is not, then gives it, still
// answers.
func TestAbstentionsInOtherWords(t *testing.T) {
	qEN, rEN := "How many desks does the quiet room have?", "12 desks."
	qIT, rIT := "Quante scrivanie ha la sala silenziosa?", "12 scrivanie."
	var cases []judgeCase
	for _, a := range []string{"No idea.", "I'm afraid I can't help with that.", "There's nothing about this in the docs.",
		"Sorry, I don't have that information.", "This isn't covered in the sources I have.", "Nothing in the documents says so."} {
		cases = append(cases, judgeCase{a, qEN, rEN, a, Abstained})
	}
	for _, a := range []string{"Non ne ho idea.", "Nessuna idea.", "Non c'è nulla su questo nei documenti.", "Nei documenti non c'è.",
		"Non risulta.", "Purtroppo non ho questa informazione.", "Il manuale non ne parla.", "Non riesco a rispondere con i documenti forniti.",
		"Non ne sono sicuro, forse 10."} {
		cases = append(cases, judgeCase{a, qIT, rIT, a, Abstained})
	}
	cases = append(cases,
		judgeCase{"an answer after", qEN, rEN, "The room has 12 desks; the booking page has no idea of which are free.", Right},
		judgeCase{"una risposta", qIT, rIT, "Ne ha 12: nel manuale non c'è la pianta, ma il numero sì.", Right})
	runJudgeCases(t, cases)
}

// TestSilentSourcesAndDeclinedGuesses pins that an answer saying the
// sources it has are silent, or declining to guess, abstains in both
// languages, and that a document said to be silent on one point beside
// an answer does not.
func TestSilentSourcesAndDeclinedGuesses(t *testing.T) {
	q, r := "How many desks does the quiet room have?", "12 desks."
	qIT, rIT := "Quante scrivanie ha la sala silenziosa?", "12 scrivanie."
	runJudgeCases(t, []judgeCase{
		{"silent sources", q, r, "The material I have says nothing about the room.", Abstained},
		{"a guess declined", q, r, "I'd rather not guess on that one.", Abstained},
		{"fonti silenziose", qIT, rIT, "Le fonti che ho non dicono nulla sulla sala.", Abstained},
		{"niente tentativi", qIT, rIT, "Preferisco non tirare a indovinare.", Abstained},
		{"an answer beside", q, r, "It has 12 desks; the booking page says nothing of which are free.", Right},
	})
}
