package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Questions the example handbook does not answer, in each language, and
// what fonte must say around the abstention in that language.
var abstentions = []struct {
	lang, question, dontKnow, note, nearest, unknown string
}{
	{"it", "Cosa c'è nel menu della mensa oggi?", "Non lo so.", "I documenti non sembrano rispondere a questa domanda", "Fonti più vicine:", "Nessun documento usa"},
	{"en", "What is on the canteen menu today?", "I don't know.", "The documents do not seem to answer this", "Nearest sources:", "No document uses"},
}

// ask and chat abstain in the question's language, in text and in JSON.
func TestE2EAbstainsInTheQuestionsLanguage(t *testing.T) {
	t.Parallel()
	_, idx := sharedIndex(t)
	for _, c := range abstentions {
		out := mustOK(t, run{}, "ask", c.question, "--index", idx)
		// The words no document uses may be named first, in the same
		// language.
		body := out
		if notice, rest, ok := strings.Cut(out, "\n\n"); ok && strings.HasPrefix(notice, c.unknown) {
			body = rest
		}
		if !strings.HasPrefix(body, c.dontKnow+"\n") || !strings.Contains(out, c.note) || !strings.Contains(out, c.nearest) {
			t.Errorf("ask %q (%s):\n%s", c.question, c.lang, out)
		}
		for _, other := range abstentions {
			if other.lang != c.lang && (strings.Contains(out, other.note) || strings.Contains(out, other.dontKnow) || strings.Contains(out, other.unknown)) {
				t.Errorf("ask %q (%s) speaks %s:\n%s", c.question, c.lang, other.lang, out)
			}
		}
		a := decode[struct {
			answerOut
			Lang string `json:"lang"`
		}](t, mustOK(t, run{}, "ask", c.question, "--index", idx, "--json"))
		if !a.Abstained || a.Answer != c.dontKnow || a.Lang != c.lang {
			t.Errorf("ask --json %q: abstained %v, answer %q, lang %q", c.question, a.Abstained, a.Answer, a.Lang)
		}
	}
	// One conversation in both languages: each turn in its own.
	out := mustOK(t, run{stdin: abstentions[0].question + "\n" + abstentions[1].question + "\n"}, "chat", "--index", idx)
	it, en, ok := strings.Cut(out, abstentions[1].dontKnow)
	if !ok || !strings.Contains(it, abstentions[0].dontKnow) || !strings.Contains(it, abstentions[0].note) ||
		!strings.Contains(en, abstentions[1].note) || strings.Contains(en, abstentions[0].note) {
		t.Errorf("chat in Italian then English:\n%s", out)
	}
}

// An Italian question whose answer is in an English document only: the
// notice says so in Italian, before the abstention, and the English
// passage found is shown.
func TestE2ENoticeAcrossLanguages(t *testing.T) {
	t.Parallel()
	_, idx := sharedIndex(t)
	const q = "Qual è il limite per l'hotel a London?"
	const notice = "Non ho trovato nulla in italiano: i passaggi trovati sono in inglese."
	out := mustOK(t, run{}, "ask", q, "--index", idx)
	if !strings.HasPrefix(out, notice+"\n\nNon lo so.\n") || !strings.Contains(out, "travel-and-expenses-policy.pdf") {
		t.Errorf("ask %q:\n%s", q, out)
	}
	a := decode[struct {
		answerOut
		Notice string `json:"notice"`
	}](t, mustOK(t, run{}, "ask", q, "--index", idx, "--json"))
	if a.Notice != notice || len(a.Citations) == 0 || a.Citations[0].Doc != "finance/travel-and-expenses-policy.pdf" {
		t.Errorf("ask --json %q: notice %q, citations %+v", q, a.Notice, a.Citations)
	}
}

// An Italian question that shares no word with English documents: the
// notice says in Italian that nothing was found in Italian and that the
// documents are in English, before the abstention, in text and in JSON.
func TestE2ENoticeWhenNothingMatches(t *testing.T) {
	t.Parallel()
	docs, idx := t.TempDir(), filepath.Join(t.TempDir(), "idx")
	leave, err := os.ReadFile(filepath.Join(examplesDir, "handbook", "people", "leave.md"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(docs, "leave.md"), leave, 0o644); err != nil {
		t.Fatal(err)
	}
	mustOK(t, run{}, "index", docs, "--index", idx)
	const q = "Quanti giorni di ferie ho?"
	const notice = "Non ho trovato nulla in italiano: i documenti sono in inglese, e nessun passaggio ha parole in comune con la domanda."
	if out := mustOK(t, run{}, "ask", q, "--index", idx); out != notice+"\n\nNon lo so.\n" {
		t.Errorf("ask %q:\n%s", q, out)
	}
	a := decode[struct {
		answerOut
		Lang   string `json:"lang"`
		Notice string `json:"notice"`
	}](t, mustOK(t, run{}, "ask", q, "--index", idx, "--json"))
	if a.Notice != notice || a.Lang != "it" || a.Answer != "Non lo so." {
		t.Errorf("ask --json %q: lang %q, notice %q, answer %q", q, a.Lang, a.Notice, a.Answer)
	}
}
