package answer

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

// coverageHits are two passages: the first matches the question best by
// relevance but holds only a common word of it; the second holds its rare
// words.
func coverageHits() []fonte.Hit {
	common := fonte.Chunk{ID: "keys.md#0", DocID: "keys.md", Text: "A lost key is reported within 24 hours; the lock is changed at the company's expense."}
	rare := fonte.Chunk{ID: "claims.md#0", DocID: "claims.md", Text: "Expense claims are filed within 30 days of the trip, with every receipt."}
	return []fonte.Hit{{Chunk: common, Relevance: 0.30}, {Chunk: rare, Relevance: 0.22}}
}

func TestCoverageJudgesOnlyPassagesHoldingTheQuestion(t *testing.T) {
	hits := coverageHits()
	c := &Coverage{MinHeld: 0.5, Held: []Held{{"keys.md#0", 0.3}, {"claims.md#0", 0.8}}}
	rel, at := c.judged(hits)
	if rel != 0.22 || at != 1 {
		t.Errorf("judged = %.2f at %d, want the second passage's 0.22: the first holds 30%% of the question", rel, at)
	}
	c.Held[1].Share = 0.4
	if rel, at := c.judged(hits); at != -1 || rel != 0 {
		t.Errorf("judged = %.2f at %d with no passage holding half the question, want none", rel, at)
	}
	var none *Coverage
	if rel, at := none.judged(hits); rel != 0.30 || at != 0 {
		t.Errorf("without coverage judged = %.2f at %d, want the best relevance 0.30 at 0", rel, at)
	}
}

func TestAskAbstainsWhenTheBestPassageLacksTheQuestion(t *testing.T) {
	hits := coverageHits()
	cov := &Coverage{MinHeld: 0.5, Held: []Held{{"keys.md#0", 0.3}, {"claims.md#0", 0.4}},
		Keys: []CoverageKey{{Key: "expens", DF: 2, Weight: 1, In: []int{1, 2}}, {Key: "claim", DF: 1, Weight: 2, In: []int{2}}, {Key: "deadlin", Weight: 2}}}
	tr := &Trace{}
	a, err := Ask(context.Background(), "What is the expense claim deadline?", hits, nil, Config{Floor: 0.25, Coverage: cov, Trace: tr})
	if err != nil {
		t.Fatal(err)
	}
	if !a.Abstained {
		t.Fatalf("answered %q from a passage holding 30%% of the question", a.Text)
	}
	if a.Relevance != 0.30 {
		t.Errorf("Relevance = %.2f, want the best relevance reported as it was, 0.30", a.Relevance)
	}
	if tr.Floor.Coverage != cov || tr.Floor.Judged != 0 || !strings.Contains(tr.Floor.Reason, "deadlin") || !strings.Contains(tr.Floor.Reason, "50%") {
		t.Errorf("trace floor = %+v, want the coverage, nothing judged, and a reason naming the missing key and the share needed", tr.Floor)
	}
	// Without the coverage the same hits pass the floor.
	a, err = Ask(context.Background(), "What is the expense claim deadline?", hits, nil, Config{Floor: 0.25})
	if err != nil {
		t.Fatal(err)
	}
	if a.Abstained {
		t.Error("without coverage the best relevance 0.30 should pass the floor 0.25")
	}
}

func TestAskQuotesAPassageThatHoldsTheQuestion(t *testing.T) {
	hits := coverageHits()
	hits[1].Relevance = 0.28
	cov := &Coverage{MinHeld: 0.5, Held: []Held{{"keys.md#0", 0.3}, {"claims.md#0", 0.9}}}
	tr := &Trace{}
	a, err := Ask(context.Background(), "Within how many days are expense claims filed?", hits, nil, Config{Floor: 0.25, Coverage: cov, Trace: tr})
	if err != nil {
		t.Fatal(err)
	}
	if a.Abstained || !strings.Contains(a.Text, "30 days") {
		t.Fatalf("answer %q, want the claims passage's sentence", a.Text)
	}
	if tr.Floor.Judged != 0.28 || !strings.Contains(tr.Floor.Reason, "claims.md#0") {
		t.Errorf("trace floor = %+v, want judged 0.28 from claims.md#0", tr.Floor)
	}
	// The same question without coverage may quote either; with it, the
	// quoted passage is one that holds the question.
	n := Citations(a.Text)
	if len(n) != 1 || a.Citations[n[0]-1].DocID != "claims.md" {
		t.Errorf("cites %v of %+v, want claims.md", n, a.Citations)
	}
}

