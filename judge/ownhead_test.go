package judge

import "testing"

// TestLeadWithItsOwnHead pins that a span lead repeating the
// reference's words under a head word of its own names another thing
// of the kind asked, in both languages; and that the reference's own
// phrase, a one-word lead and a lead with a figure are judged as
// before.
func TestLeadWithItsOwnHead(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"another head", "Where do we gather during the drill?", "At the north entrance of the car park.",
			"South entrance — The south entrance of the car park is kept clear for deliveries. [1]", Misleading},
		{"un altro ruolo", "Chi approva le ferie?", "Il responsabile dell'ufficio del personale.",
			"Direttore dell'ufficio — Il direttore dell'ufficio del personale approva le ferie. [1]", Misleading},
		{"the reference's head", "Where do we gather during the drill?", "At the north entrance of the car park.",
			"North entrance — During the drill everyone gathers at the north entrance of the car park. [1]", Right},
		{"il ruolo giusto", "Chi approva le ferie?", "Il responsabile dell'ufficio del personale.",
			"Responsabile dell'ufficio — Il responsabile dell'ufficio del personale approva le ferie. [1]", Right},
	})
}
