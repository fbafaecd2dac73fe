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