func TestExtractCoveredNumbersAsTheContext(t *testing.T) {
	chunks := []fonte.Chunk{
		{ID: "a#0", Text: "Expense claims are filed by the travel office after review."},
		{ID: "b#0", Text: "Claims go in within 30 days of the trip."},
	}
	cov := &Coverage{MinHeld: 0.5, Held: []Held{{"a#0", 0.2}, {"b#0", 0.7}}}
	text, n, _ := extractCovered("When are expense claims filed?", chunks, cov)
	if n != 2 || !strings.Contains(text, "30 days") {
		t.Errorf("extractCovered = %q from [%d], want the sentence of chunk 2 numbered 2", text, n)
	}
	// Without coverage every chunk is read, and the first, which shares
	// more words with the question, is quoted.
	if _, n, _ := extractCovered("When are expense claims filed?", chunks, nil); n != 1 {
		t.Errorf("without coverage quoted [%d], want [1]", n)
	}
}

func TestCoverageUnknownListsWordsNoDocumentUses(t *testing.T) {
	c := &Coverage{Keys: []CoverageKey{
		{Key: "parrot", Word: "parrots", DF: 0},
		{Key: "desk", Word: "desk", DF: 4, In: []int{1}},
		{Key: "wrote", Word: "wrote", DF: 0, In: []int{2}}, // held through another form
		{Key: "cage", DF: 0},
		{Key: "parrot", Word: "parrots", DF: 0},
	}}
	if got, want := c.Unknown(), []string{"parrots", "cage"}; !slices.Equal(got, want) {
		t.Errorf("Unknown() = %q, want %q: the question's words no chunk holds, each once", got, want)
	}
	var none *Coverage
	if got := none.Unknown(); got != nil {
		t.Errorf("without coverage Unknown() = %q, want nil", got)
	}
	if r := c.describe(0.2); !strings.Contains(r, "in no document: parrots, cage") {
		t.Errorf("describe = %q, want the words no document uses", r)
	}
}

func TestAskAbstainingNamesTheWordsNoDocumentUses(t *testing.T) {
	hits := coverageHits()
	cov := &Coverage{MinHeld: 0.5, Held: []Held{{"keys.md#0", 0.3}, {"claims.md#0", 0.4}},
		Keys: []CoverageKey{{Key: "expens", Word: "expense", DF: 2, Weight: 1, In: []int{1, 2}}, {Key: "refund", Word: "refunded", Weight: 3}}}
	a, err := Ask(context.Background(), "When is an expense refunded?", hits, nil, Config{Floor: 0.25, Coverage: cov, Lang: "en"})
	if err != nil {
		t.Fatal(err)
	}
	if !a.Abstained || !strings.Contains(a.Notice, "“refunded”") || strings.Contains(a.Notice, "expense") {
		t.Errorf("abstained %v with notice %q, want an abstention naming only the word no document uses", a.Abstained, a.Notice)
	}
	// A passage holding the question is answered from, with no notice.
	cov.Held[1].Share = 0.8
	a, err = Ask(context.Background(), "When is an expense refunded?", hits, nil, Config{Floor: 0.2, Coverage: cov, Lang: "en"})
	if err != nil {
		t.Fatal(err)
	}
	if a.Abstained || a.Notice != "" {
		t.Errorf("answered %v with notice %q, want an answer and no notice", !a.Abstained, a.Notice)
	}
}

// A yes/no question about something no document names gets the nearest
// rule quoted without a yes or no, and the notice of the word no document
// uses: a rule about bicycles does not rule on parrots.
func TestAskYesNoAboutAWordNoDocumentUses(t *testing.T) {
	rule := fonte.Chunk{ID: "office.md#0", DocID: "office.md", Text: "Bicycles stay in the yard: you may not bring them into the offices."}
	hits := []fonte.Hit{{Chunk: rule, Relevance: 0.5}}
	const q = "Can I bring my parrot into the office?"
	keys := []CoverageKey{{Key: "bring", Word: "bring", DF: 1, Weight: 2, In: []int{1}}, {Key: "offic", Word: "office", DF: 1, Weight: 2, In: []int{1}}}
	ask := func(keys []CoverageKey) *fonte.Answer {
		t.Helper()
		cov := &Coverage{MinHeld: 0.5, Held: []Held{{"office.md#0", 0.6}}, Keys: keys}
		a, err := Ask(context.Background(), q, hits, nil, Config{Floor: 0.25, Coverage: cov, Lang: "en"})
		if err != nil {
			t.Fatal(err)
		}
		if a.Abstained {
			t.Fatalf("abstained, want the rule quoted")
		}
		return a
	}
	// Every word known: the rule answers the question, with its no.
	if a := ask(keys); !strings.HasPrefix(a.Text, "No — ") || a.Notice != "" {
		t.Fatalf("with every word in the documents: %q (notice %q), want a no and no notice", a.Text, a.Notice)
	}
	a := ask(append(keys, CoverageKey{Key: "parrot", Word: "parrot", Weight: 4}))
	if strings.HasPrefix(a.Text, "No") || !strings.Contains(a.Text, "Bicycles stay in the yard") {
		t.Errorf("answer %q, want the rule quoted without a yes or no", a.Text)
	}
	if !strings.Contains(a.Notice, "“parrot”") {
		t.Errorf("notice %q, want the word no document uses", a.Notice)
	}
}
