package embed_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fonte-rag/fonte/embed"
)

// remoteQuick are HTTP options that keep retry tests fast.
func remoteQuick() embed.HTTPOptions {
	return embed.HTTPOptions{MaxAttempts: 3, BackoffBase: time.Millisecond, BackoffMax: 2 * time.Millisecond}
}

// remoteRequest is one request a fake server received.
type remoteRequest struct {
	Method, Path string
	Header       http.Header
	Body         map[string]any
}

// remoteServer records every request and answers with handle, which gets the
// 1-based attempt number and the decoded body.
type remoteServer struct {
	*httptest.Server
	mu       sync.Mutex
	requests []remoteRequest
}

func newRemoteServer(t *testing.T, handle func(w http.ResponseWriter, n int, body map[string]any)) *remoteServer {
	t.Helper()
	f := &remoteServer{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		if err := json.Unmarshal(raw, &body); err != nil {
			t.Errorf("request body %q is not JSON: %v", raw, err)
		}
		f.mu.Lock()
		f.requests = append(f.requests, remoteRequest{r.Method, r.URL.Path, r.Header.Clone(), body})
		n := len(f.requests)
		f.mu.Unlock()
		handle(w, n, body)
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *remoteServer) got() []remoteRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]remoteRequest(nil), f.requests...)
}

// remoteInputs returns a request's "input" as strings.
func remoteInputs(t *testing.T, body map[string]any) []string {
	t.Helper()
	raw, ok := body["input"].([]any)
	if !ok {
		t.Fatalf(`"input" is %T, want a list`, body["input"])
	}
	out := make([]string, len(raw))
	for i, v := range raw {
		out[i] = v.(string)
	}
	return out
}

// remoteVector is the fake model: a 3-dimensional vector derived from the text.
func remoteVector(text string) []float32 {
	return []float32{float32(len(text)), float32(strings.Count(text, "a")), 0.5}
}

func remoteWriteJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// ollamaEmbedServer answers /api/embed like Ollama does.
func ollamaEmbedServer(t *testing.T) *remoteServer {
	return newRemoteServer(t, func(w http.ResponseWriter, _ int, body map[string]any) {
		var vecs [][]float32
		for _, s := range remoteInputs(t, body) {
			vecs = append(vecs, remoteVector(s))
		}
		remoteWriteJSON(w, map[string]any{"model": body["model"], "embeddings": vecs, "total_duration": 14143917, "load_duration": 1019500, "prompt_eval_count": 8})
	})
}

func TestOllamaEmbedRequestAndBatches(t *testing.T) {
	srv := ollamaEmbedServer(t)
	e, err := embed.NewOllama("nomic-embed-text", embed.OllamaOptions{
		BaseURL:      srv.URL + "/",
		BatchSize:    2,
		KeepAlive:    "10m",
		Truncate:     new(false),
		ModelOptions: map[string]any{"num_ctx": 2048},
		HTTP:         remoteQuick(),
	})
	if err != nil {
		t.Fatal(err)
	}
	if e.Model() != "ollama/nomic-embed-text" {
		t.Errorf("Model() = %q", e.Model())
	}
	if e.Dimension() != 0 {
		t.Errorf("Dimension() = %d before any answer, want 0", e.Dimension())
	}
	texts := []string{"a", "banana", "cat", "data", "e"}
	vecs, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range texts {
		if !reflect.DeepEqual(vecs[i], remoteVector(s)) {
			t.Errorf("vector %d = %v, want %v", i, vecs[i], remoteVector(s))
		}
	}
	if e.Dimension() != 3 {
		t.Errorf("Dimension() = %d after answers, want 3", e.Dimension())
	}
	reqs := srv.got()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3 batches", len(reqs))
	}
	wantBatches := [][]string{{"a", "banana"}, {"cat", "data"}, {"e"}}
	for i, r := range reqs {
		if r.Method != http.MethodPost || r.Path != "/api/embed" {
			t.Errorf("request %d: %s %s, want POST /api/embed", i, r.Method, r.Path)
		}
		if ct := r.Header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("Content-Type %q", ct)
		}
		if ua := r.Header.Get("User-Agent"); ua != "fonte" {
			t.Errorf("User-Agent %q", ua)
		}
		if auth := r.Header.Get("Authorization"); auth != "" {
			t.Errorf("Authorization %q sent without a key", auth)
		}
		if got := remoteInputs(t, r.Body); !reflect.DeepEqual(got, wantBatches[i]) {
			t.Errorf("batch %d = %q, want %q", i, got, wantBatches[i])
		}
		if r.Body["model"] != "nomic-embed-text" || r.Body["keep_alive"] != "10m" || r.Body["truncate"] != false {
			t.Errorf("body %v", r.Body)
		}
		if opts, _ := r.Body["options"].(map[string]any); opts["num_ctx"] != 2048.0 {
			t.Errorf("options %v", r.Body["options"])
		}
	}
}

