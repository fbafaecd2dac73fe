package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/answer"
	"github.com/fonte-rag/fonte/retrieve"
)

// exampleHandbook opens an engine with the default settings over the
// example handbook.
func exampleHandbook(t *testing.T) *Engine {
	t.Helper()
	return indexFolder(t, "../examples/handbook")
}

// indexFolder opens an engine with the default settings over the
// documents of dir.
func indexFolder(t *testing.T, dir string) *Engine {
	t.Helper()
	e, err := Open(context.Background(), Settings{IndexDir: filepath.Join(t.TempDir(), "idx")}, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	if _, err := e.Index(context.Background(), dir, nil); err != nil {
		t.Fatal(err)
	}
	return e
}

// citedDocs are the documents an answer's text cites.
func citedDocs(a *fonte.Answer) []string {
	var out []string
	for _, n := range answer.Citations(a.Text) {
		if n >= 1 && n <= len(a.Citations) {
			out = append(out, a.Citations[n-1].DocID)
		}
	}
	return out
}

// The two Italian questions of issue 20: the expense-report deadline is
// in an English document only, and the Italian passage that matched it
// best (about office keys) holds "spese" and none of its other words; a
// lost key is covered by the Italian office-access document.
func TestCoverageKeepsItalianQuestionsOnTheirDocument(t *testing.T) {
	e := exampleHandbook(t)
	ctx := context.Background()
	tr := &Trace{}
	a, err := e.Ask(ctx, "Entro quando va presentata la nota spese?", AskOptions{SearchOptions: SearchOptions{Trace: tr}})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range citedDocs(a) {
		if d != "finance/travel-and-expenses-policy.pdf" {
			t.Errorf("the expense-report question cites %s: %q", d, a.Text)
		}
	}
	if !a.Abstained && len(citedDocs(a)) == 0 {
		t.Errorf("answered without a citation: %q", a.Text)
	}
	if tr.Lang != "it" {
		t.Errorf("question language %q, want it", tr.Lang)
	}
	cov := tr.Floor.Coverage
	if cov == nil || len(cov.Held) == 0 || cov.MinHeld != answer.DefaultMinHeld {
		t.Fatalf("trace floor coverage = %+v", cov)
	}
	for _, h := range cov.Held {
		if h.ChunkID == tr.Floor.ChunkID && h.Share >= cov.MinHeld {
			t.Errorf("the best-matching passage %s holds %.2f of the question", h.ChunkID, h.Share)
		}
	}

	a, err = e.Ask(ctx, "Cosa devo fare se perdo le chiavi dell'ufficio?", AskOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if a.Abstained {
		t.Fatalf("the lost-keys question abstained (relevance %.2f)", a.Relevance)
	}
	if got := citedDocs(a); len(got) == 0 || got[0] != "facilities/accesso-uffici-e-chiavi.md" {
		t.Errorf("the lost-keys question cites %v: %q", got, a.Text)
	}
}

// A content key the corpus does not hold weighs as a key held once, and
// the shares each passage holds add up from the keys it holds.
func TestCoverageWeights(t *testing.T) {
	e := exampleHandbook(t)
	ctx := context.Background()
	v, err := e.view(ctx)
	if err != nil {
		t.Fatal(err)
	}
	hits, err := e.Search(ctx, "badge sostitutivo zzyzx", SearchOptions{K: 5})
	if err != nil {
		t.Fatal(err)
	}
	c, err := e.coverage(ctx, v, "badge sostitutivo zzyzx", "it", hits, fonte.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if c == nil || len(c.Keys) != 3 || len(c.Held) != len(hits) {
		t.Fatalf("coverage = %+v", c)
	}
	unknown := c.Keys[2]
	if unknown.DF != 0 || unknown.Weight != idf(c.Chunks, 1) || len(unknown.In) != 0 {
		t.Errorf("unknown key = %+v, want df 0 weighing as df 1 (%.3f), in no passage", unknown, idf(c.Chunks, 1))
	}
	total := 0.0
	for _, k := range c.Keys {
		total += k.Weight
	}
	if want := unknown.Weight / total; c.Missing < want-1e-9 || c.Missing > want+1e-9 {
		t.Errorf("missing = %.4f, want the unknown key's share %.4f", c.Missing, want)
	}
	for r, h := range c.Held {
		want := 0.0
		for _, k := range c.Keys {
			for _, in := range k.In {
				if in == r+1 {
					want += k.Weight / total
				}
			}
		}
		if h.ChunkID != hits[r].Chunk.ID || h.Share < want-1e-9 || h.Share > want+1e-9 {
			t.Errorf("held[%d] = %+v, want %s with %.4f", r, h, hits[r].Chunk.ID, want)
		}
	}
	if c, _ := e.coverage(ctx, v, "come e dove?", "it", hits, fonte.Filter{}); c != nil {
		t.Errorf("a question of function words has coverage %+v, want none", c)
	}
}

// indexTexts opens an engine with the default settings over a folder of
// Markdown documents (name → text) written for a test.
func indexTexts(t *testing.T, docs map[string]string) *Engine {
	t.Helper()
	dir := t.TempDir()
	for name, text := range docs {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return indexFolder(t, dir)
}

// The words that ask for a kind of figure ("how quickly") are not words
// a passage must hold: the one that answers states the figure. Every
// passage here speaks of windows and repairs, so those words weigh
// little and "quickly", which no passage holds, would outweigh them; the
// question is answered from the passage that states the period, while
// the kind check still refuses passages that state none, and a topic
// word no passage holds still blocks.
func TestCoverageLeavesOutTheWordsThatAskTheKind(t *testing.T) {
	e := indexTexts(t, map[string]string{
		"repairs.md":  "# Window repairs\n\nWindows are repaired within 2 working days of the report to the help desk.\n",
		"cleaning.md": "# Cleaning\n\nWindows are cleaned every month; repairs to the frames are booked through the help desk.\n",
		"blinds.md":   "# Blinds\n\nBlinds on the windows are replaced, never repaired, when they break.\n",
		"heating.md":  "# Heating\n\nRadiators under the windows are repaired by the landlord.\n",
		"doors.md":    "# Doors\n\nDoors and windows are locked in the evening; report repairs to reception.\n",
		"parking.md":  "# Parking\n\nThe car park fills quickly; it opens at seven and closes at nine.\n",
		"canteen.md":  "# Canteen\n\nLunch is served quickly from noon in the canteen on the ground floor.\n",
		"lifts.md":    "# Lifts\n\nThe lifts are serviced by the landlord every spring.\n",
		"post.md":     "# Post\n\nParcels are collected from reception in the afternoon.\n",
	})
	ctx := context.Background()
	a, tr := askTraced(t, e, "How quickly are windows repaired?")
	if a.Abstained || !strings.Contains(a.Text, "2 working days") || !slices.Contains(citedDocs(a), "repairs.md") {
		t.Fatalf("answer %q (abstained %v, cites %v), want the repair period from repairs.md; %s", a.Text, a.Abstained, citedDocs(a), tr.AbstainReason)
	}
	for _, k := range tr.Floor.Coverage.Keys {
		if k.Key == "quick" || k.Key == "quickli" {
			t.Errorf("the coverage weighs the asking word %+v", k)
		}
	}
	for _, q := range []string{"How quickly are windows cleaned?", "How quickly are windows painted?"} {
		a, err := e.Ask(ctx, q, AskOptions{SearchOptions: SearchOptions{Trace: tr}})
		if err != nil {
			t.Fatal(err)
		}
		if !a.Abstained {
			t.Errorf("%q answered %q, want an abstention", q, a.Text)
		}
	}
}

// A grammar word the stop lists keep ("does") is not a word a passage
// must hold: the passage that answers "Does X matter?" need not say
// "does", and weighing it as a rare word kept the question from its
// passage. A topic word no passage holds still blocks.
func TestCoverageLeavesOutGrammarWords(t *testing.T) {
	// "does" is in two of the four passages, not in the one that answers.
	docs := map[string]string{
		"tags.md": "# Tags\n\nTag names are case sensitive: Owner and owner are two tags.\n", "build.md": "# Build\n\nThe build does the tests first, then it does the packaging.\n",
		"deploy.md": "# Deploy\n\nA deploy does a health check before traffic moves.\n", "backup.md": "# Backups\n\nBackups are kept for thirty days.\n",
	}
	e := indexTexts(t, docs)
	a, tr := askTraced(t, e, "Does case matter in tag names?")
	if a.Abstained || !slices.Contains(citedDocs(a), "tags.md") {
		t.Fatalf("answer %q (abstained %v, cites %v), want tags.md; %s", a.Text, a.Abstained, citedDocs(a), tr.AbstainReason)
	}
	for _, k := range tr.Floor.Coverage.Keys {
		if k.Key == "doe" || k.Key == "does" {
			t.Errorf("the coverage weighs the auxiliary %+v", k)
		}
	}
	if a, _ := askTraced(t, e, "Does colour matter in tag names?"); !a.Abstained {
		t.Errorf("a question on a colour no passage names: %q; want an abstention", a.Text)
	}
}

// askTraced asks e question with a trace, failing the test on an error.
func askTraced(t *testing.T, e *Engine, question string) (*fonte.Answer, *Trace) {
	t.Helper()
	tr := &Trace{}
	a, err := e.Ask(context.Background(), question, AskOptions{SearchOptions: SearchOptions{Trace: tr}})
	if err != nil {
		t.Fatal(err)
	}
	return a, tr
}

// A compound of the question ("two-year", "e-mail") is keyed whole beside
// its parts, and a corpus that never writes it so gives that key the
// weight of the rarest word: the passage that writes it apart ("a two
// year contract") or run together ("email") held every word of the
// question but the heaviest and was never answered from. It holds the
// compound now; a compound no passage writes still blocks.
func TestCoverageHoldsACompoundWrittenApart(t *testing.T) {
	docs := map[string]string{
		"renewals.md": "# Contracts\n\nA two year contract is renewed when the director signs the renewal form.\n",
		"claims.md":   "# Expense claims\n\nExpense claims go to the email address claims@example.org, the expense claims address of the finance office.\n",
	}
	for i, topic := range []string{"Contract renewal year planning", "Renewal of the yearly contract budget", "Annual contract reviews each year",
		"Contract renewal letters", "Year end contract audit", "Office address and finance calendar"} {
		docs[fmt.Sprintf("other%d.md", i)] = "# " + topic + "\n\n" + topic + " are handled by the office; every contract has a renewal date in the year plan.\n"
	}
	e := indexTexts(t, docs)
	for _, c := range []struct{ q, key, doc string }{
		{"Who signs the renewal form of a two-year contract?", "two-year", "renewals.md"},
		{"Which e-mail address takes the expense claims?", "e-mail", "claims.md"},
	} {
		a, tr := askTraced(t, e, c.q)
		if a.Abstained || !slices.Contains(citedDocs(a), c.doc) {
			t.Errorf("%q: answer %q (abstained %v, cites %v), want %s; %s", c.q, a.Text, a.Abstained, citedDocs(a), c.doc, tr.AbstainReason)
			continue
		}
		held := false
		for _, k := range tr.Floor.Coverage.Keys {
			held = held || k.Key == c.key && len(k.In) > 0
		}
		if !held {
			t.Errorf("%q: the compound %q is held by no passage: %+v", c.q, c.key, tr.Floor.Coverage.Keys)
		}
	}
	if a, _ := askTraced(t, e, "Who signs the renewal form of a six-month contract?"); !a.Abstained {
		t.Errorf("a compound no passage writes: %q; want an abstention", a.Text)
	}
}

// A compound is held as its words in order from a word's start, the
// last one inflected ("test installing"), run together ("email"), and a
// figure is not held by a longer one ("80 years" for "8-year", "25" or
// "2.50" for "2.5").
func TestCompoundIn(t *testing.T) {
	an := retrieve.DefaultAnalyzers().Content["en"]
	cs := questionCompounds(an, "Is the 8-year term (test-install, e-mail) fixed at 2.5?")
	for key, texts := range map[string]map[string]bool{
		"8-year":      {"an 8 year term": true, "8 years": true, "an 8-year term": true, "80 years": false, "8 months and a year": false},
		"test-instal": {"to test installing it": true, "testinstall": true, "tested install": false, "install test": false},
		"e-mail":      {"send an email": true, "by e mail": true, "e-mails": true, "a mail": false, "female": false},
		"2.5":         {"at 2.5 days": true, "25 days": false, "2.50": false},
	} {
		c, ok := cs[key]
		if !ok {
			t.Fatalf("no compound %q in %v", key, cs)
		}
		for text, want := range texts {
			if got := c.in(text); got != want {
				t.Errorf("%q in %q = %v, want %v", key, text, got, want)
			}
		}
	}
	if len(cs) != 4 {
		t.Errorf("compounds = %v, want four", cs)
	}
}

// An irregular Italian verb asked in one form ("prevede") is held by the
// passage that writes its participle ("previste"), which the stemmer
// parts from it (analysis.ItalianRoot); a verb the passage does not
// write is still missing.
func TestCoverageMeetsItalianParticiples(t *testing.T) {
	e := indexTexts(t, map[string]string{
		"rimborsi.md": "# Rimborsi\n\nLe tariffe dei rimborsi chilometrici sono previste dal regolamento interno.\n",
		"viaggi.md":   "# Viaggi\n\nIl regolamento dei viaggi fissa le tariffe e i rimborsi chilometrici.\n",
		"auto.md":     "# Auto\n\nPer l'auto propria il regolamento applica le tariffe dei rimborsi chilometrici.\n",
	})
	for q, want := range map[string][]string{"Quale regolamento prevede le tariffe dei rimborsi chilometrici?": {"rimborsi.md"},
		"Quale regolamento sospende le tariffe dei rimborsi chilometrici?": nil} {
		if key, in := keyHeldBy(t, e, q, "it", 1); !slices.Equal(in, want) {
			t.Errorf("%q: the verb %q is held by %v, want %v", q, key, in, want)
		}
	}
}

// The same for an irregular English verb: "Who writes …?" is held by the
// passage that says "written" (analysis.EnglishRoot).
func TestCoverageMeetsEnglishPastForms(t *testing.T) {
	e := indexTexts(t, map[string]string{
		"reports.md":  "# Reports\n\nIncident reports are written by the duty engineer.\n",
		"reviews.md":  "# Reviews\n\nIncident reports are reviewed every week by the team.\n",
		"archives.md": "# Archive\n\nIncident reports are archived after a year by the team.\n",
	})
	if key, in := keyHeldBy(t, e, "Who writes the incident reports?", "en", 0); !slices.Equal(in, []string{"reports.md"}) {
		t.Errorf("the verb %q is held by %v, want reports.md alone", key, in)
	}
}

// keyHeldBy returns the n-th content key of question q (analysed in lang)
// and the documents of its top five hits that hold it.
func keyHeldBy(t *testing.T, e *Engine, q, lang string, n int) (string, []string) {
	t.Helper()
	c, hits, _ := coverageOf(t, e, q, lang)
	if len(c.Keys) <= n {
		t.Fatalf("coverage = %+v", c)
	}
	var in []string
	for _, r := range c.Keys[n].In {
		in = append(in, hits[r-1].Chunk.DocID)
	}
	return c.Keys[n].Key, in
}

// A question about something the handbook never mentions abstains, and
// the notice names, as the question writes them, the words no document
// uses, in the question's language.
func TestAbstainingNamesTheWordsNoDocumentUses(t *testing.T) {
	e := exampleHandbook(t)
	ctx := context.Background()
	for _, c := range []struct{ q, word, lang string }{
		{"May I keep parrots at my desk?", "“parrots”", "en"},
		{"Il pappagallo può restare in ufficio?", "«pappagallo»", "it"},
		{"L'iguana può restare in ufficio?", "usa «iguana»;", "it"},
	} {
		tr := &Trace{}
		a, err := e.Ask(ctx, c.q, AskOptions{SearchOptions: SearchOptions{Trace: tr}})
		if err != nil {
			t.Fatal(err)
		}
		if !a.Abstained || !strings.Contains(a.Notice, c.word) {
			t.Errorf("%q: abstained %v, notice %q; want an abstention naming %s", c.q, a.Abstained, a.Notice, c.word)
		}
		if a.Notice != answer.UnknownWordsNotice(c.lang, tr.Floor.Coverage.Unknown()) {
			t.Errorf("%q: notice %q is not in %s or not the trace's unknown words %q", c.q, a.Notice, c.lang, tr.Floor.Coverage.Unknown())
		}
	}
}
