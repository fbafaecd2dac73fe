package generate_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/generate"
)

// quick are HTTP options that keep retry tests fast.
func quick() generate.HTTPOptions {
	return generate.HTTPOptions{MaxAttempts: 3, BackoffBase: time.Millisecond, BackoffMax: 2 * time.Millisecond}
}

var conversation = []fonte.Message{
	{Role: "system", Content: "Answer from the sources."},
	{Role: "user", Content: "Why is the sky blue?"},
}

// chatServer records requests and lets handle stream the answer; n is the
// 1-based attempt.
type chatServer struct {
	*httptest.Server
	mu      sync.Mutex
	headers []http.Header
	paths   []string
	bodies  []map[string]any
}

func newChatServer(t *testing.T, handle func(w http.ResponseWriter, r *http.Request, n int)) *chatServer {
	t.Helper()
	s := &chatServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			t.Errorf("request body: %v", err)
		}
		// The server notices a client leaving only once the body is read.
		io.Copy(io.Discard, r.Body)
		s.mu.Lock()
		s.headers = append(s.headers, r.Header.Clone())
		s.paths = append(s.paths, r.Method+" "+r.URL.Path)
		s.bodies = append(s.bodies, body)
		n := len(s.bodies)
		s.mu.Unlock()
		handle(w, r, n)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *chatServer) attempts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.bodies)
}

// sendLines writes each line and flushes, so the client sees a real
// stream.
func sendLines(w http.ResponseWriter, lines ...string) {
	for _, l := range lines {
		io.WriteString(w, l)
		w.(http.Flusher).Flush()
	}
}

func ollamaChunk(content string) string {
	return fmt.Sprintf(`{"model":"llama3.2","created_at":"2023-08-04T08:52:19.385406455-07:00","message":{"role":"assistant","content":%q,"images":null},"done":false}`+"\n", content)
}

const ollamaDone = `{"model":"llama3.2","created_at":"2023-08-04T19:22:45.499127Z","message":{"role":"assistant","content":""},"done_reason":"stop","done":true,"total_duration":4883583458,"load_duration":1334875,"prompt_eval_count":26,"prompt_eval_duration":342546000,"eval_count":282,"eval_duration":4535599000}` + "\n"

func TestOllamaGenerateStreams(t *testing.T) {
	srv := newChatServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		w.Header().Set("Content-Type", "application/x-ndjson")
		sendLines(w, ollamaChunk("The"), ollamaChunk(" sky"), "\n", ollamaChunk(" scatters light."), ollamaDone)
	})
	var finish generate.Finish
	g, err := generate.NewOllama("llama3.2", generate.OllamaOptions{
		BaseURL:      srv.URL,
		Temperature:  new(0.0),
		MaxTokens:    256,
		ModelOptions: map[string]any{"num_ctx": 4096, "temperature": 0.9},
		KeepAlive:    "15m",
		OnFinish:     func(f generate.Finish) { finish = f },
		HTTP:         quick(),
	})
	if err != nil {
		t.Fatal(err)
	}
	if g.Model() != "ollama/llama3.2" {
		t.Errorf("Model() = %q", g.Model())
	}
	var deltas []string
	text, err := g.Generate(context.Background(), conversation, func(d string) { deltas = append(deltas, d) })
	if err != nil {
		t.Fatal(err)
	}
	if text != "The sky scatters light." {
		t.Errorf("text %q", text)
	}
	if !reflect.DeepEqual(deltas, []string{"The", " sky", " scatters light."}) {
		t.Errorf("deltas %q", deltas)
	}
	if finish != (generate.Finish{Reason: "stop", PromptTokens: 26, OutputTokens: 282}) {
		t.Errorf("finish %+v", finish)
	}

	if srv.paths[0] != "POST /api/chat" {
		t.Errorf("request %s", srv.paths[0])
	}
	h := srv.headers[0]
	if h.Get("Content-Type") != "application/json" || h.Get("Accept") != "application/x-ndjson" || h.Get("User-Agent") != "fonte" || h.Get("Authorization") != "" {
		t.Errorf("headers %v", h)
	}
	body := srv.bodies[0]
	if body["model"] != "llama3.2" || body["stream"] != true || body["keep_alive"] != "15m" {
		t.Errorf("body %v", body)
	}
	wantMsgs := []any{
		map[string]any{"role": "system", "content": "Answer from the sources."},
		map[string]any{"role": "user", "content": "Why is the sky blue?"},
	}
	if !reflect.DeepEqual(body["messages"], wantMsgs) {
		t.Errorf("messages %v", body["messages"])
	}
	wantOpts := map[string]any{"temperature": 0.0, "num_predict": 256.0, "num_ctx": 4096.0}
	if !reflect.DeepEqual(body["options"], wantOpts) {
		t.Errorf("options %v, want %v (Temperature wins over ModelOptions)", body["options"], wantOpts)
	}
}