func TestOllamaEmbedOmitsUnsetFieldsAndSendsKey(t *testing.T) {
	srv := ollamaEmbedServer(t)
	o := remoteQuick()
	o.APIKey = "ollama-key"
	e, err := embed.NewOllama("m", embed.OllamaOptions{BaseURL: srv.URL, HTTP: o})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Embed(context.Background(), []string{"one"}); err != nil {
		t.Fatal(err)
	}
	r := srv.got()[0]
	for _, k := range []string{"keep_alive", "truncate", "options"} {
		if _, ok := r.Body[k]; ok {
			t.Errorf("%q sent though unset: %v", k, r.Body)
		}
	}
	if got := remoteInputs(t, r.Body); len(got) != 1 {
		t.Errorf("a single text must still go as a list, got %v", got)
	}
	if auth := r.Header.Get("Authorization"); auth != "Bearer ollama-key" {
		t.Errorf("Authorization %q", auth)
	}
}

func TestOllamaEmbedEmptyMakesNoRequest(t *testing.T) {
	srv := ollamaEmbedServer(t)
	e, _ := embed.NewOllama("m", embed.OllamaOptions{BaseURL: srv.URL})
	vecs, err := e.Embed(context.Background(), nil)
	if err != nil || len(vecs) != 0 || len(srv.got()) != 0 {
		t.Errorf("Embed(nil) = %v, %v after %d requests", vecs, err, len(srv.got()))
	}
}

func TestOllamaEmbedRetriesAfter429(t *testing.T) {
	srv := newRemoteServer(t, func(w http.ResponseWriter, n int, body map[string]any) {
		if n == 1 {
			w.WriteHeader(http.StatusTooManyRequests)
			remoteWriteJSON(w, map[string]string{"error": "server busy, please try again"})
			return
		}
		remoteWriteJSON(w, map[string]any{"embeddings": [][]float32{{1, 2}}})
	})
	e, _ := embed.NewOllama("m", embed.OllamaOptions{BaseURL: srv.URL, HTTP: remoteQuick()})
	if _, err := e.Embed(context.Background(), []string{"x"}); err != nil {
		t.Fatal(err)
	}
	if n := len(srv.got()); n != 2 {
		t.Errorf("%d attempts, want 2", n)
	}
}

