package answer

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

// streamer is a Generator that streams a fixed answer in the given pieces.
type streamer struct{ pieces []string }

func (s streamer) Model() string { return "test/streamer" }
func (s streamer) Generate(_ context.Context, _ []fonte.Message, onDelta func(string)) (string, error) {
	for _, p := range s.pieces {
		if onDelta != nil {
			onDelta(p)
		}
	}
	return strings.Join(s.pieces, ""), nil
}

func TestFiguresHeldInEitherFormat(t *testing.T) {
	for _, c := range []struct {
		source, figure string
		held           bool
	}{
		{"a budget of 1,000.50 euro", "1.000,50", true},
		{"un budget di 1.000,50 euro", "1,000.50", true},
		{"un budget di 1.000 euro", "1000", true},
		{"10,5 ore", "10.5", true},
		{"10,5 ore", "105", false},
		{"within two weeks", "2", true},
		{"entro due settimane", "2", true},
		{"at least 8 characters", "8", true},
		{"at least 10 characters", "8", false},
		{"kernel 5.6", "5.6", true},
		{"at least ten characters", "ten", true},
		{"by 31 March 2026", "03", true},
		{"entro il 31 marzo", "3", true},
		{"on the third floor", "3", true},
		{"at least 12 characters", "ten", false},
	} {
		if got := figureHeld(c.figure, figureSet(c.source, true)); got != c.held {
			t.Errorf("%q in %q: held %v, want %v", c.figure, c.source, got, c.held)
		}
	}
	if got := Figures("Due to the rules, sei giorni o 3 settimane, two weeks."); !slices.Equal(got, []string{"3", "two"}) {
		t.Errorf("Figures = %q: want the numeral and the unambiguous number word only", got)
	}
}

func TestUnsupportedSentencesParaphraseAndWrongPassage(t *testing.T) {
	refunds := fonte.Chunk{ID: "r", Headings: []string{"Refunds"}, Text: "An approved refund is returned to the original payment method within 5 working days. International refunds take up to 10 working days because of bank clearing."}
	returns := fonte.Chunk{ID: "s", Headings: []string{"Returns"}, Text: "An item may be returned within 30 days of delivery if it is unused. Opened software cannot be returned unless faulty."}
	chunks := []fonte.Chunk{refunds, returns}
	for _, c := range []struct {
		answer      string
		unsupported bool
	}{
		// A person's paraphrase: other words, the same figure.
		{"Once approved, your refund goes back to the method you paid with in 5 working days [1].", false},
		// A loose one, two content words of six in the source, is
		// flagged: the limit of a lexical check (Ask delivers it, with a
		// warning).
		{"You get your money back on the card you paid with within 5 working days [1].", true},
		{"Refunds abroad can take 10 working days, since the banks need time to clear them [1].", false},
		// The same with a changed figure, a single digit included.
		{"You get your money back on the card you paid with within 4 working days [1].", true},
		{"Refunds abroad can take twelve working days [1].", true},
		// A sentence of the returns passage cited as the refunds one.
		{"Opened software cannot be returned unless it is faulty [1].", true},
		{"Opened software cannot be returned unless it is faulty [2].", false},
		// An invented claim.
		{"The warehouse ships zeppelins on weekends [1].", true},
		// An Italian answer from English sources: only figures compare.
		{"Il rimborso arriva entro 5 giorni lavorativi sul metodo di pagamento originale [1].", false},
		{"Il rimborso arriva entro 7 giorni lavorativi sul metodo di pagamento originale [1].", true},
		// Too short for analysis.DetectLanguage: told by function words.
		{"Zeppelins on the roof [1].", true},
		// A citation of no source.
		{"Refunds take 5 working days [9].", true},
	} {
		got := UnsupportedSentences(c.answer, chunks)
		if (len(got) > 0) != c.unsupported {
			t.Errorf("%q: unsupported %q, want flagged %v", c.answer, got, c.unsupported)
		}
	}
}

