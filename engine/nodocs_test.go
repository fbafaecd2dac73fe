package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

// TestAskWithNoDocuments: a question to a collection that holds no
// document, or none its reader may read, abstains with a notice saying
// so, in the question's language; the abstention alone read as if the
// documents did not answer it.
func TestAskWithNoDocuments(t *testing.T) {
	ctx := context.Background()
	empty := open(t, t.TempDir())
	if _, err := empty.Index(ctx, t.TempDir(), nil); err != nil {
		t.Fatal(err)
	}
	src := t.TempDir()
	write(t, src, "hr/refunds.md", strings.Replace(refunds, "---\n", "---\naccess: [hr]\n", 1))
	labelled := open(t, t.TempDir())
	if _, err := labelled.Index(ctx, src, nil); err != nil {
		t.Fatal(err)
	}
	public := fonte.Filter{Restricted: true}
	for _, c := range []struct {
		name     string
		e        *Engine
		question string
		filter   fonte.Filter
		text     string
		notice   string
	}{
		{"empty, English", empty, "How many vacation days do I get?", fonte.Filter{}, "I don't know.",
			"No document has been indexed yet: index or upload some, then ask again."},
		{"empty, Italian", empty, "Quanti giorni di ferie mi spettano?", fonte.Filter{}, "Non lo so.",
			"Non è ancora stato indicizzato alcun documento: indicizzane o caricane qualcuno, poi chiedi di nuovo."},
		{"empty, restricted reader", empty, "How many vacation days do I get?", public, "I don't know.",
			"There is no indexed document you may read."},
		// The same words whether or not documents are hidden from it.
		{"every document hidden", labelled, "How many vacation days do I get?", public, "I don't know.",
			"There is no indexed document you may read."},
		{"every document hidden, Italian", labelled, "Quanti giorni di ferie mi spettano?", public, "Non lo so.",
			"Non c'è alcun documento indicizzato che tu possa leggere."},
	} {
		a, err := c.e.Ask(ctx, c.question, AskOptions{SearchOptions: SearchOptions{Filter: c.filter}})
		if err != nil {
			t.Fatal(err)
		}
		if !a.Abstained || a.Text != c.text || a.Notice != c.notice {
			t.Errorf("%s: abstained %v, text %q, notice %q; want %q with notice %q", c.name, a.Abstained, a.Text, a.Notice, c.text, c.notice)
		}
	}
	// A reader who may read a document gets no such notice.
	a, err := labelled.Ask(ctx, "How many vacation days do I get?", AskOptions{SearchOptions: SearchOptions{Filter: fonte.Filter{Restricted: true, Labels: []string{"hr"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if a.Notice == "There is no indexed document you may read." {
		t.Errorf("a reader of the hr document is told it may read none")
	}
}
