package answer

import "testing"

// illustrative reads the words before a span; TestNoLeadWhenInDoubt
// checks that such a span never leads.
func TestIllustrative(t *testing.T) {
	for before, want := range map[string]bool{
		"a period from first to latest (e.g. ":    true,
		"a period from first to latest (e.g., ":   true,
		"for example, a limit of ":                true,
		"un periodo (ad esempio ":                 true,
		"per es. ":                                true,
		"a period from first to latest, at most ": false,
		"for example, set the limit; it is then ": false,
		"the example project takes ":              false,
	} {
		if got := illustrative(before); got != want {
			t.Errorf("illustrative(%q) = %v, want %v", before, got, want)
		}
	}
}