func TestAskLeavesOutInventedFiguresWhileStreaming(t *testing.T) {
	hits, docs := handbookHits()
	for _, c := range []struct {
		name    string
		pieces  []string
		want    string // the text the reader gets, streamed and final
		removed int
		flagged int // sentences listed unsupported, the removed ones included
	}{
		{"a loose paraphrase is delivered with a warning", []string{"You get your money back on the card you paid with within 5 working days [1]."},
			"You get your money back on the card you paid with within 5 working days [1].", 0, 1},
		{"a figure no source holds", []string{"Approved refunds are back within 5 working", " days. [1] Students get a 15", "% discount [1]. Returns are free within 30 days [2]."},
			"Approved refunds are back within 5 working days. [1] Returns are free within 30 days [2].", 1, 1},
		{"a number word is only flagged", []string{"Approved refunds take 5 working days [1]. Both passages give two rules [2]."},
			"Approved refunds take 5 working days [1]. Both passages give two rules [2].", 0, 1},
		{"a figure of another source than the one cited", []string{"Approved refunds take 5 working days [1]. International ones take 30 days [1]."},
			"Approved refunds take 5 working days [1].", 1, 1},
		{"a citation marker arriving in pieces", []string{"Approved refunds take 5 working days.", " [", "1] Returns: 30 days [2]."},
			"Approved refunds take 5 working days. [1] Returns: 30 days [2].", 0, 0},
		{"an invented figure in an aside is only flagged", []string{"Approved refunds take 5 working days (7 for some banks) [1]."},
			"Approved refunds take 5 working days (7 for some banks) [1].", 0, 1},
	} {
		var streamed strings.Builder
		tr := &Trace{}
		a, err := Ask(context.Background(), "how long does a refund take", hits, docs, Config{Generator: streamer{c.pieces}, Trace: tr,
			OnDelta: func(s string) { streamed.WriteString(s) }})
		if err != nil {
			t.Fatal(err)
		}
		if a.Text != c.want || strings.TrimSpace(streamed.String()) != c.want || a.Model != "test/streamer" {
			t.Errorf("%s: text %q, streamed %q (model %s), want %q", c.name, a.Text, streamed.String(), a.Model, c.want)
		}
		if len(tr.Removed) != c.removed {
			t.Errorf("%s: removed %q, want %d", c.name, tr.Removed, c.removed)
		}
		for _, r := range tr.Removed {
			if !slices.Contains(a.Unsupported, r) {
				t.Errorf("%s: removed %q not listed as unsupported %q", c.name, r, a.Unsupported)
			}
		}
		if len(a.Unsupported) != c.flagged {
			t.Errorf("%s: unsupported %q, want %d", c.name, a.Unsupported, c.flagged)
		}
		if a.Citations[0].Quote == a.Citations[0].Chunk.Text {
			t.Errorf("%s: the citation of [1] quotes no sentence", c.name)
		}
	}

	// A figure the question states may be restated: let through, flagged
	// since no source holds it.
	a, err := Ask(context.Background(), "I returned 2 items: how long does the refund take?", hits, docs,
		Config{Generator: streamer{[]string{"For your 2 items, approved refunds take 5 working days [1]."}}})
	if err != nil {
		t.Fatal(err)
	}
	if a.Model != "test/streamer" || len(a.Unsupported) != 1 || !strings.HasPrefix(a.Text, "For your 2 items") {
		t.Errorf("a figure of the question: model %s, text %q, unsupported %q", a.Model, a.Text, a.Unsupported)
	}

	// With no cited claim left, the extractive answer replaces the model's.
	a, err = Ask(context.Background(), "how long do international refunds take", hits, docs, Config{Generator: streamer{[]string{"International refunds take 45 days [1]."}}})
	if err != nil {
		t.Fatal(err)
	}
	if a.Model != "fonte/extractive" || strings.Contains(a.Text, "45") || !strings.Contains(a.Text, "10 working days") {
		t.Errorf("all claims invented: model %s, text %q", a.Model, a.Text)
	}
}
