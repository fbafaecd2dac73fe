package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/answer"
)

// TestNothingFoundInTheQuestionsLanguage asks questions that share no
// word with any document a reader may read, in a language none of those
// documents is in: the abstention, in the question's language, comes with
// a notice in that language saying so and naming the documents'
// language. A reader who may read a document in the question's language
// gets no language notice (only the one naming the words no document
// uses), and a restricted reader's notice names only the
// languages it may read.
func TestNothingFoundInTheQuestionsLanguage(t *testing.T) {
	ctx := context.Background()
	src := t.TempDir()
	write(t, src, "en/refunds.md", refunds)
	write(t, src, "it/ferie.md", strings.Replace(ferie, "lang: it\n", "lang: it\naccess: [hr]\n", 1))
	e := open(t, t.TempDir())
	if _, err := e.Index(ctx, src, nil); err != nil {
		t.Fatal(err)
	}
	const itQuestion = "Entro quando va presentata la nota spese?"
	const unknown = "Nessun documento usa «presentata», «nota» o «spese»; se i documenti lo dicono con altre parole, chiedi con le loro."
	public := fonte.Filter{Restricted: true}
	hr := fonte.Filter{Restricted: true, Labels: []string{"hr"}}
	for _, c := range []struct {
		name, question string
		filter         fonte.Filter
		dontKnow       string
		notice         string
	}{
		{"Italian, English documents only", itQuestion, public, "Non lo so.",
			"Non ho trovato nulla in italiano: i documenti sono in inglese, e nessun passaggio ha parole in comune con la domanda."},
		// No language notice, but the words no document uses.
		{"Italian, an Italian document readable", itQuestion, hr, "Non lo so.", unknown},
		{"Italian, unrestricted", itQuestion, fonte.Filter{}, "Non lo so.", unknown},
	} {
		a, err := e.Ask(ctx, c.question, AskOptions{SearchOptions: SearchOptions{Filter: c.filter}})
		if err != nil {
			t.Fatal(err)
		}
		if !a.Abstained || a.Text != c.dontKnow || a.Notice != c.notice || c.notice != "" && c.notice != unknown && len(a.Citations) != 0 {
			t.Errorf("%s: abstained %v, text %q, notice %q, %d citations; want %q with notice %q",
				c.name, a.Abstained, a.Text, a.Notice, len(a.Citations), c.dontKnow, c.notice)
		}
	}

	// The reverse: an English question over Italian documents only.
	src2 := t.TempDir()
	write(t, src2, "ferie.md", ferie)
	e2 := open(t, t.TempDir())
	if _, err := e2.Index(ctx, src2, nil); err != nil {
		t.Fatal(err)
	}
	a, err := e2.Ask(ctx, "What is the dress code for the party?", AskOptions{})
	if err != nil {
		t.Fatal(err)
	}
	const want = "Nothing was found in English: the documents are in Italian, and no passage shares a word with the question."
	if !a.Abstained || a.Text != "I don't know." || a.Notice != want {
		t.Errorf("English over Italian: abstained %v, text %q, notice %q; want notice %q", a.Abstained, a.Text, a.Notice, want)
	}
}

// TestShortQuestionGetsALanguage asks questions of one word whose
// spelling is as English as it is Italian, so that their words hold no
// evidence of a language: fonte speaks the language of the passage that
// matched ("Ferie?" over an Italian page on holidays), or of the
// documents when they are all in one and nothing matched ("Badge?" over
// Italian documents only), and says nothing it cannot tell when the
// documents are in both and nothing matched.
func TestShortQuestionGetsALanguage(t *testing.T) {
	ctx := context.Background()
	both, italian := t.TempDir(), t.TempDir()
	write(t, both, "refunds.md", refunds)
	write(t, both, "ferie.md", ferie)
	write(t, italian, "ferie.md", ferie)
	for _, c := range []struct {
		name, docs, question, lang string
	}{
		{"matched an Italian passage", both, "Ferie?", "it"},
		{"Italian documents only, nothing matched", italian, "Badge?", "it"},
		{"both languages, nothing matched", both, "Badge?", ""},
	} {
		e := open(t, t.TempDir())
		if _, err := e.Index(ctx, c.docs, nil); err != nil {
			t.Fatal(err)
		}
		a, err := e.Ask(ctx, c.question, AskOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if a.Lang != c.lang || a.Abstained && a.Text != answer.MessagesFor(c.lang).DontKnow {
			t.Errorf("%s: %q answers in %q (abstained %v, %q), want %q", c.name, c.question, a.Lang, a.Abstained, a.Text, c.lang)
		}
	}
}
