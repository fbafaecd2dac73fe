package answer

import "testing"

// A figure given as an example never leads: in the sentence ("e.g.",
// "ad esempio") or on the line a "For example:" announces, which reads
// as a heading.
func TestExampleNeverLeads(t *testing.T) {
	for _, c := range []struct{ question, text string }{
		{"How many retries should the client make?",
			"Set the number of retries the client makes to suit the service (e.g. 3 retries for a fast API)."},
		{"Quanti tentativi deve fare il client?",
			"Impostate il numero di tentativi del client secondo il servizio (ad esempio 3 tentativi per un'API veloce)."},
		{"Which year goes in the copyright notice?",
			"Put the owner in the copyright notice. For example:\n\nCopyright (c) 2019 Example Widgets\n\nThe year in the notice is the year the work was first released."},
		{"In che anno va l'avviso di copyright?",
			"Nell'avviso di copyright va il titolare. Ad esempio:\n\nCopyright (c) 2019 Esempio Srl\n\nL'anno dell'avviso è l'anno in cui l'opera è stata pubblicata la prima volta."},
	} {
		if lead, quote := leadOf(t, c.question, c.text); lead != "" {
			t.Errorf("%q: lead %q over %q, want none", c.question, lead, quote)
		}
	}
}

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
