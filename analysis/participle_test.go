package analysis

import "testing"

// The participle (or the noun made from it) and the infinitive of an
// irregular Italian verb meet through ItalianRoot, compounds included;
// a stem that only looks like a participle's ending ("tesi", "volta")
// and regular stems are left as they are.
func TestItalianRoot(t *testing.T) {
	st := ItalianStemmer()
	stem := func(w string) string { return st.Filter([]string{w})[0] }
	for _, pair := range [][2]string{
		{"previsti", "prevede"}, {"richiesta", "richiedere"}, {"risposta", "risponde"}, {"messo", "mettere"},
		{"permesso", "permettere"}, {"accesso", "accedere"}, {"incluso", "includere"}, {"spese", "spendere"},
		{"scelta", "scegliere"}, {"redatto", "redige"}, {"coinvolto", "coinvolgere"}, {"attesa", "attendere"},
		{"compreso", "comprendere"}, {"rimosso", "rimuove"}, {"aggiunto", "aggiungere"}, {"descritto", "descrivere"},
	} {
		p, i := ItalianRoot(stem(pair[0])), ItalianRoot(stem(pair[1]))
		if p != i {
			t.Errorf("%s -> %q, %s -> %q: they do not meet", pair[0], p, pair[1], i)
		}
	}
	for _, w := range []string{"tesi", "volta", "pacchetti", "licenza", "scuola", "versione"} {
		if s := stem(w); ItalianRoot(s) != s {
			t.Errorf("ItalianRoot(%q) = %q, want it unchanged", s, ItalianRoot(s))
		}
	}
}

// The past forms of an irregular English verb meet its base through
// EnglishRoot; regular stems, and forms left out as words of their own
// ("left", "found"), are left as they are.
func TestEnglishRoot(t *testing.T) {
	st := EnglishStemmer()
	stem := func(w string) string { return st.Filter([]string{w})[0] }
	for _, pair := range [][2]string{{"written", "writes"}, {"built", "building"}, {"paid", "pays"}, {"chosen", "choose"},
		{"brought", "bring"}, {"undertaken", "undertake"}, {"kept", "keeping"}} {
		if p, b := EnglishRoot(stem(pair[0])), EnglishRoot(stem(pair[1])); p != b {
			t.Errorf("%s -> %q, %s -> %q: they do not meet", pair[0], p, pair[1], b)
		}
	}
	for _, w := range []string{"left", "found", "install", "package", "written-off"} {
		if s := stem(w); EnglishRoot(s) != s {
			t.Errorf("EnglishRoot(%q) = %q, want it unchanged", s, EnglishRoot(s))
		}
	}
}
