package judge

import "testing"

// TestWhenInAClause pins that "when" after another question word opens
// a clause and does not ask for a figure ("What contract do drivers get
// when they join?"), in both languages, so an answer that states the
// reference's opening phrase without its figure is partial; and that a
// question opening with "when" still asks for one, which an answer
// without it does not half answer.
func TestWhenInAClause(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"when in a clause", "What contract do new drivers get when they join the depot?",
			"A seasonal contract: 6 months, renewed each spring.",
			"New drivers join on a seasonal contract. [1]", Partial},
		{"quando in a clause", "Quale badge riceve un ospite quando entra in sede?",
			"Un badge provvisorio: vale 8 ore e va restituito all'uscita.",
			"All'ingresso l'ospite riceve un badge provvisorio. [1]", Partial},
		{"when asks", "When must a guest give the badge back?",
			"Within 8 hours, at the desk where it was issued.",
			"A guest gives the badge back at the desk where it was issued. [1]", Wrong},
	})
}