func TestOllamaGenerateWithoutCallbackOrOptions(t *testing.T) {
	srv := newChatServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		sendLines(w, ollamaChunk("ok"), ollamaDone)
	})
	g, _ := generate.NewOllama("m", generate.OllamaOptions{BaseURL: srv.URL})
	text, err := g.Generate(context.Background(), conversation, nil)
	if err != nil || text != "ok" {
		t.Fatalf("Generate = %q, %v", text, err)
	}
	for _, k := range []string{"options", "keep_alive"} {
		if _, ok := srv.bodies[0][k]; ok {
			t.Errorf("%q sent though unset", k)
		}
	}
}

func TestOllamaGenerateErrorInStream(t *testing.T) {
	srv := newChatServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		sendLines(w, ollamaChunk("I"), ollamaChunk(" can"), `{"error":"an error was encountered while running the model"}`+"\n")
	})
	g, _ := generate.NewOllama("m", generate.OllamaOptions{BaseURL: srv.URL, HTTP: quick()})
	var deltas int
	_, err := g.Generate(context.Background(), conversation, func(string) { deltas++ })
	var he *generate.HTTPError
	if !errors.As(err, &he) || he.StatusCode != 200 {
		t.Fatalf("error %v, want an HTTPError with status 200", err)
	}
	if !strings.Contains(err.Error(), "generate: ollama/m: POST "+srv.URL+"/api/chat: 200 OK: error in stream: an error was encountered while running the model") {
		t.Errorf("error %q", err)
	}
	if u := g.Usage(); u != (generate.Finish{}) {
		t.Errorf("Usage() after a failure = %+v", u)
	}
	if deltas != 2 || srv.attempts() != 1 {
		t.Errorf("%d deltas, %d attempts; want 2, 1 (a started stream is not retried)", deltas, srv.attempts())
	}
}

// TestOllamaGenerateErrorStatus answers with the errors Ollama sends, in
// its shape {"error": "..."}.
func TestOllamaGenerateErrorStatus(t *testing.T) {
	for _, tc := range []struct {
		name     string
		status   int
		body     string
		attempts int
		want     string
	}{
		{"model not pulled", http.StatusNotFound, `{"error":"model \"llama9\" not found, try pulling it first"}`, 1,
			`404 Not Found: model "llama9" not found, try pulling it first`},
		{"bad request", http.StatusBadRequest, `{"error":"invalid options: num_ctxx"}`, 1,
			"400 Bad Request: invalid options: num_ctxx"},
		{"runner crashed", http.StatusInternalServerError, `{"error":"llama runner process has terminated: exit status 2"}`, 3,
			"500 Internal Server Error: llama runner process has terminated: exit status 2 (after 3 attempts)"},
		{"busy", http.StatusServiceUnavailable, `{"error":"server busy, please try again.  maximum pending requests exceeded"}`, 3,
			"503 Service Unavailable: server busy, please try again.  maximum pending requests exceeded (after 3 attempts)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newChatServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
				w.Header().Set("Content-Type", "application/json; charset=utf-8")
				w.WriteHeader(tc.status)
				io.WriteString(w, tc.body)
			})
			g, _ := generate.NewOllama("llama9", generate.OllamaOptions{BaseURL: srv.URL, HTTP: quick()})
			_, err := g.Generate(context.Background(), conversation, nil)
			var he *generate.HTTPError
			if !errors.As(err, &he) || he.StatusCode != tc.status {
				t.Fatalf("error %v", err)
			}
			if want := "generate: ollama/llama9: POST " + srv.URL + "/api/chat: " + tc.want; err.Error() != want {
				t.Errorf("error\n%s\nwant\n%s", err, want)
			}
			if srv.attempts() != tc.attempts {
				t.Errorf("%d attempts, want %d", srv.attempts(), tc.attempts)
			}
		})
	}
}

