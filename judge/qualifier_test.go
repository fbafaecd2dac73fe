package judge

import "testing"

// TestQualifierAdded pins README's rule 2 for days: working days said
// for plain days add a qualifier and are another figure; plain days for
// working days leave one out and are the same.
func TestQualifierAdded(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"working days added", "Dopo quanto tempo arriva il rimborso?", "Entro 30 giorni dalla richiesta.", "Entro 30 giorni lavorativi dalla richiesta.", Misleading},
		{"business days added", "How long do I have to file the claim?", "30 days after the trip.", "30 business days after the trip.", Misleading},
		{"working days left out", "How long do I have to file the claim?", "30 working days after the trip.", "30 days after the trip.", Right},
		{"the same qualifier", "Dopo quanto tempo arriva il rimborso?", "Entro 30 giorni lavorativi.", "Entro 30 giorni lavorativi dalla richiesta.", Right},
	})
}
