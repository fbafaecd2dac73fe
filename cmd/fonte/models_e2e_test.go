package main

// End-to-end tests of fonte against model servers: httptest servers that
// speak Ollama's /api/chat (NDJSON stream) and /api/embed, and OpenAI's
// /v1/chat/completions (server-sent events).

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// chatRequest is what fonte posts to either chat endpoint.
type chatRequest struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	Messages []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
}

func (r chatRequest) text() string {
	var b strings.Builder
	for _, m := range r.Messages {
		b.WriteString(m.Content)
		b.WriteString("\n")
	}
	return b.String()
}

// sourceNumber finds the number the prompt gives the source whose text
// contains needle ("[n] label\ntext", sources separated by blank lines).
func sourceNumber(prompt, needle string) int {
	at := strings.Index(prompt, needle)
	if at < 0 {
		return 0
	}
	marks := regexp.MustCompile(`(?m)^\[(\d+)\] `).FindAllStringSubmatchIndex(prompt[:at], -1)
	if len(marks) == 0 {
		return 0
	}
	last := marks[len(marks)-1]
	var n int
	fmt.Sscan(prompt[last[2]:last[3]], &n)
	return n
}

// chatServer records the requests a fake chat server receives.
type chatServer struct {
	*httptest.Server
	mu       sync.Mutex
	requests []chatRequest
	headers  []http.Header
	problems []string
}

func (s *chatServer) problem(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.problems = append(s.problems, fmt.Sprintf(format, args...))
}

func (s *chatServer) check(t *testing.T) []chatRequest {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.problems {
		t.Error("server:", p)
	}
	return slices.Clone(s.requests)
}

// The answer the fake models give: a supported claim citing the source
// that holds it, and a second sentence citing [9], which no prompt of
// these tests lists (they run with --k 3).
const (
	leaveQuestion = "How many vacation days do I get in a year if I work full time?"
	leaveClaim    = "Full-time employees accrue 26 working days of annual leave per calendar year"
)

func modelAnswer(n int) []string {
	return []string{"Full-time employees accrue ", "26 working days of annual leave ", fmt.Sprintf("per calendar year [%d]. ", n), "Ask HR about the rest [9]."}
}

// newChatServer serves path, answering each request with the pieces
// modelAnswer returns, written by write.
func newChatServer(t *testing.T, path string, write func(w io.Writer, pieces []string)) *chatServer {
	s := &chatServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != path {
			s.problem("unexpected %s %s", r.Method, r.URL.Path)
			http.NotFound(w, r)
			return
		}
		var req chatRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			s.problem("request body: %v", err)
			http.Error(w, "bad JSON", http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		s.requests = append(s.requests, req)
		s.headers = append(s.headers, r.Header.Clone())
		s.mu.Unlock()
		n := sourceNumber(req.text(), leaveClaim)
		if n == 0 {
			s.problem("no source of the prompt holds %q", leaveClaim)
		}
		write(w, modelAnswer(n))
	}))
	t.Cleanup(s.Close)
	return s
}

