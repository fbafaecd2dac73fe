package judge

import "testing"

// TestOtherThingNamedFirst pins that an answer of its own whose first
// clause names another thing (a name the question does not hold, a
// tool it says to run) before the reference's is misleading, in both
// languages, and that the reference's thing named first is not.
func TestOtherThingNamedFirst(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"another place first", "Where should I post release notes?", "In the #releases Slack channel.",
			"In the team's Confluence page, linked from #releases.", Misleading},
		{"the reference's place first", "Where should I post release notes?", "In the #releases Slack channel.",
			"In #releases, linked from the Confluence page.", Right},
		{"another tool to run first", "Quale comando installa i pacchetti appena costruiti?", "debi.",
			"Esegui dpkg-buildpackage; debi poi installa i pacchetti.", Misleading},
		{"the reference's tool first", "Quale comando installa i pacchetti appena costruiti?", "debi.",
			"debi, dopo dpkg-buildpackage.", Right},
	})
}
