package answer

import (
	"time"
)

// HoldReason is why Ask holds a model's answer back from the stream
// until it has been checked (see Hold).
const HoldReason = "a model's answer is sent only once checked: the injection check may refuse it whole for its last sentence " +
	"(a leaked prompt, a followed order, no citation and no word of the question), and a sentence stating a figure no source holds is removed"

// Hold is how a streamed model answer was held back (Config.OnDelta with a
// Generator): Ask reads the model's whole answer, runs every check on it,
// and only then streams the checked text, sentence by sentence. No piece
// the checks would reject ever reaches the reader; the price is the time
// to first token, which becomes the time to the model's last token plus
// the checks (Held).
type Hold struct {
	// Buffered is true when the answer was held back; Reason says why.
	Buffered bool   `json:"buffered"`
	Reason   string `json:"reason"`
	// Held is how much later the reader's first piece came than the
	// model's first piece: what the hold cost in time to first token
	// (HeldMS in milliseconds).
	Held   time.Duration `json:"-"`
	HeldMS float64       `json:"held_ms"`
	// Changed says what the checks changed in the model's answer before
	// it was sent; "" when it was sent as the model wrote it.
	Changed string `json:"changed,omitempty"`
}

// holder receives a model's answer as it streams and keeps the reader
// waiting until release.
type holder struct {
	first time.Time // when the model's first piece came; zero before
}

// received notes that the model sent piece s.
func (h *holder) received(s string) {
	if s != "" && h.first.IsZero() {
		h.first = time.Now()
	}
}

// release streams text, the checked answer, to out in sentences (each
// with the white space that follows it, so the pieces join into text
// exactly), and records the hold in tr when tracing. A generator that
// did not stream counts from now: it made the reader wait itself.
func (h *holder) release(text string, out func(string), changed string, tr *Trace) {
	if out == nil {
		return
	}
	if tr != nil {
		held := time.Duration(0)
		if !h.first.IsZero() {
			held = time.Since(h.first)
		}
		tr.Hold = &Hold{Buffered: true, Reason: HoldReason, Held: held, HeldMS: float64(held) / float64(time.Millisecond), Changed: changed}
	}
	for _, p := range sentencePieces(text) {
		out(p)
	}
}

// sentencePieces splits text at the starts of its sentences; the pieces
// join into text.
func sentencePieces(text string) []string {
	spans := sentenceSpans(text)
	var out []string
	start := 0
	for _, sp := range spans[min(1, len(spans)):] {
		out = append(out, text[start:sp[0]])
		start = sp[0]
	}
	if start < len(text) {
		out = append(out, text[start:])
	}
	return out
}
