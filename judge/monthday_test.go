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
