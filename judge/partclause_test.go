package judge

import "testing"

// TestOnePartStated pins that an answer stating one part of a
// reference whole, and none of the rest, is partial (README's rules 1
// and 9), in both languages; and that the same words in a quoted
// passage about something else, or spread over it, are chance.
func TestOnePartStated(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"one clause of three", "What do I need to do before my first day?",
			"Sign the employment contract, upload a scanned identity document to the portal, and collect your building badge from reception.",
			"Collect your building badge.", Partial},
		{"one clause of three, in Italian", "Cosa devo fare prima del primo giorno?",
			"Firmare il contratto di assunzione, caricare una copia del documento d'identità sul portale e ritirare il badge alla reception.",
			"Ritirare il badge alla reception.", Partial},
		{"one item of a list", "Which sections does a handover note have?",
			"Open incidents, pending deployments, expiring certificates and upcoming maintenance windows.",
			"Its first section lists the expiring certificates of the handover. [1]", Partial},
		{"a passage about something else", "What do I need to do before my first day?",
			"Sign the employment contract, upload a scanned identity document to the portal, and collect your building badge from reception.",
			"Visitors collect a building badge at the front desk. [1]", Wrong},
		{"the words spread over a passage", "Which sections does a handover note have?",
			"Open incidents, pending deployments, expiring certificates and upcoming maintenance windows.",
			"A handover note is written when a certificate owner leaves; its sections are agreed by the team, and expiring accounts are closed. [1]", Wrong},
	})
}

// TestHeadingStated pins that an answer stating a reference's opening
// phrase before a colon, and not what the colon details, is partial in
// both languages, even when the phrase has a single word the question
// does not give; and that the phrase's words apart in a passage are
// chance.
func TestHeadingStated(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"the heading alone", "Which desk do guests use on arrival?",
			"The side desk: show an identity card and sign the visitor book.",
			"Guests go to the side desk.", Partial},
		{"the heading alone, in Italian", "Come si calcola la penale se le consegne sono più di una?",
			"Per singola consegna: la penale è di 50 euro per ogni giorno di ritardo.",
			"La penale si calcola per singola consegna.", Partial},
		{"the heading's words apart", "Which desk do guests use on arrival?",
			"The side desk: show an identity card and sign the visitor book.",
			"Guests sign in at the desk on arrival, and deliveries come in through a door on the far side of the building. [1]", Wrong},
	})
}

// TestOneWordPartStated pins that an answer of its own saying nothing
// but a part of one content word is partial, in both languages, and
// that the same word in a quoted passage, or beside words of its own,
// is not read as that part.
func TestOneWordPartStated(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"one word, alone", "Who approves overtime?", "The supervisor, then Payroll.", "The supervisor.", Partial},
		{"una parola, da sola", "Chi approva gli straordinari?", "Il supervisore, poi l'ufficio Paghe.", "Il supervisore.", Partial},
		{"one word in a passage", "Who approves overtime?", "The supervisor, then Payroll.",
			"Each supervisor keeps a rota of the shifts in the office. [1]", Wrong},
	})
}