func flush(w io.Writer) {
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

func ollamaChat(w io.Writer, pieces []string) {
	if rw, ok := w.(http.ResponseWriter); ok {
		rw.Header().Set("Content-Type", "application/x-ndjson")
	}
	enc := json.NewEncoder(w)
	for _, p := range pieces {
		_ = enc.Encode(map[string]any{"model": "test", "created_at": "2025-01-01T00:00:00Z",
			"message": map[string]string{"role": "assistant", "content": p}, "done": false})
		flush(w)
	}
	_ = enc.Encode(map[string]any{"model": "test", "message": map[string]string{"role": "assistant", "content": ""},
		"done": true, "done_reason": "stop", "prompt_eval_count": 500, "eval_count": 30})
}

func openAIChat(w io.Writer, pieces []string) {
	if rw, ok := w.(http.ResponseWriter); ok {
		rw.Header().Set("Content-Type", "text/event-stream")
	}
	event := func(v any) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(w, "data: %s\n\n", b)
		flush(w)
	}
	fmt.Fprint(w, ": keep-alive\n\n")
	event(map[string]any{"object": "chat.completion.chunk", "choices": []any{map[string]any{"index": 0, "delta": map[string]string{"role": "assistant"}}}})
	for _, p := range pieces {
		event(map[string]any{"object": "chat.completion.chunk", "choices": []any{map[string]any{"index": 0, "delta": map[string]string{"content": p}}}})
	}
	event(map[string]any{"object": "chat.completion.chunk", "choices": []any{map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": "stop"}}})
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// checkPrompt asserts that a request carries the numbered-sources prompt.
func checkPrompt(t *testing.T, req chatRequest, model string) {
	t.Helper()
	p := req.text()
	if req.Model != model || !req.Stream {
		t.Errorf("request for model %q, stream %v; want %q, true", req.Model, req.Stream, model)
	}
	if !strings.Contains(p, "[1]") || !strings.Contains(p, leaveQuestion) {
		t.Errorf("the prompt lacks the numbered sources or the question:\n%s", clip(p, 3000))
	}
	if !strings.Contains(strings.ToLower(p), "not instructions") {
		t.Errorf("the prompt does not say the sources are material, not instructions:\n%s", clip(p, 3000))
	}
	if regexp.MustCompile(`(?m)^\[9\] `).MatchString(p) {
		t.Errorf("with --k 3 the prompt lists a source [9]")
	}
}

// checkModelAnswer asserts what `ask --json` reports about the fake answer.
func checkModelAnswer(t *testing.T, a answerOut, model string) {
	t.Helper()
	want := strings.Join(modelAnswer(0), "")
	cited := citedNumbers(a.Answer)
	if len(cited) == 0 {
		t.Fatalf("answer %q cites nothing", a.Answer)
	}
	if strings.Join(modelAnswer(cited[0]), "") != a.Answer {
		t.Errorf("answer %q is not the streamed text (%q with the source number)", a.Answer, want)
	}
	if a.Abstained || a.Model != model {
		t.Errorf("abstained %v, model %q; want false, %q", a.Abstained, a.Model, model)
	}
	if !slices.Equal(a.BadCitations, []int{9}) {
		t.Errorf("bad_citations %v; want [9] (the answer cites a source that does not exist)", a.BadCitations)
	}
	if c, ok := citation(a, cited[0]); !ok || c.Doc != "people/leave.md" {
		t.Errorf("citation [%d] is %+v; want people/leave.md", cited[0], c)
	}
	for _, s := range a.Unsupported {
		if strings.Contains(s, "26 working days") {
			t.Errorf("the claim quoted from its source is reported unsupported: %q", s)
		}
	}
}

func TestE2EOllamaGenerator(t *testing.T) {
	t.Parallel()
	_, idx := sharedIndex(t)
	srv := newChatServer(t, "/api/chat", ollamaChat)

	// Text output: the streamed answer, then a warning about [9].
	out := mustOK(t, run{}, "ask", leaveQuestion, "--index", idx, "--k", "3", "--generator", "ollama:test", "--generate-url", srv.URL)
	if !strings.Contains(out, leaveClaim) || !strings.Contains(out, "Ask HR about the rest [9].") {
		t.Errorf("the streamed answer is not printed:\n%s", out)
	}
	warned := false
	for _, line := range strings.Split(out, "\n") {
		warned = warned || (strings.Contains(strings.ToLower(line), "warning") && strings.Contains(line, "[9]"))
	}
	if !warned {
		t.Errorf("no warning about the citation [9]:\n%s", out)
	}

	out = mustOK(t, run{}, "ask", leaveQuestion, "--index", idx, "--k", "3", "--generator", "ollama:test", "--generate-url", srv.URL, "--json")
	checkModelAnswer(t, decode[answerOut](t, out), "ollama/test")
	reqs := srv.check(t)
	if len(reqs) != 2 {
		t.Fatalf("the server got %d requests for two questions", len(reqs))
	}
	for _, r := range reqs {
		checkPrompt(t, r, "test")
	}
}

func TestE2EOpenAIGenerator(t *testing.T) {
	t.Parallel()
	_, idx := sharedIndex(t)
	srv := newChatServer(t, "/v1/chat/completions", openAIChat)
	r := run{env: []string{"FONTE_API_KEY=sk-test-123"}}
	out := mustOK(t, r, "ask", leaveQuestion, "--index", idx, "--k", "3", "--generator", "openai:gpt-test", "--generate-url", srv.URL, "--json")
	checkModelAnswer(t, decode[answerOut](t, out), "openai/gpt-test")
	out = mustOK(t, r, "ask", leaveQuestion, "--index", idx, "--k", "3", "--generator", "openai:gpt-test", "--generate-url", srv.URL)
	if !strings.Contains(out, leaveClaim) {
		t.Errorf("the streamed answer is not printed:\n%s", out)
	}
	if strings.Contains(out, "sk-test-123") {
		t.Errorf("the API key is printed:\n%s", out)
	}
	reqs := srv.check(t)
	if len(reqs) != 2 {
		t.Fatalf("the server got %d requests for two questions", len(reqs))
	}
	checkPrompt(t, reqs[0], "gpt-test")
	srv.mu.Lock()
	auth := srv.headers[0].Get("Authorization")
	srv.mu.Unlock()
	if auth != "Bearer sk-test-123" {
		t.Errorf("Authorization %q; want the key from FONTE_API_KEY", auth)
	}
}

// embedServer is an Ollama /api/embed server whose vectors have dim
// dimensions, derived from each text's hash.
func embedServer(t *testing.T, dim int) (*httptest.Server, *atomic.Int64) {
	calls := &atomic.Int64{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/api/embed" {
			http.NotFound(w, r)
			return
		}
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Input) == 0 {
			http.Error(w, `{"error":"bad request"}`, http.StatusBadRequest)
			return
		}
		calls.Add(1)
		vecs := make([][]float32, len(req.Input))
		for i, s := range req.Input {
			h := sha256.Sum256([]byte(s))
			vecs[i] = make([]float32, dim)
			for j := range dim {
				vecs[i][j] = float32(h[j%len(h)])/255 - 0.5
			}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"model": req.Model, "embeddings": vecs})
	}))
	t.Cleanup(srv.Close)
	return srv, calls
}

