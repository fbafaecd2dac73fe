package engine

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/answer"
)

// mixedOffice is a corpus of English and Italian pages: the English ones
// say often what one "can" do, which is also the Italian stem of "cane"
// (dog); the Italian one says where bicycles go; none speaks of dogs.
// The English VPN page writes an acronym an Italian question may use.
var mixedOffice = map[string]string{
	"help-desk.md": "# Help desk\n\nYou can open a ticket at any time. You can call the help desk when you can not work.\n",
	"incidents.md": "# Incidents\n\nAnyone can report an incident. The on-call engineer can close it.\n",
	"vpn.md":       "# VPN\n\nTo work from home you can connect to the VPN with your company account.\n",
	"uffici.md":    "---\nlang: it\n---\n# Uffici\n\nLe biciclette si lasciano nella rastrelliera del cortile; non è permesso portarle negli uffici.\n\nLa rete dell'ufficio si usa con l'account aziendale.\n",
}

// An Italian question about a dog, over English and Italian pages none of
// which speaks of dogs: "cane" stems to "can", which the English pages
// hold as the English word. Its frequency counts the Italian pages only,
// where no page holds it, and an English page holds it only by writing
// "cane" itself: the notice names the word no document uses, and the
// answer gives no yes or no.
func TestCoverageWeighsAWordByItsLanguage(t *testing.T) {
	e := indexTexts(t, mixedOffice)
	const q = "Posso portare il cane in ufficio?"
	a, tr := askTraced(t, e, q)
	cov := tr.Floor.Coverage
	if cov == nil {
		t.Fatal("no coverage in the trace")
	}
	var dog *answer.CoverageKey
	for i, k := range cov.Keys {
		if k.Word == "cane" {
			dog = &cov.Keys[i]
		}
	}
	if dog == nil {
		t.Fatalf("no key for \"cane\" among %+v", cov.Keys)
	}
	if dog.DF != 0 || len(dog.In) != 0 {
		t.Errorf("key %q of \"cane\": df %d, held by hits %v; want df 0 (no Italian page) and no hit (no page writes \"cane\")", dog.Key, dog.DF, dog.In)
	}
	if want := answer.UnknownWordsNotice("it", []string{"cane"}); a.Notice != want {
		t.Errorf("notice %q, want %q", a.Notice, want)
	}
	if strings.HasPrefix(a.Text, "No") || strings.HasPrefix(a.Text, "Sì") {
		t.Errorf("answered with a verdict: %q", a.Text)
	}
}

// A name, code or acronym crosses languages: an Italian question's "VPN"
// is held by the English page that writes it, and is no word no document
// uses, while the Italian stem "can" of "cane" is not held by the English
// "can" of the same page.
func TestCoverageHoldsAnAcronymAcrossLanguages(t *testing.T) {
	c, hits, _ := coverageOf(t, indexTexts(t, mixedOffice), "Il cane può usare la VPN?", "it")
	heldBy := map[string][]string{}
	for _, k := range c.Keys {
		for _, r := range k.In {
			heldBy[k.Word] = append(heldBy[k.Word], hits[r-1].Chunk.DocID)
		}
	}
	if !slices.Contains(heldBy["VPN"], "vpn.md") {
		t.Errorf("\"VPN\" is held by %v, want vpn.md among them (keys %+v)", heldBy["VPN"], c.Keys)
	}
	if len(heldBy["cane"]) != 0 {
		t.Errorf("\"cane\" is held by %v, want none", heldBy["cane"])
	}
	if u := c.Unknown(); !slices.Contains(u, "cane") || slices.Contains(u, "VPN") {
		t.Errorf("unknown words %q, want \"cane\" and not \"VPN\"", u)
	}
}

// Over pages of one language, a word is weighed by every page, as
// before: an English "can" is a common word of the English question, held
// by the pages that say it.
func TestCoverageOfOneLanguageUnchanged(t *testing.T) {
	docs := map[string]string{}
	for name, text := range mixedOffice {
		if !strings.Contains(text, "lang: it") {
			docs[name] = text
		}
	}
	c, hits, v := coverageOf(t, indexTexts(t, docs), "Who can connect to the VPN?", "en")
	keys := make([]string, len(c.Keys))
	for i, k := range c.Keys {
		keys[i] = k.Key
	}
	st := v.local.TermStats(keys, fonte.Filter{})
	if c.Chunks != st.Chunks {
		t.Errorf("weighed over %d chunks, want all %d", c.Chunks, st.Chunks)
	}
	for i, k := range c.Keys {
		if k.DF != st.DF[i] {
			t.Errorf("key %q: df %d, want every page's %d", k.Key, k.DF, st.DF[i])
		}
		if k.Key == "can" && len(k.In) != len(hits) {
			t.Errorf("\"can\" is held by hits %v of %d, want all", k.In, len(hits))
		}
	}
}

// coverageOf is the coverage of question q, in lang, over its top five
// hits, with the hits and the view it was computed on.
func coverageOf(t *testing.T, e *Engine, q, lang string) (*answer.Coverage, []fonte.Hit, *view) {
	t.Helper()
	ctx := context.Background()
	v, err := e.view(ctx)
	if err != nil {
		t.Fatal(err)
	}
	hits, err := e.Search(ctx, q, SearchOptions{K: 5})
	if err != nil {
		t.Fatal(err)
	}
	c, err := e.coverage(ctx, v, q, lang, hits, fonte.Filter{})
	if err != nil || c == nil {
		t.Fatalf("coverage = %+v, %v", c, err)
	}
	return c, hits, v
}
