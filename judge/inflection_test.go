package judge

import "testing"

// TestInflectionsMeet pins the word families the stem joins (forms of
// one word in English and Italian, the Italian participle among them)
// and the words it leaves alone: short ones, and an adjective in -ly, another word than its noun ("hourly
// backups" are no hour).
func TestInflectionsMeet(t *testing.T) {
	for _, pair := range [][2]string{
		{"closed", "close"}, {"closure", "closed"}, {"costing", "cost"}, {"stopped", "stop"}, {"running", "run"},
		{"migrazione", "migrare"}, {"definizione", "definire"}, {"apertura", "aperto"}, {"chiusura", "chiuso"},
		{"procedura", "procedere"}, {"prestato", "prestare"}, {"inviata", "inviare"}, {"ricevuti", "ricevere"}, {"compiute", "compiere"},
		{"salvataggio", "salvare"}, {"montaggio", "montare"}, {"pilotaggi", "pilotato"},
	} {
		if a, b := stem(fold(pair[0])), stem(fold(pair[1])); a != b {
			t.Errorf("stem(%q) = %q, stem(%q) = %q: one word's forms apart", pair[0], a, pair[1], b)
		}
	}
	for _, pair := range [][2]string{{"speed", "spe"}, {"king", "k"}, {"agreed", "agre"}, {"misura", "mis"}, {"hourly", "hour"}, {"stato", "st"}, {"sito", "s"}} {
		if a, b := stem(fold(pair[0])), stem(fold(pair[1])); a == b {
			t.Errorf("stem(%q) = stem(%q) = %q: a short word cut to another", pair[0], pair[1], a)
		}
	}
}

// TestParaphraseByWordFamilies judges references without key facts
// answered in other forms of their words.
func TestParaphraseByWordFamilies(t *testing.T) {
	for _, c := range []struct{ question, reference, answer string }{
		{"Entro quando va registrato il servizio?", "Subito, non appena il servizio è stato aperto.",
			"Va registrato subito dopo l'apertura del servizio."},
		{"Come si stima la spesa del progetto?", "Come somma dei canoni, compreso il costo di migrazione.",
			"Come somma dei canoni, compreso il costo per migrare."},
		{"La chiave dell'armadietto è personale?", "Sì, non può essere prestata ai colleghi.",
			"Sì, non si può prestare."},
		{"What should we do with an unused test account?", "Request its closure and stop paying for it.",
			"Ask for it to be closed, and stop paying."},
	} {
		if r := Judge(c.question, c.reference, c.answer, false); r.Verdict != Right {
			t.Errorf("%q for %q: %s (%s), want right", c.answer, c.reference, r.Verdict, r.Why)
		}
	}
}