// snapshotDir reads every file of dir.
func snapshotDir(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		files[p] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func sameFiles(a, b map[string][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || !bytes.Equal(v, w) {
			return false
		}
	}
	return true
}

func TestE2EEmbedderDimensionChange(t *testing.T) {
	t.Parallel()
	docs := t.TempDir()
	for _, f := range []string{"people/leave.md", "security/passwords-and-accounts.md"} {
		b, err := os.ReadFile(filepath.Join(examplesDir, "handbook", f))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(docs, f), b)
	}
	idx := filepath.Join(t.TempDir(), "idx")
	small, _ := embedServer(t, 8)
	out := mustOK(t, run{}, "index", docs, "--index", idx, "--embedder", "ollama:emb", "--embed-url", small.URL, "--json")
	if rep := decode[indexOut](t, out); rep.Indexed != 2 || rep.ChunksEmbedded == 0 {
		t.Fatalf("indexing with the 8-dimension server: %s", out)
	}
	st := decode[statusOut](t, mustOK(t, run{}, "status", "--index", idx, "--embedder", "ollama:emb", "--embed-url", small.URL, "--json"))
	if st.Dimension != 8 {
		t.Fatalf("status reports dimension %d; want 8", st.Dimension)
	}

	// The same model name now answers in 16 dimensions, and there is work
	// to do: the index run must refuse, leaving the index as it was.
	big, bigCalls := embedServer(t, 16)
	writeFile(t, filepath.Join(docs, "people", "new.md"), []byte("# New page\n\nThe bike shed is painted green every spring.\n"))
	before := snapshotDir(t, idx)
	res := runFonte(t, "index", docs, "--index", idx, "--embedder", "ollama:emb", "--embed-url", big.URL, "--json")
	if res.code == 0 {
		t.Fatalf("indexing with a server of another dimension succeeded: %s", res)
	}
	if !regexp.MustCompile(`\bdim`).MatchString(res.stderr) || !strings.Contains(res.stderr, "16") || !strings.Contains(res.stderr, "8") {
		t.Errorf("the error should say the dimension changed (8 to 16): %s", res.stderr)
	}
	if !sameFiles(before, snapshotDir(t, idx)) {
		t.Errorf("the failed run changed the index folder")
	}
	if bigCalls.Load() == 0 {
		t.Errorf("the 16-dimension server was never asked, so the test proves nothing")
	}

	// Searching with the wrong server fails clearly too, and does not crash.
	res = runFonte(t, "search", "annual leave", "--index", idx, "--embedder", "ollama:emb", "--embed-url", big.URL, "--json")
	if res.code == 0 || strings.Contains(res.stderr, "panic") || !strings.Contains(res.stderr, "dimension") {
		t.Errorf("search embedding the query in 16 dimensions over an 8-dimension index: want a clear error; got %s", res)
	}

	// The right server still works on the untouched index.
	hits := decode[searchOut](t, mustOK(t, run{}, "search", "annual leave", "--index", idx, "--embedder", "ollama:emb", "--embed-url", small.URL, "--json")).Hits
	if len(hits) == 0 {
		t.Errorf("no hits with the original embedder")
	}
}

func TestE2EServerErrors(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	hits := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits[r.URL.Path]++
		mu.Unlock()
		http.Error(w, `{"error":"model exploded"}`, http.StatusInternalServerError)
	}))
	t.Cleanup(srv.Close)
	host := strings.TrimPrefix(srv.URL, "http://")

	t.Run("generator", func(t *testing.T) {
		t.Parallel()
		_, idx := sharedIndex(t)
		res := runFonte(t, "ask", leaveQuestion, "--index", idx, "--generator", "ollama:test", "--generate-url", srv.URL)
		if res.code == 0 || !strings.Contains(res.stderr, host) || !strings.Contains(res.stderr, "500") {
			t.Errorf("a chat server failing with 500: want a non-zero exit naming %s and the status; got %s", host, res)
		}
	})
	t.Run("embedder", func(t *testing.T) {
		t.Parallel()
		docs := t.TempDir()
		writeFile(t, filepath.Join(docs, "a.md"), []byte("# A\n\nSome text about annual leave and its rules for everyone.\n"))
		idx := filepath.Join(t.TempDir(), "idx")
		res := runFonte(t, "index", docs, "--index", idx, "--embedder", "openai:emb", "--embed-url", srv.URL)
		if res.code == 0 || !strings.Contains(res.stderr, host) || !strings.Contains(res.stderr, "500") {
			t.Errorf("an embedding server failing with 500: want a non-zero exit naming %s and the status; got %s", host, res)
		}
		if _, err := os.Stat(filepath.Join(idx, "manifest")); err == nil {
			t.Errorf("a failed first index run left a manifest behind")
		}
	})
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		if hits["/api/chat"] == 0 || hits["/v1/embeddings"] == 0 {
			t.Errorf("the failing server was not asked as expected: %v", hits)
		}
	})
}
