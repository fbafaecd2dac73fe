package judge

import "testing"

// TestReasonInTheOtherLanguage pins that a yes or no whose reason the
// answer gives in the other language is right, both ways; that a bare
// yes or no in the other language is still partial to a reference that
// says more; and that the opposite polarity stays misleading.
func TestReasonInTheOtherLanguage(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"italiano per l'inglese", "Can I leave my badge at the front desk overnight?", "No, badges must be kept by their holder at all times.",
			"No: il tesserino resta sempre con chi lo possiede.", Right},
		{"English for Italian", "Posso lasciare il tesserino alla reception per la notte?", "No, il tesserino va custodito sempre dal titolare.",
			"No, whoever holds the badge keeps it with them at every moment.", Right},
		{"a bare no", "Can I leave my badge at the front desk overnight?", "No, badges must be kept by their holder at all times.",
			"No.", Partial},
		{"the opposite", "Can I leave my badge at the front desk overnight?", "No, badges must be kept by their holder at all times.",
			"Sì, la reception lo custodisce fino al mattino.", Misleading},
	})
}