func TestOllamaEmbedGivesUpOn500(t *testing.T) {
	srv := newRemoteServer(t, func(w http.ResponseWriter, _ int, _ map[string]any) {
		w.WriteHeader(http.StatusInternalServerError)
		remoteWriteJSON(w, map[string]string{"error": "llama runner process has terminated"})
	})
	e, _ := embed.NewOllama("m", embed.OllamaOptions{BaseURL: srv.URL, HTTP: remoteQuick()})
	_, err := e.Embed(context.Background(), []string{"x"})
	var he *embed.HTTPError
	if !errors.As(err, &he) || he.StatusCode != 500 || he.Attempts != 3 {
		t.Fatalf("error %v, want an HTTPError after 3 attempts", err)
	}
	if n := len(srv.got()); n != 3 {
		t.Errorf("%d attempts, want 3", n)
	}
	for _, want := range []string{"embed: ollama", srv.URL + "/api/embed", "500", "llama runner process has terminated"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

func TestOllamaEmbedDoesNotRetry4xx(t *testing.T) {
	srv := newRemoteServer(t, func(w http.ResponseWriter, _ int, _ map[string]any) {
		w.WriteHeader(http.StatusNotFound)
		remoteWriteJSON(w, map[string]string{"error": `model "nomic-embed-text" not found, try pulling it first`})
	})
	e, _ := embed.NewOllama("nomic-embed-text", embed.OllamaOptions{BaseURL: srv.URL, HTTP: remoteQuick()})
	_, err := e.Embed(context.Background(), []string{"x"})
	if err == nil || !strings.Contains(err.Error(), "404 Not Found") || !strings.Contains(err.Error(), "try pulling it first") {
		t.Fatalf("error %v", err)
	}
	if n := len(srv.got()); n != 1 {
		t.Errorf("%d attempts, want 1", n)
	}
}

func TestOllamaEmbedBadAnswers(t *testing.T) {
	for _, tc := range []struct {
		name, answer, want string
	}{
		{"malformed JSON", `{"embeddings": [[0.1, 0.2],`, "malformed JSON"},
		{"wrong type", `{"embeddings": "no"}`, "malformed JSON"},
		{"too few", `{"embeddings": [[0.1, 0.2]]}`, "returned 1 embeddings for 2 texts"},
		{"too many", `{"embeddings": [[1], [2], [3]]}`, "returned 3 embeddings for 2 texts"},
		{"missing", `{"model": "m"}`, "returned 0 embeddings for 2 texts"},
		{"empty vector", `{"embeddings": [[], []]}`, "empty vector for text 0"},
		{"ragged", `{"embeddings": [[1, 2], [1, 2, 3]]}`, "dimension 3 for text 1, but earlier vectors have dimension 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newRemoteServer(t, func(w http.ResponseWriter, _ int, _ map[string]any) { io.WriteString(w, tc.answer) })
			e, _ := embed.NewOllama("m", embed.OllamaOptions{BaseURL: srv.URL, HTTP: remoteQuick()})
			_, err := e.Embed(context.Background(), []string{"a", "b"})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), srv.URL+"/api/embed") {
				t.Errorf("error %v, want one naming the endpoint and %q", err, tc.want)
			}
			if n := len(srv.got()); n != 1 {
				t.Errorf("%d attempts, want 1: a wrong answer is not retried", n)
			}
		})
	}
}

func TestOllamaEmbedDimensionChangeBetweenBatches(t *testing.T) {
	srv := newRemoteServer(t, func(w http.ResponseWriter, n int, body map[string]any) {
		dim := 4
		if n == 2 {
			dim = 5 // the model was swapped between batches
		}
		var vecs [][]float32
		for range remoteInputs(t, body) {
			vecs = append(vecs, make([]float32, dim))
		}
		remoteWriteJSON(w, map[string]any{"embeddings": vecs})
	})
	e, _ := embed.NewOllama("m", embed.OllamaOptions{BaseURL: srv.URL, BatchSize: 2})
	_, err := e.Embed(context.Background(), []string{"a", "b", "c"})
	if err == nil || !strings.Contains(err.Error(), "dimension 5 for text 2, but earlier vectors have dimension 4") {
		t.Fatalf("error %v", err)
	}
	// A later call that answers in the old dimension still works.
	if _, err := e.Embed(context.Background(), []string{"a"}); err != nil {
		t.Fatal(err)
	}
	if e.Dimension() != 4 {
		t.Errorf("Dimension() = %d, want 4", e.Dimension())
	}
}

func TestOllamaEmbedDeclaredDimension(t *testing.T) {
	srv := ollamaEmbedServer(t) // answers with 3 dimensions
	e, _ := embed.NewOllama("m", embed.OllamaOptions{BaseURL: srv.URL, Dimension: 768})
	if e.Dimension() != 768 {
		t.Errorf("Dimension() = %d, want the declared 768", e.Dimension())
	}
	if _, err := e.Embed(context.Background(), []string{"a"}); err == nil || !strings.Contains(err.Error(), "dimension 3") {
		t.Errorf("error %v, want a dimension mismatch", err)
	}
}

func TestOllamaProbe(t *testing.T) {
	srv := ollamaEmbedServer(t)
	e, _ := embed.NewOllama("m", embed.OllamaOptions{BaseURL: srv.URL})
	for range 2 {
		n, err := e.Probe(context.Background())
		if err != nil || n != 3 {
			t.Fatalf("Probe = %d, %v; want 3", n, err)
		}
	}
	if n := len(srv.got()); n != 1 {
		t.Errorf("%d requests, want 1: a known dimension needs no probe", n)
	}
}

