package analysis

import "testing"

func TestDetectLanguage(t *testing.T) {
	cases := []struct {
		text, want string
	}{
		{"Il dipendente può chiedere le ferie al responsabile con una settimana di anticipo.", "it"},
		{"Le spese di viaggio sono rimborsate entro trenta giorni dalla presentazione della nota.", "it"},
		{"Per l'accesso all'ufficio serve il badge, che viene consegnato il primo giorno.", "it"},
		{"Non è necessario stampare i documenti: basta caricarli nel portale interno.", "it"},
		{"Employees can request leave from their manager at least one week in advance.", "en"},
		{"Travel expenses are reimbursed within thirty days of submitting the report.", "en"},
		{"You don't need to print the documents: it's enough to upload them to the portal.", "en"},
		{"The badge for the office is handed out on the first day, and it must be worn at all times.", "en"},
		{"Per diem rates vary by city.", ""}, // too few function words
		{"", ""},
		{"Roma Milano Napoli Torino", ""},
		{"The contract says: il dipendente ha diritto alle ferie. The manager agrees and la richiesta è approvata.", ""}, // mixed
	}
	for _, c := range cases {
		if got := DetectLanguage(c.text); got != c.want {
			it, en := langHits(c.text)
			t.Errorf("DetectLanguage(%q) = %q, want %q (it %d, en %d)", c.text, got, c.want, it, en)
		}
	}
}

func TestNormalizeLang(t *testing.T) {
	for in, want := range map[string]string{
		"it": "it", "it-IT": "it", "en_US": "en", "EN": "en", " Italian ": "it",
		"english": "en", "": "", "x": "", "12": "", "klingon": "",
	} {
		if got := NormalizeLanguage(in); got != want {
			t.Errorf("NormalizeLanguage(%q) = %q, want %q", in, got, want)
		}
	}
}
