package answer

import (
	"strings"
	"testing"
)

// TestFigureWordsPastTwelve: a figure written in words past twelve
// ("eighteen months", "diciotto mesi", "forty hours") is a figure of the
// asked kind, so a passage that states one answers the question instead
// of being taken for one that states none; and a question's own figure
// in such words is its condition, read as its value.
func TestFigureWordsPastTwelve(t *testing.T) {
	for _, tc := range []struct {
		question, lang, text, want string
	}{
		{"How long must a candidate have been out of work to join the returners programme?", "en",
			"The returners programme takes on candidates who have been out of the workforce for eighteen months or more.", "eighteen months"},
		{"How many hours a week does the helpdesk rota cover?", "en",
			"The helpdesk rota covers forty hours a week, from Monday to Friday.", "forty hours"},
		{"Per quanto tempo bisogna essere stati fuori dal lavoro per il programma di rientro?", "it",
			"Il programma di rientro accoglie chi è stato fuori dal lavoro per diciotto mesi o più.", "diciotto mesi"},
	} {
		a, tr := askOver(t, tc.question, tc.lang, []string{tc.text})
		if a.Abstained {
			t.Errorf("%q: abstained (%s), want an answer stating %q", tc.question, tr.AbstainReason, tc.want)
			continue
		}
		if !strings.Contains(a.Text, tc.want) {
			t.Errorf("%q: %q does not state %q", tc.question, a.Text, tc.want)
		}
	}
	for _, tc := range []struct {
		text string
		want float64
	}{
		{"after eighteen months of service", 18},
		{"dopo quaranta giorni", 40},
		{"for fifty years", 50},
	} {
		if got := numbers(tc.text); len(got) != 1 || got[0] != tc.want {
			t.Errorf("numbers(%q) = %v, want [%v]", tc.text, got, tc.want)
		}
	}
}

// TestFrequencyAdjectives: a frequency said by an adjective or adverb
// ("quarterly", "fortnightly", "trimestrale") answers "how often"; a
// passage that states none still does not.
func TestFrequencyAdjectives(t *testing.T) {
	for _, tc := range []struct {
		question, lang, text string
		abstains             bool
	}{
		{"How often are the AI systems audited?", "en",
			"AI systems are audited quarterly or annually, based on their risk level.", false},
		{"How often is the on-call rota reviewed?", "en",
			"The on-call rota is reviewed fortnightly by the team lead.", false},
		{"Ogni quanto si fa la revisione dei sistemi di IA?", "it",
			"La revisione dei sistemi di IA è trimestrale o semestrale, secondo il rischio.", false},
		{"How often are the AI systems audited?", "en",
			"AI systems are audited by an independent team, which reports to the CTO.", true},
	} {
		a, tr := askOver(t, tc.question, tc.lang, []string{tc.text})
		if a.Abstained != tc.abstains {
			t.Errorf("%q: abstained %v (%s), want %v; answer %q", tc.question, a.Abstained, tr.AbstainReason, tc.abstains, a.Text)
		}
	}
}