// TestOllamaGenerateRequestJSON pins the body of /api/chat byte for byte:
// temperature goes in options only when set.
func TestOllamaGenerateRequestJSON(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    generate.OllamaOptions
		want string
	}{
		{"defaults", generate.OllamaOptions{},
			`{"model":"llama3.2","messages":[{"role":"user","content":"Hi"}],"stream":true}`},
		{"temperature zero", generate.OllamaOptions{Temperature: new(0.0)},
			`{"model":"llama3.2","messages":[{"role":"user","content":"Hi"}],"stream":true,"options":{"temperature":0}}`},
		{"cap and keep-alive", generate.OllamaOptions{MaxTokens: 300, KeepAlive: "10m"},
			`{"model":"llama3.2","messages":[{"role":"user","content":"Hi"}],"stream":true,"options":{"num_predict":300},"keep_alive":"10m"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var raw []byte
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				raw, _ = io.ReadAll(r.Body)
				io.WriteString(w, ollamaChunk("ok")+ollamaDone)
			}))
			defer srv.Close()
			tc.o.BaseURL = srv.URL
			g, _ := generate.NewOllama("llama3.2", tc.o)
			if _, err := g.Generate(context.Background(), []fonte.Message{{Role: "user", Content: "Hi"}}, nil); err != nil {
				t.Fatal(err)
			}
			if string(raw) != tc.want {
				t.Errorf("request\n%s\nwant\n%s", raw, tc.want)
			}
			var ur generate.UsageReporter = g
			if u := ur.Usage(); u != (generate.Finish{Reason: "stop", PromptTokens: 26, OutputTokens: 282}) {
				t.Errorf("Usage() = %+v", u)
			}
		})
	}
}

func TestOllamaGenerateRetriesBeforeStream(t *testing.T) {
	srv := newChatServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			io.WriteString(w, `{"error":"server busy"}`)
			return
		}
		sendLines(w, ollamaChunk("hi"), ollamaDone)
	})
	g, _ := generate.NewOllama("m", generate.OllamaOptions{BaseURL: srv.URL, HTTP: quick()})
	if text, err := g.Generate(context.Background(), conversation, nil); err != nil || text != "hi" {
		t.Fatalf("Generate = %q, %v", text, err)
	}
	if srv.attempts() != 2 {
		t.Errorf("%d attempts, want 2", srv.attempts())
	}
}

func TestOllamaGenerateBadStreams(t *testing.T) {
	for _, tc := range []struct{ name, stream, want string }{
		{"malformed line", ollamaChunk("a") + "{not json\n", "malformed JSON line"},
		{"ends without done", ollamaChunk("a") + ollamaChunk("b"), `stream ended before the final "done" message`},
		{"empty answer", "", `stream ended before the final "done" message`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newChatServer(t, func(w http.ResponseWriter, r *http.Request, n int) { io.WriteString(w, tc.stream) })
			g, _ := generate.NewOllama("m", generate.OllamaOptions{BaseURL: srv.URL, HTTP: quick()})
			_, err := g.Generate(context.Background(), conversation, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "generate: ollama") {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// stallingHandler streams one chunk, then holds the stream open until the
// client goes away.
func stallingHandler(first string) func(w http.ResponseWriter, r *http.Request, n int) {
	return func(w http.ResponseWriter, r *http.Request, n int) {
		sendLines(w, first)
		<-r.Context().Done()
	}
}

func TestOllamaGenerateCancelMidStream(t *testing.T) {
	srv := newChatServer(t, stallingHandler(ollamaChunk("Once")))
	g, _ := generate.NewOllama("m", generate.OllamaOptions{BaseURL: srv.URL})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	start := time.Now()
	_, err := g.Generate(ctx, conversation, func(string) { cancel() })
	if err != context.Canceled {
		t.Fatalf("error %v, want context.Canceled itself", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v to notice the cancellation", d)
	}
}

func TestOllamaGenerateTimeoutMidStream(t *testing.T) {
	srv := newChatServer(t, stallingHandler(ollamaChunk("Once")))
	o := quick()
	o.Timeout = 50 * time.Millisecond
	g, _ := generate.NewOllama("m", generate.OllamaOptions{BaseURL: srv.URL, HTTP: o})
	_, err := g.Generate(context.Background(), conversation, nil)
	var he *generate.HTTPError
	if !errors.As(err, &he) || !he.Timeout || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v, want a timeout", err)
	}
	if srv.attempts() != 1 {
		t.Errorf("%d attempts, want 1", srv.attempts())
	}
}

func TestOllamaGenerateValidates(t *testing.T) {
	if _, err := generate.NewOllama("", generate.OllamaOptions{}); err == nil {
		t.Error("empty model accepted")
	}
	if _, err := generate.NewOllama("m", generate.OllamaOptions{BaseURL: "nohost"}); err == nil {
		t.Error("bad base URL accepted")
	}
	g, _ := generate.NewOllama("m", generate.OllamaOptions{})
	if _, err := g.Generate(context.Background(), nil, nil); err == nil {
		t.Error("empty conversation accepted")
	}
}
