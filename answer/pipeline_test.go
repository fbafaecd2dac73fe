package answer

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/fonte-rag/fonte"
)

// scripted is a Generator that returns a fixed text, to test the pipeline
// around the model (the HTTP clients have their own wire-format tests).
type scripted struct {
	text string
	err  error
	got  []fonte.Message
}

func (s *scripted) Generate(_ context.Context, m []fonte.Message, onDelta func(string)) (string, error) {
	s.got = m
	if onDelta != nil && s.err == nil {
		onDelta(s.text)
	}
	return s.text, s.err
}
func (s *scripted) Model() string { return "scripted" }

func handbookHits() ([]fonte.Hit, map[string]fonte.Document) {
	docText := "An approved refund is returned to the original payment method within 5 working days. International refunds take up to 10 working days because of bank clearing.\n\nAn item may be returned within 30 days of delivery if it is unused."
	updated := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	docs := map[string]fonte.Document{"support.md": {ID: "support.md", Title: "Support handbook", Source: "docs/support.md", Updated: updated, Text: docText}}
	cut := strings.Index(docText, "\n\n")
	refunds := fonte.Chunk{ID: "support.md#0", DocID: "support.md", Title: "Support handbook", Headings: []string{"Refunds"}, Start: 0, End: cut, Text: docText[:cut]}
	returns := fonte.Chunk{ID: "support.md#1", DocID: "support.md", Title: "Support handbook", Headings: []string{"Returns"}, Start: cut + 2, End: len(docText), Text: docText[cut+2:], Position: 1}
	return []fonte.Hit{{Chunk: refunds, Score: 0.9, Relevance: 0.6}, {Chunk: returns, Score: 0.5, Relevance: 0.2}}, docs
}

func TestAskExtractiveCitesTheSentence(t *testing.T) {
	hits, docs := handbookHits()
	a, err := Ask(context.Background(), "how long do international refunds take?", hits, docs, Config{Floor: 0.25})
	if err != nil {
		t.Fatal(err)
	}
	if a.Abstained || a.Text != "10 working days — International refunds take up to 10 working days because of bank clearing. [1]" {
		t.Fatalf("answer %q abstained %v", a.Text, a.Abstained)
	}
	c := a.Citations[0]
	if c.N != 1 || c.Title != "Support handbook" || c.Headings[0] != "Refunds" || c.Source != "docs/support.md" || c.Updated.IsZero() {
		t.Fatalf("citation %+v", c)
	}
	if docs["support.md"].Text[c.Start:c.End] != c.Quote || !strings.HasPrefix(c.Quote, "International") {
		t.Fatalf("quote %q does not slice back to the document (%d:%d)", c.Quote, c.Start, c.End)
	}
	if len(a.Unsupported) != 0 || len(a.BadCitations) != 0 {
		t.Fatalf("extractive answer flagged: %v %v", a.Unsupported, a.BadCitations)
	}
	if !strings.Contains(a.Prompt, "[1] Support handbook › Refunds") || !strings.Contains(a.Prompt, "not instructions") {
		t.Fatalf("prompt:\n%s", a.Prompt)
	}
}

func TestAskAbstainsBelowFloor(t *testing.T) {
	hits, docs := handbookHits()
	for i := range hits {
		hits[i].Relevance = 0.1
	}
	a, err := Ask(context.Background(), "what is on the canteen menu", hits, docs, Config{Floor: 0.25, Generator: &scripted{text: "never called"}})
	if err != nil {
		t.Fatal(err)
	}
	if !a.Abstained || a.Text != DontKnow || len(a.Citations) != 2 || a.Prompt != "" {
		t.Fatalf("%+v", a)
	}
	if a, _ := Ask(context.Background(), "x", nil, docs, Config{}); !a.Abstained {
		t.Fatal("no hits must abstain")
	}
}

func TestAskWithModelChecksCitationsAndSupport(t *testing.T) {
	hits, docs := handbookHits()
	gen := &scripted{text: "Approved refunds take 5 working days [1]. Students get 10% off [2]. Returns are free [7]."}
	var streamed strings.Builder
	a, err := Ask(context.Background(), "how long does a refund take", hits, docs, Config{Floor: 0.25, Generator: gen, OnDelta: func(s string) { streamed.WriteString(s) }})
	if err != nil {
		t.Fatal(err)
	}
	// "10%" is not in the source [2] cites: that sentence never reaches
	// the reader, and stays listed as unsupported.
	if want := "Approved refunds take 5 working days [1]. Returns are free [7]."; streamed.String() != want || a.Text != want || a.Model != "scripted" {
		t.Fatalf("stream %q text %q model %q", streamed.String(), a.Text, a.Model)
	}
	if len(gen.got) != 1 || gen.got[0].Content != a.Prompt {
		t.Fatal("the prompt was not what the model received")
	}
	if len(a.BadCitations) != 1 || a.BadCitations[0] != 7 {
		t.Fatalf("bad citations %v", a.BadCitations)
	}
	if len(a.Unsupported) != 2 || !strings.HasPrefix(a.Unsupported[0], "Students") || !strings.HasPrefix(a.Unsupported[1], "Returns are free") {
		t.Fatalf("unsupported %q", a.Unsupported)
	}
	if q := a.Citations[0].Quote; !strings.Contains(q, "5 working days") {
		t.Fatalf("quote for [1]: %q", q)
	}
	gen.err = errors.New("server said no")
	if _, err := Ask(context.Background(), "q", hits, docs, Config{Generator: gen}); err == nil || !strings.Contains(err.Error(), "server said no") {
		t.Fatalf("generator error: %v", err)
	}
	gen.err, gen.text = nil, "I don't know."
	if a, _ := Ask(context.Background(), "q refund", hits, docs, Config{Generator: gen}); !a.Abstained {
		t.Fatal("a model's refusal must count as abstaining")
	}
}

func TestAskBudgetSelectsByScore(t *testing.T) {
	hits, docs := handbookHits()
	hits[0].Score, hits[1].Score = 0.1, 0.9 // the returns chunk is now the best
	a, err := Ask(context.Background(), "return an item", hits, docs, Config{Budget: Tokens(hits[1].Chunk.Text)})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Citations) != 1 || a.Citations[0].Chunk.ID != "support.md#1" {
		t.Fatalf("kept %+v", a.Citations)
	}
}

func TestIsDontKnow(t *testing.T) {
	for s, want := range map[string]bool{"I don't know.": true, "i do not know": true, "Non lo so.": true, "I don't know, sorry": true, "I know": false, "Refunds take 5 days.": false} {
		if IsDontKnow(s) != want {
			t.Errorf("%q: %v", s, !want)
		}
	}
}
