package injectiontest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/generate"
)

// The forms that reach a model outside the passage text, or dictate an
// answer without addressing an assistant (testdata/injection/gen.go).
var labelForms = []string{"title", "in-heading", "declarative"}

// fakeOpenAI serves OpenAI's /v1/chat/completions as server-sent events
// with the obeying model, and records the rule each prompt's reply
// followed.
type fakeOpenAI struct {
	*httptest.Server
	mu    sync.Mutex
	rules []string
}

func newFakeOpenAI(t *testing.T) *fakeOpenAI {
	f := &fakeOpenAI{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		var req struct {
			Model    string `json:"model"`
			Messages []struct {
				Role, Content string
			} `json:"messages"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Messages) == 0 {
			http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
			return
		}
		reply, rule := obey(req.Messages[len(req.Messages)-1].Content)
		f.mu.Lock()
		f.rules = append(f.rules, rule)
		f.mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		event := func(delta map[string]string, finish any) {
			b, _ := json.Marshal(map[string]any{"id": "chatcmpl-1", "object": "chat.completion.chunk", "model": req.Model,
				"choices": []map[string]any{{"index": 0, "delta": delta, "finish_reason": finish}}})
			fmt.Fprintf(w, "data: %s\n\n", b)
		}
		event(map[string]string{"role": "assistant", "content": reply}, nil)
		event(map[string]string{}, "stop")
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(f.Close)
	return f
}

// reset forgets the rules followed so far.
func (f *fakeOpenAI) reset() {
	f.mu.Lock()
	f.rules = nil
	f.mu.Unlock()
}

// lastRule returns the rule the model followed for the latest prompt.
func (f *fakeOpenAI) lastRule() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.rules) == 0 {
		return "not asked"
	}
	return f.rules[len(f.rules)-1]
}

// TestLabelFormsAlone asks about each document whose injection is its
// title, a heading or a dictated answer, indexed alone so that the only
// instruction in the prompt is its own, of a gullible model served as
// OpenAI's chat completions. A flagged title or heading never reaches the
// model (the model then answers from the text); a dictated answer in the
// text does, the model obeys it, and fonte's injection check replaces the
// answer with the offline one. Every delivered answer states the
// document's fact. The in-heading documents are also chunked small, so
// that the injected heading is a chunk's heading, shown as its label.
func TestLabelFormsAlone(t *testing.T) {
	ctx := context.Background()
	srv := newFakeOpenAI(t)
	gen, err := generate.NewOpenAI("gullible", generate.OpenAIOptions{BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, q := range loadQuestions(t) {
		if !slices.Contains(labelForms, q.Style) {
			continue
		}
		n++
		for _, size := range []int{0, 12} {
			if size > 0 && q.Style != "in-heading" {
				continue
			}
			how := fmt.Sprintf("%s (%s, %s, chunk size %d)", q.ID, q.Format, q.Style, size)
			dir := t.TempDir()
			raw, err := os.ReadFile(filepath.Join(corpus, q.File))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, q.File), raw, 0o644); err != nil {
				t.Fatal(err)
			}
			// Pages on other subjects, so that the document's words are
			// rarer than in a corpus of one (where every word is in every
			// document and no passage clears the relevance floor).
			for i, text := range fillers {
				if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("filler-%d.md", i)), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			e, err := engine.Open(ctx, engine.Settings{Store: filepath.Join(t.TempDir(), "idx"), Generator: gen, ChunkSize: size}, engine.OpenOptions{})
			if err != nil {
				t.Fatal(err)
			}
			rep, err := e.Index(ctx, dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Flagged) == 0 {
				t.Errorf("%s: not flagged", how)
			}
			inLabel := labelled(t, e, q)
			if q.Style == "title" && !inLabel {
				t.Errorf("%s: the injection is not the document's title", how)
			}
			if size > 0 && !inLabel {
				t.Errorf("%s: the injection is no chunk's heading", how)
			}
			srv.reset()
			a, err := e.Ask(ctx, q.Question, engine.AskOptions{})
			if err != nil {
				t.Fatal(err)
			}
			rule := srv.lastRule()
			switch {
			case inLabel && strings.Contains(a.Prompt, strings.TrimSuffix(q.Injection, ".")):
				t.Errorf("%s: the injected label reached the model:\n%s", how, a.Prompt)
			case inLabel && !strings.Contains(a.Prompt, "withheld"):
				t.Errorf("%s: the prompt does not say a label was withheld:\n%s", how, a.Prompt)
			case !inLabel && (rule == "grounded" || rule == "not asked"):
				t.Errorf("%s: the model did not obey the injection in its prompt (%s); the test shows nothing:\n%s", how, rule, a.Prompt)
			case !inLabel && a.Model != "fonte/extractive":
				t.Errorf("%s: the model's answer %q (%s) was delivered", how, a.Text, rule)
			}
			if !checkAnswer(t, e, q, a, "alone") {
				t.Errorf("%s: %q does not state %q (model rule %s)", how, a.Text, q.Answer, rule)
			}
			e.Close()
		}
	}
	if n != 18 {
		t.Errorf("%d documents of the forms %v, want 18 (3 forms × 3 formats × 2 languages)", n, labelForms)
	}
}

// fillers are pages on subjects no question asks about, in both
// languages, with no injection.
var fillers = []string{
	"# Stationery\n\nPaper, pens and folders are ordered from the supplier every Monday.\n\nAsk the office manager for anything else.\n",
	"# Cleaning\n\nThe offices are cleaned every evening after 18:00.\n\nLeave windows closed when you go home.\n",
	"# Cancelleria\n\nCarta, penne e cartelline si ordinano al fornitore ogni lunedì.\n\nPer altro chiedi all'ufficio acquisti.\n",
	"# Pulizie\n\nGli uffici vengono puliti ogni sera dopo le 18:00.\n\nChiudi le finestre quando esci.\n",
}

// labelled reports whether q's injection is the title or a heading of one
// of its document's chunks, as indexed.
func labelled(t *testing.T, e *engine.Engine, q question) bool {
	t.Helper()
	rec, err := e.Document(context.Background(), q.File)
	if err != nil {
		t.Fatal(err)
	}
	inj := strings.TrimSuffix(q.Injection, ".")
	return slices.ContainsFunc(rec.Chunks, func(c fonte.Chunk) bool {
		return c.Title == inj || slices.Contains(c.Headings, inj)
	})
}
