package analysis

import (
	"bufio"
	"os"
	"strings"
	"testing"
	"unicode"
)

// readQuestions reads one question a line from a file under testdata/lang
// (written for these tests, in both languages, about everyday work
// topics), skipping comments; a missing file fails the test.
func readQuestions(t *testing.T, name string) []string {
	t.Helper()
	f, err := os.Open("testdata/lang/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) < 60 {
		t.Fatalf("%s holds %d questions, want at least 60", name, len(out))
	}
	return out
}

func TestQuestionLanguageShortQuestions(t *testing.T) {
	for _, c := range []struct{ file, want string }{{"en.txt", "en"}, {"it.txt", "it"}} {
		for _, q := range readQuestions(t, c.file) {
			words := len(strings.FieldsFunc(q, func(r rune) bool { return unicode.IsSpace(r) }))
			if words < 2 || words > 12 {
				t.Errorf("%q has %d words: the set is of short questions", q, words)
			}
			if got := QuestionLanguage(q); got != c.want {
				it, en := LanguageEvidence(q)
				t.Errorf("QuestionLanguage(%q) = %q, want %q (evidence it %.2f, en %.2f)", q, got, c.want, it, en)
			}
		}
	}
}

func TestQuestionLanguageCases(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		// The question of issue 20, which had no language before.
		{"Entro quando va presentata la nota spese?", "it"},
		{"Cosa devo fare se perdo le chiavi dell'ufficio?", "it"},
		// An elision alone, and a contraction alone.
		{"Dov'è l'archivio?", "it"},
		{"Where's the archive?", "en"},
		// The pronoun I inside a sentence is English; the article i is
		// Italian.
		{"Can I park here?", "en"},
		{"Dove lasciano i documenti?", "it"},
		// A final accented vowel.
		{"Università aperta sabato?", "it"},
		// Spelling alone: endings and letter groups.
		{"Scadenza iscrizione?", "it"},
		{"Shipping weight?", "en"},
		// Italian words in an English question, and the reverse.
		{"Where is the Via delle Officine office?", "en"},
		{"Qual è la policy per lo smart working?", "it"},
		// A greeting alone: "hello" ends like an Italian word.
		{"hello?", "en"},
		{"Hi, thanks!", "en"},
		{"Ciao", "it"},
		{"Grazie mille!", "it"},
		// Long text decides as well.
		{"The quick brown fox jumps over the lazy dog while the farmer watches from the gate.", "en"},
		{"Il rapido volpe salta sopra il cane pigro mentre il contadino guarda dal cancello.", "it"},
	} {
		if got := QuestionLanguage(c.text); got != c.want {
			it, en := LanguageEvidence(c.text)
			t.Errorf("QuestionLanguage(%q) = %q, want %q (evidence it %.2f, en %.2f)", c.text, got, c.want, it, en)
		}
	}
}

// Undetermined only without evidence: codes, figures, names that carry
// no sign of either language, or nothing at all.
func TestQuestionLanguageUndetermined(t *testing.T) {
	for _, text := range []string{"", "?", "SOP-014", "VPN 2FA?", "42", "ISO 9001:2015"} {
		if got := QuestionLanguage(text); got != "" {
			it, en := LanguageEvidence(text)
			t.Errorf("QuestionLanguage(%q) = %q, want \"\" (evidence it %.2f, en %.2f)", text, got, it, en)
		}
	}
}

func TestLanguageWordsKeepsElisionsAndHyphens(t *testing.T) {
	got := strings.Join(languageWords("Dov’è l'ufficio? Don't e-mail -- 'quote'"), "|")
	if want := "dov'è|l'ufficio|Don't|e-mail|quote"; !strings.EqualFold(got, want) {
		t.Errorf("languageWords = %q, want %q", got, want)
	}
}

func TestSpellingEvidenceIsCapped(t *testing.T) {
	for _, w := range []string{"organizzazione", "thoughtfulness", "città", "walkways"} {
		it, en := spellingEvidence(w)
		if it > maxWordWeight || en > maxWordWeight || it > 0 && en > 0 {
			t.Errorf("spellingEvidence(%q) = %.2f, %.2f: want one side only, at most %.1f", w, it, en, maxWordWeight)
		}
		if it == 0 && en == 0 {
			t.Errorf("spellingEvidence(%q) found nothing", w)
		}
	}
}

// A search of one or two content words gets a language to answer in from
// their spelling, but not one decisive enough to analyse them in it alone.
func TestDecisiveLanguage(t *testing.T) {
	for _, c := range []struct{ text, guess, decisive string }{
		{"zephyrruna", "it", ""},
		{"fatture fornitori", "it", ""},
		{"shipping", "en", ""},
		{"Chi firma gli ordini?", "it", "it"},
		{"Who signs the orders?", "en", "en"},
		{"SOP-014", "", ""},
	} {
		if got := QuestionLanguage(c.text); got != c.guess {
			t.Errorf("QuestionLanguage(%q) = %q, want %q", c.text, got, c.guess)
		}
		if got := DecisiveLanguage(c.text); got != c.decisive {
			t.Errorf("DecisiveLanguage(%q) = %q, want %q", c.text, got, c.decisive)
		}
	}
}
