package storetest

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/answer"
	"github.com/fonte-rag/fonte/engine"
)

// testLanguageCoverage: over English and Italian documents, the coverage
// check counts an Italian question's words in the Italian documents a
// reader may read (fonte.LanguageTermStats), on every store as on the
// embedded one. "cane" (dog) stems to "can", which the English pages
// hold as the English word; only a page readable with label hr speaks of
// dogs in Italian. A reader without hr is told no document uses «cane».
func testLanguageCoverage(t *testing.T, b Backend) {
	dir := filepath.Join(t.TempDir(), "docs")
	writeFile(t, dir, "en/help-desk.md", "# Help desk\n\nYou can open a ticket at any time. You can call the help desk when you can not work.\n")
	writeFile(t, dir, "en/incidents.md", "# Incidents\n\nAnyone can report an incident. The on-call engineer can close it.\n")
	writeFile(t, dir, "it/uffici.md", "---\nlang: it\n---\n# Uffici\n\nLe biciclette si lasciano nella rastrelliera del cortile; non è permesso portarle negli uffici.\n")
	writeFile(t, dir, "it/cani.md", "---\nlang: it\naccess: [hr]\n---\n# Cani guida\n\nIl cane guida di un collega è sempre ammesso negli uffici.\n")
	ref := reference(t, dir)
	e := open(t, b.New(t), engine.Settings{}, engine.OpenOptions{})
	index(t, e, dir)
	const q = "Posso portare il cane in ufficio?"
	dogDF := func(e *engine.Engine, f fonte.Filter) (int, *fonte.Answer) {
		t.Helper()
		var tr engine.Trace
		a, err := e.Ask(context.Background(), q, engine.AskOptions{SearchOptions: engine.SearchOptions{Filter: f, Trace: &tr}})
		if err != nil {
			t.Fatal(err)
		}
		if tr.Floor.Coverage == nil {
			t.Fatalf("%v: no coverage in the trace", f)
		}
		i := slices.IndexFunc(tr.Floor.Coverage.Keys, func(k answer.CoverageKey) bool { return k.Word == "cane" })
		if i < 0 {
			t.Fatalf("%v: no key for \"cane\" among %+v", f, tr.Floor.Coverage.Keys)
		}
		return tr.Floor.Coverage.Keys[i].DF, a
	}
	for _, c := range []struct {
		name string
		f    fonte.Filter
		df   int
	}{
		{"reader without hr", fonte.Filter{Restricted: true}, 0},
		{"reader with hr", fonte.Filter{Restricted: true, Labels: []string{"hr"}}, 1},
		{"unrestricted", fonte.Filter{}, 1},
	} {
		want, _ := dogDF(ref, c.f)
		got, a := dogDF(e, c.f)
		if got != c.df || want != c.df {
			t.Errorf("%s: \"cane\" is in %d chunks, the embedded store says %d; want %d (the Italian chunks the reader may read)", c.name, got, want, c.df)
		}
		if c.df == 0 && a.Notice != answer.UnknownWordsNotice("it", []string{"cane"}) {
			t.Errorf("%s: notice %q, want the one naming «cane»", c.name, a.Notice)
		}
	}
}
