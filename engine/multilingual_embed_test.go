package engine

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/answer"
	"github.com/fonte-rag/fonte/embed"
)

// concepts are the meanings the fake multilingual model knows, each with
// its words in English and Italian: a text's vector counts the concepts
// it names, so an Italian question lands near the English passage that
// names the same things, as a multilingual model (bge-m3) would place it.
var concepts = [][]string{
	{"expense", "expenses", "spese", "spesa"},
	{"report", "claim", "claims", "nota"},
	{"deadline", "within", "days", "entro", "quando", "giorni"},
	{"key", "keys", "chiave", "chiavi"},
	{"lost", "lose", "perdo", "smarrita"},
	{"wi-fi", "wifi", "network", "rete"},
}

func conceptVector(text string) []float32 {
	v := make([]float32, len(concepts)+1)
	v[len(concepts)] = 0.05 // never the zero vector
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !('a' <= r && r <= 'z') && r != '-' && r < 0x80
	}) {
		for i, c := range concepts {
			for _, cw := range c {
				if w == cw {
					v[i]++
				}
			}
		}
	}
	return v
}

// fakeOllama speaks Ollama's POST /api/embed: {"model", "input": [...]}
// in, {"model", "embeddings": [[...]]} out; an unknown model is a 404
// with Ollama's error body. failing makes every request fail so.
func fakeOllama(t *testing.T, failing *atomic.Bool) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/api/embed" {
			http.Error(w, "404 page not found", http.StatusNotFound)
			return
		}
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			json.NewEncoder(w).Encode(map[string]string{"error": err.Error()})
			return
		}
		if req.Model != "bge-m3" || failing.Load() {
			w.WriteHeader(http.StatusNotFound)
			json.NewEncoder(w).Encode(map[string]string{"error": `model "` + req.Model + `" not found, try pulling it first`})
			return
		}
		out := struct {
			Model      string      `json:"model"`
			Embeddings [][]float32 `json:"embeddings"`
		}{Model: req.Model}
		for _, in := range req.Input {
			out.Embeddings = append(out.Embeddings, conceptVector(in))
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(out)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// echoModel is a Generator that answers in Italian from source [1].
type echoModel struct{ prompts int }

func (m *echoModel) Generate(_ context.Context, msgs []fonte.Message, onDelta func(string)) (string, error) {
	m.prompts++
	return "Le note spese vanno presentate entro 30 giorni dalla trasferta [1].", nil
}
func (m *echoModel) Model() string { return "echo" }

// englishCorpus writes a small English-only corpus.
func englishCorpus(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range map[string]string{
		"expenses.md": "# Expense claims\n\nSubmit every expense claim within 30 days of the trip, with the receipts attached.\n",
		"keys.md":     "# Office keys\n\nA lost key must be reported to facilities within 24 hours; the lock is changed at the company's expense.\n",
		"wifi.md":     "# Guest network\n\nThe guest Wi-Fi password is printed at the reception desk and changes every month.\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestMultilingualEmbedderAcrossLanguages shows what a configured
// multilingual embedding model changes for an Italian question over
// English documents. BM25 alone cannot match its words. With the model,
// the dense leg ranks the English expense passage first; fonte tells the
// reader, in Italian, that nothing was found in Italian and shows that
// passage, but does not answer from it: the floor's relevance is lexical
// (the share of the question's words a passage holds), which is near zero
// across languages. With the floor lowered by the caller and a model to
// write the answer, the answer comes from the English passage, with the
// notice.
func TestMultilingualEmbedderAcrossLanguages(t *testing.T) {
	ctx := context.Background()
	docs := englishCorpus(t)
	const question = "Entro quando va presentata la nota spese?"

	plain, err := Open(ctx, Settings{IndexDir: filepath.Join(t.TempDir(), "bm25")}, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	if _, err := plain.Index(ctx, docs, nil); err != nil {
		t.Fatal(err)
	}
	hits, err := plain.Search(ctx, question, SearchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) > 0 && hits[0].Chunk.DocID == "expenses.md" {
		t.Fatalf("BM25 alone ranked the English expense passage first for the Italian question: the test shows nothing")
	}

	var failing atomic.Bool
	srv := fakeOllama(t, &failing)
	model, err := embed.NewOllama("bge-m3", embed.OllamaOptions{BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	e, err := Open(ctx, Settings{IndexDir: filepath.Join(t.TempDir(), "m3"), Embedder: model}, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, err := e.Index(ctx, docs, nil); err != nil {
		t.Fatal(err)
	}
	tr := &Trace{}
	a, err := e.Ask(ctx, question, AskOptions{SearchOptions: SearchOptions{Trace: tr}})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Mode != "hybrid" || len(tr.Dense) == 0 || tr.Dense[0].ChunkID != "expenses.md#0" {
		t.Fatalf("with the model: mode %s, dense leg %+v; want hybrid with expenses.md#0 first", tr.Mode, tr.Dense)
	}
	if !a.Abstained || a.Text != "Non lo so." || a.Notice != answer.CrossLanguageNotice("it", "en") {
		t.Errorf("with the model: abstained %v, text %q, notice %q", a.Abstained, a.Text, a.Notice)
	}
	if len(a.Citations) == 0 || a.Citations[0].DocID != "expenses.md" {
		t.Errorf("the passage found is not shown first: %+v", a.Citations)
	}

	// A caller that lowers the floor, with a model to write the answer:
	// fonte answers from the English passage and keeps the notice.
	gen := &echoModel{}
	withModel, err := Open(ctx, Settings{IndexDir: filepath.Join(t.TempDir(), "m3"), Embedder: model, Generator: gen}, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer withModel.Close()
	if _, err := withModel.Index(ctx, docs, nil); err != nil {
		t.Fatal(err)
	}
	a, err = withModel.Ask(ctx, question, AskOptions{Floor: -1})
	if err != nil {
		t.Fatal(err)
	}
	if a.Abstained || gen.prompts != 1 || a.Notice == "" || len(a.Citations) == 0 || a.Citations[0].DocID != "expenses.md" {
		t.Errorf("floor lowered: abstained %v, prompts %d, notice %q, citations %+v", a.Abstained, gen.prompts, a.Notice, a.Citations)
	}

	// The server's errors reach the caller, naming the model.
	failing.Store(true)
	if _, err := e.Ask(ctx, question, AskOptions{}); err == nil || !strings.Contains(err.Error(), "bge-m3") {
		t.Errorf("a failing embedding server: err = %v, want an error naming the model", err)
	}
}
