package judge

import "testing"

// TestDayAfterItsMonth pins that a day written after its month
// ("September 14th", "September 14, 2026") or joined to it by "of"/"di"
// is that month's day, in both languages: it states the reference's
// date, and another day or month of the kind asked contradicts it.
func TestDayAfterItsMonth(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"month first, ordinal", "When is the audit due?", "14 September.", "September 14th.", Right},
		{"month first, with a year", "When is the audit due?", "14 September 2026.", "By September 14, 2026.", Right},
		{"di between, in Italian", "Quando scade la verifica?", "Il 14 settembre.", "Entro il 14 di settembre.", Right},
		{"another month, month first", "When is the audit due?", "14 September 2026.", "November 2 - November 14, 2026.", Misleading},
		{"another day, month first", "Quando scade la verifica?", "Il 14 settembre.", "Settembre 21.", Misleading},
	})
}

// TestDayAndMonthInDigits pins that a day and month in digits without a
// year, after a word that opens a date ("entro il 14/09"), is that
// month's day in both languages, and that another one contradicts it.
func TestDayAndMonthInDigits(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"entro il", "Quando scade la verifica?", "Il 14 settembre.", "Entro il 14/09.", Right},
		{"by", "When is the audit due?", "14 September.", "By 14/09.", Right},
		{"another day", "Quando scade la verifica?", "Il 14 settembre.", "Entro il 21/09.", Misleading},
	})
}

// TestMayAsAMonth pins that "May" after a day, before a year or at the
// sentence's end, is the month, in the reference and in the answer, in
// either language; "3 may apply" stays the modal.
func TestMayAsAMonth(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"english answer, italian reference", "Quando è stato firmato l'accordo?", "Il 9 maggio 2024.", "On 9 May 2024.", Right},
		{"english reference, italian answer", "When was the agreement signed?", "On 9 May 2024.", "Il 9 maggio 2024.", Right},
		{"at the end", "When was the agreement signed?", "On 9 May.", "It was signed on 9 May.", Right},
		{"another month", "When was the agreement signed?", "On 9 May 2024.", "On 9 June 2024.", Misleading},
		{"another day", "Quando è stato firmato l'accordo?", "Il 9 maggio 2024.", "On 19 May 2024.", Misleading},
		{"the modal after a number", "When does the notice close?", "On 3 May.", "Point 3 may apply later.", Misleading}, // right if it read 3 May
	})
}
