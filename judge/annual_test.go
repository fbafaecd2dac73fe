package judge

import "testing"

// TestAnnualBesideAFrequency pins that "annual" and "annuale" joined to
// another frequency mean yearly, in both languages, so that they state
// a yearly reference and contradict a monthly one; and that "annual"
// alone still names a thing, not a frequency.
func TestAnnualBesideAFrequency(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"in a list of frequencies", "How often are the pumps inspected?", "Monthly or annually, by pump size.",
			"Inspections are monthly or annual, depending on the pump's size.", Right},
		{"in una lista", "Ogni quanto si controllano le pompe?", "Mensilmente o annualmente.",
			"I controlli sono mensili o annuali.", Right},
		{"against another frequency", "How often are the pumps inspected?", "Monthly or quarterly, by pump size.",
			"Monthly or annual, by pump size.", Misleading},
		{"a thing, not a frequency", "How many days of leave do I get?", "25 days a year.",
			"25 days of annual leave.", Right},
	})
}
