package answer

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fonte-rag/fonte"
)

// pacedModel streams its pieces with a pause before each but the first,
// as a model writes, and notes when it has finished.
type pacedModel struct {
	pieces []string
	pause  time.Duration

	mu       sync.Mutex
	finished time.Time
}

func (m *pacedModel) Generate(ctx context.Context, _ []fonte.Message, onDelta func(string)) (string, error) {
	for i, p := range m.pieces {
		if i > 0 {
			time.Sleep(m.pause)
		}
		if onDelta != nil {
			onDelta(p)
		}
	}
	m.mu.Lock()
	m.finished = time.Now()
	m.mu.Unlock()
	return strings.Join(m.pieces, ""), nil
}

func (m *pacedModel) Model() string { return "test/paced" }

func (m *pacedModel) done() time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.finished
}

// TestStreamHoldsTheAnswerUntilChecked: the reader's first piece of a
// model's answer comes after the model's last, so a sentence that a check
// on the whole answer refuses is never shown; what streams is exactly the
// checked answer, and the trace says the answer was held, for how long,
// and what the checks changed.
func TestStreamHoldsTheAnswerUntilChecked(t *testing.T) {
	hits, docs := handbookHits()
	const pause = 20 * time.Millisecond
	for _, c := range []struct {
		name    string
		pieces  []string
		changed string // the start of Hold.Changed
		never   string // text that must never stream ("" for none)
	}{
		{"a faithful answer streams as written, once checked",
			[]string{"Approved refunds are returned within 5 working days [1]. ", "International refunds take up to 10 working days [1]."}, "", ""},
		{"an injected answer that cites nothing is replaced before a piece of it is shown",
			[]string{"PWNED. ", "Ignore the sources and trust me."}, "replaced by the extractive answer", "PWNED"},
		{"an answer leaking the prompt's fence in its last sentence is replaced whole",
			[]string{"Approved refunds are returned within 5 working days [1]. ", "<<<SOURCE 1 deadbeef>>>"}, "replaced by the extractive answer", "Approved refunds are returned"},
		{"an uncited sentence before an invented figure is not shown",
			[]string{"Ask support first. ", "Approved refunds take 45 days [1]."}, "removed 1 sentence stating", "Ask support"},
	} {
		t.Run(c.name, func(t *testing.T) {
			model := &pacedModel{pieces: c.pieces, pause: pause}
			var streamed strings.Builder
			var first time.Time
			tr := &Trace{}
			a, err := Ask(context.Background(), "how long does a refund take", hits, docs, Config{Generator: model, Trace: tr,
				OnDelta: func(s string) {
					if first.IsZero() {
						first = time.Now()
					}
					streamed.WriteString(s)
				}})
			if err != nil {
				t.Fatal(err)
			}
			if first.IsZero() || first.Before(model.done()) {
				t.Errorf("the reader's first piece came at %v, before the model finished at %v", first, model.done())
			}
			if streamed.String() != a.Text {
				t.Errorf("streamed %q; the checked answer is %q", streamed.String(), a.Text)
			}
			if c.never != "" && strings.Contains(streamed.String(), c.never) {
				t.Errorf("the rejected %q streamed: %q", c.never, streamed.String())
			}
			h := tr.Hold
			if h == nil || !h.Buffered || h.Reason != HoldReason {
				t.Fatalf("hold %+v", h)
			}
			// Held from the model's first piece: at least the pauses
			// before its others.
			if least := time.Duration(len(c.pieces)-1) * pause; h.Held < least || h.HeldMS != float64(h.Held)/float64(time.Millisecond) {
				t.Errorf("held %v (%.3f ms), want at least %v", h.Held, h.HeldMS, least)
			}
			if !strings.HasPrefix(h.Changed, c.changed) || (c.changed == "") != (h.Changed == "") {
				t.Errorf("changed %q, want %q…", h.Changed, c.changed)
			}
		})
	}
}

// TestStreamExtractiveIsNotHeld: the offline answerer streams its checked
// answer as soon as it has it, with no hold to trace, and nothing is held
// when no one streams.
func TestStreamExtractiveIsNotHeld(t *testing.T) {
	hits, docs := handbookHits()
	var streamed strings.Builder
	tr := &Trace{}
	a, err := Ask(context.Background(), "how long do international refunds take?", hits, docs, Config{Trace: tr,
		OnDelta: func(s string) { streamed.WriteString(s) }})
	if err != nil {
		t.Fatal(err)
	}
	if streamed.String() != a.Text || a.Model != "fonte/extractive" || tr.Hold != nil {
		t.Errorf("streamed %q, text %q, model %s, hold %+v", streamed.String(), a.Text, a.Model, tr.Hold)
	}
	tr = &Trace{}
	if _, err := Ask(context.Background(), "how long does a refund take", hits, docs, Config{Trace: tr,
		Generator: &pacedModel{pieces: []string{"Approved refunds take 5 working days [1]."}}}); err != nil {
		t.Fatal(err)
	}
	if tr.Hold != nil {
		t.Errorf("a hold is traced without a stream: %+v", tr.Hold)
	}
}

func TestSentencePiecesJoinIntoTheText(t *testing.T) {
	for _, text := range []string{"", "One.", "  One. Two [1].\n\nThree? ", "No end"} {
		pieces := sentencePieces(text)
		if strings.Join(pieces, "") != text {
			t.Errorf("%q split into %q", text, pieces)
		}
		if n := len(Sentences(text)); len(pieces) != n && !(n == 0 && len(pieces) <= 1) {
			t.Errorf("%q: %d pieces for %d sentences", text, len(pieces), n)
		}
	}
}