func TestOllamaEmbedTimeout(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		<-r.Context().Done()
	}))
	defer srv.Close()
	o := remoteQuick()
	o.Timeout = 30 * time.Millisecond
	e, _ := embed.NewOllama("m", embed.OllamaOptions{BaseURL: srv.URL, HTTP: o})
	_, err := e.Embed(context.Background(), []string{"a"})
	var he *embed.HTTPError
	if !errors.As(err, &he) || !he.Timeout || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v, want a timeout", err)
	}
}

func TestOllamaEmbedCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	srv := newRemoteServer(t, func(w http.ResponseWriter, n int, body map[string]any) {
		cancel() // the caller gives up while the first batch is in flight
		remoteWriteJSON(w, map[string]any{"embeddings": [][]float32{{1}}})
	})
	e, _ := embed.NewOllama("m", embed.OllamaOptions{BaseURL: srv.URL, BatchSize: 1})
	if _, err := e.Embed(ctx, []string{"a", "b", "c"}); err != context.Canceled {
		t.Fatalf("error %v, want context.Canceled itself", err)
	}
	if n := len(srv.got()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

func TestNewOllamaValidates(t *testing.T) {
	for _, tc := range []struct {
		model string
		o     embed.OllamaOptions
	}{
		{"", embed.OllamaOptions{}},
		{"m", embed.OllamaOptions{BaseURL: "localhost:11434"}},
		{"m", embed.OllamaOptions{BatchSize: -1}},
		{"m", embed.OllamaOptions{Dimension: -1}},
	} {
		if _, err := embed.NewOllama(tc.model, tc.o); err == nil {
			t.Errorf("NewOllama(%q, %+v) accepted", tc.model, tc.o)
		}
	}
}

// TestOllamaEmbedRequestJSON pins the body of /api/embed byte for byte:
// "input" is always an array; truncate, keep_alive and options only when
// set.
func TestOllamaEmbedRequestJSON(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    embed.OllamaOptions
		want string
	}{
		{"defaults", embed.OllamaOptions{},
			`{"model":"nomic-embed-text","input":["solo"]}`},
		{"all set", embed.OllamaOptions{KeepAlive: "10m", Truncate: new(false), ModelOptions: map[string]any{"num_ctx": 8192}},
			`{"model":"nomic-embed-text","input":["solo"],"keep_alive":"10m","truncate":false,"options":{"num_ctx":8192}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var raw []byte
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				raw, _ = io.ReadAll(r.Body)
				remoteWriteJSON(w, map[string]any{"model": "nomic-embed-text", "embeddings": [][]float32{{0.5, 0.5}}})
			}))
			defer srv.Close()
			tc.o.BaseURL = srv.URL
			e, _ := embed.NewOllama("nomic-embed-text", tc.o)
			if _, err := e.Embed(context.Background(), []string{"solo"}); err != nil {
				t.Fatal(err)
			}
			if string(raw) != tc.want {
				t.Errorf("request\n%s\nwant\n%s", raw, tc.want)
			}
		})
	}
}

// TestOllamaEmbedErrorNamesModel checks the whole error for Ollama's
// {"error": "..."} answer to a model that was never pulled.
func TestOllamaEmbedErrorNamesModel(t *testing.T) {
	srv := newRemoteServer(t, func(w http.ResponseWriter, _ int, _ map[string]any) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"error":"model \"nomic-embed-text\" not found, try pulling it first"}`)
	})
	e, _ := embed.NewOllama("nomic-embed-text", embed.OllamaOptions{BaseURL: srv.URL, HTTP: remoteQuick()})
	_, err := e.Embed(context.Background(), []string{"x"})
	want := `embed: ollama/nomic-embed-text: POST ` + srv.URL + `/api/embed: 404 Not Found: model "nomic-embed-text" not found, try pulling it first`
	if err == nil || err.Error() != want {
		t.Errorf("error\n%v\nwant\n%s", err, want)
	}
}
