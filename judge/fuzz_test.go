package judge

import (
	"reflect"
	"slices"
	"testing"
)

// FuzzJudge checks that any text gives one of the five verdicts, the same
// twice, and abstained whenever the system says it abstained.
func FuzzJudge(f *testing.F) {
	for _, s := range [][3]string{
		{"How much in London?", "250 euro per night in London.", "180 euro — up to 250 euro in London. [1]"},
		{"Quanto?", "1.000,50 euro (o 2 mesi).", "Il tetto è 1,000.50 € — sì [2, 3]"},
		{"Can I?", "No.", "No, you can't."},
		{"", "(", "—"},
		{"When?", "From 9:00-17:30 (12.30 on Fridays)", "9 am — 5:30 pm"},
		{"Which?", "`make install` in $(DESTDIR)", "\"Save as\" then ~/.config/x.yaml or https://x.org/"},
	} {
		f.Add(s[0], s[1], s[2], false)
	}
	f.Fuzz(func(t *testing.T, question, reference, answer string, abstained bool) {
		r := Judge(question, reference, answer, abstained)
		if !slices.Contains(Verdicts, r.Verdict) {
			t.Fatalf("verdict %q", r.Verdict)
		}
		if abstained && r.Verdict != Abstained {
			t.Fatalf("abstained answer judged %s", r.Verdict)
		}
		if again := Judge(question, reference, answer, abstained); !reflect.DeepEqual(again, r) {
			t.Fatalf("judged twice: %+v then %+v", r, again)
		}
	})
}
