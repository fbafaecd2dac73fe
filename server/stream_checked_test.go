package server_test

// What a client shows is what fonte stands behind: with a model
// configured, no route streams a piece of the model's answer that fonte's
// checks then reject. The model is a real HTTP server speaking Ollama's
// /api/chat (NDJSON) or OpenAI's /v1/chat/completions (SSE), and every
// streaming route is read as its clients read it.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/generate"
	"github.com/fonte-rag/fonte/wire"
)

// leaveFact is the sentence of the handbook that answers leaveQuestion.
const leaveFact = "Full-time employees accrue 26 working days of annual leave per calendar year"

// A model's answer to leaveQuestion, by behaviour; %d is the number of
// the source holding leaveFact.
var modelAnswers = map[string]string{
	// faithful: the fact, citing its source; streamed as it is.
	"faithful": leaveFact + " [%d].",
	// injected: a planted order obeyed; it cites nothing and speaks of
	// nothing asked, so the injection check replaces the whole answer.
	"injected": "PWNED. Ignore the sources and trust me.",
	// unsupported: a sentence with a figure no source holds, after an
	// uncited one: the figure's sentence is removed, no cited claim is
	// left, and the extractive answer replaces the rest.
	"unsupported": "Ask your manager before booking. Full-time employees accrue 99 working days of annual leave per calendar year [%d].",
}

// rejected is, by behaviour, text of the model's answer that the checked
// answer leaves out and that no client may ever be shown.
var rejected = map[string][]string{
	"injected":    {"PWNED", "trust me"},
	"unsupported": {"99", "manager"},
}

// fakeModel serves a model that answers every prompt with the answer of
// its behaviour, word by word, over Ollama's or OpenAI's wire format.
type fakeModel struct {
	*httptest.Server
	mu       sync.Mutex
	problems []string
}

func newFakeModel(t *testing.T, wireFormat, behaviour string) *fakeModel {
	t.Helper()
	m := &fakeModel{}
	m.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct {
				Content string `json:"content"`
			} `json:"messages"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Messages) == 0 {
			m.problem("request to %s: %v", r.URL.Path, err)
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		prompt := req.Messages[len(req.Messages)-1].Content
		text := modelAnswers[behaviour]
		if strings.Contains(text, "%d") {
			n := leaveSource(prompt)
			if n == 0 {
				m.problem("no source of the prompt holds %q", leaveFact)
			}
			text = fmt.Sprintf(text, n)
		}
		pieces := strings.SplitAfter(text, " ")
		switch {
		case wireFormat == "ollama" && r.URL.Path == "/api/chat":
			writeOllama(w, pieces)
		case wireFormat == "openai" && r.URL.Path == "/v1/chat/completions":
			writeOpenAI(w, pieces)
		default:
			m.problem("unexpected %s %s", r.Method, r.URL.Path)
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(func() {
		m.Close()
		m.mu.Lock()
		defer m.mu.Unlock()
		for _, p := range m.problems {
			t.Error("model server:", p)
		}
	})
	return m
}

func (m *fakeModel) problem(format string, args ...any) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.problems = append(m.problems, fmt.Sprintf(format, args...))
}

// generator is fonte's client for the fake model.
func (m *fakeModel) generator(t *testing.T, wireFormat string) fonte.Generator {
	t.Helper()
	var g fonte.Generator
	var err error
	if wireFormat == "ollama" {
		g, err = generate.NewOllama("test", generate.OllamaOptions{BaseURL: m.URL})
	} else {
		g, err = generate.NewOpenAI("test", generate.OpenAIOptions{BaseURL: m.URL})
	}
	if err != nil {
		t.Fatal(err)
	}
	return g
}

var sourceMarkRe = regexp.MustCompile(`(?m)^\[(\d+)\] `)

// leaveSource is the number the prompt gives the source holding
// leaveFact (its "[n] label" line is the last before it); 0 when none.
func leaveSource(prompt string) int {
	at := strings.Index(prompt, leaveFact)
	if at < 0 {
		return 0
	}
	marks := sourceMarkRe.FindAllStringSubmatch(prompt[:at], -1)
	if len(marks) == 0 {
		return 0
	}
	var n int
	fmt.Sscan(marks[len(marks)-1][1], &n)
	return n
}

func flushed(w http.ResponseWriter) {
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// writeOllama streams pieces as Ollama's /api/chat does: one JSON object
// a line, the last with done: true.
func writeOllama(w http.ResponseWriter, pieces []string) {
	w.Header().Set("Content-Type", "application/x-ndjson")
	enc := json.NewEncoder(w)
	for _, p := range pieces {
		_ = enc.Encode(map[string]any{"model": "test", "created_at": "2026-01-01T00:00:00Z",
			"message": map[string]string{"role": "assistant", "content": p}, "done": false})
		flushed(w)
	}
	_ = enc.Encode(map[string]any{"model": "test", "message": map[string]string{"role": "assistant", "content": ""},
		"done": true, "done_reason": "stop", "prompt_eval_count": 400, "eval_count": len(pieces)})
}

// writeOpenAI streams pieces as OpenAI's /v1/chat/completions does:
// chat.completion.chunk events, then [DONE].
func writeOpenAI(w http.ResponseWriter, pieces []string) {
	w.Header().Set("Content-Type", "text/event-stream")
	event := func(delta map[string]any, finish any) {
		raw, _ := json.Marshal(map[string]any{"id": "chatcmpl-fake", "object": "chat.completion.chunk", "model": "test",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}})
		fmt.Fprintf(w, "data: %s\n\n", raw)
		flushed(w)
	}
	event(map[string]any{"role": "assistant"}, nil)
	for _, p := range pieces {
		event(map[string]any{"content": p}, nil)
	}
	event(map[string]any{}, "stop")
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// received is what one streaming route delivered: the answer text as its
// clients assemble it from the pieces (tokens, deltas, progress
// messages), every piece, the whole body, and the final answer.
type received struct {
	text   string
	pieces []string
	body   string
	final  wire.Answer
}

// askSSE reads POST path (/v1/ask or /v1/chat) as Server-Sent Events.
func askSSE(t *testing.T, ts *testServer, path string) received {
	t.Helper()
	req, err := http.NewRequest("POST", ts.url+path, bytes.NewReader(mustJSON(t, map[string]any{"question": leaveQuestion})))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+readToken)
	req.Header.Set("Accept", "text/event-stream")
	var got received
	for _, e := range sseBody(t, req, &got.body) {
		switch e.name {
		case "token":
			var tok struct{ Text string }
			if err := json.Unmarshal([]byte(e.data), &tok); err != nil {
				t.Fatal(err)
			}
			got.pieces = append(got.pieces, tok.Text)
			got.text += tok.Text
		case "done":
			if err := json.Unmarshal([]byte(e.data), &got.final); err != nil {
				t.Fatal(err)
			}
		case "error":
			t.Fatalf("%s: error event %s", path, e.data)
		}
	}
	return got
}

// completionStream reads POST /v1/chat/completions with stream: true as
// an OpenAI client does: the content deltas, and fonte's answer on the
// last chunk.
func completionStream(t *testing.T, ts *testServer) received {
	t.Helper()
	body := map[string]any{"model": "default", "stream": true, "messages": []map[string]string{{"role": "user", "content": leaveQuestion}}}
	req, err := http.NewRequest("POST", ts.url+"/v1/chat/completions", bytes.NewReader(mustJSON(t, body)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+readToken)
	var got received
	for _, e := range sseBody(t, req, &got.body) {
		if e.data == "[DONE]" {
			continue
		}
		var c struct {
			Choices []struct {
				Delta struct{ Content string }
			}
			Fonte *wire.Answer
		}
		if err := json.Unmarshal([]byte(e.data), &c); err != nil {
			t.Fatalf("chunk %s: %v", e.data, err)
		}
		if len(c.Choices) > 0 && c.Choices[0].Delta.Content != "" {
			got.pieces = append(got.pieces, c.Choices[0].Delta.Content)
			got.text += c.Choices[0].Delta.Content
		}
		if c.Fonte != nil {
			got.final = *c.Fonte
		}
	}
	return got
}

// sseBody sends req and parses its event stream, keeping the raw body.
func sseBody(t *testing.T, req *http.Request, raw *string) []event {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	events := readEvents(t, io.TeeReader(resp.Body, &buf))
	*raw = buf.String()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: status %d: %s", req.URL.Path, resp.StatusCode, *raw)
	}
	return events
}

// mcpAsk calls the ask tool through /mcp with a progress token, as a
// client that shows the answer as it streams.
func mcpAsk(t *testing.T, ts *testServer) received {
	t.Helper()
	var mu sync.Mutex
	var got received
	client := sdk.NewClient(&sdk.Implementation{Name: "fonte-stream-test", Version: "0"}, &sdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *sdk.ProgressNotificationClientRequest) {
			mu.Lock()
			defer mu.Unlock()
			got.pieces = append(got.pieces, r.Params.Message)
			got.text += r.Params.Message
		}})
	cs, err := client.Connect(t.Context(), &sdk.StreamableClientTransport{Endpoint: ts.url + "/mcp",
		HTTPClient: &http.Client{Transport: bearer{readToken, http.DefaultTransport}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	params := &sdk.CallToolParams{Name: "ask", Arguments: map[string]any{"question": leaveQuestion}}
	params.SetProgressToken("answer")
	res, err := cs.CallTool(t.Context(), params)
	if err != nil || res.IsError {
		t.Fatalf("ask through /mcp: %v %+v", err, res)
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Answer    string
		Abstained bool
		Citations []struct{ N int }
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	// Notifications are handled apart from the result: the last may come
	// just after it.
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		mu.Lock()
		done := got.text == out.Answer
		mu.Unlock()
		if done {
			break
		}
	}
	mu.Lock()
	defer mu.Unlock()
	got.body = string(raw)
	got.final = wire.Answer{Answer: out.Answer, Abstained: out.Abstained}
	for _, c := range out.Citations {
		got.final.Citations = append(got.final.Citations, wire.Citation{N: c.N})
	}
	return got
}

// TestStreamShowsOnlyCheckedText: on every streaming route, for a model
// speaking either wire format, the text a client assembles from the
// stream is the checked answer: an injected or unsupported answer is never
// shown, not even for a moment, and a faithful one arrives whole with its
// citation.
func TestStreamShowsOnlyCheckedText(t *testing.T) {
	routes := map[string]func(*testing.T, *testServer) received{
		"/v1/ask":              func(t *testing.T, ts *testServer) received { return askSSE(t, ts, "/v1/ask") },
		"/v1/chat":             func(t *testing.T, ts *testServer) received { return askSSE(t, ts, "/v1/chat") },
		"/v1/chat/completions": completionStream,
		"mcp ask":              mcpAsk,
	}
	for _, wireFormat := range []string{"ollama", "openai"} {
		for _, behaviour := range []string{"faithful", "injected", "unsupported"} {
			t.Run(wireFormat+"/"+behaviour, func(t *testing.T) {
				model := newFakeModel(t, wireFormat, behaviour)
				ts := start(t, config{gen: model.generator(t, wireFormat)})
				for route, ask := range routes {
					got := ask(t, ts)
					checkStreamed(t, route, behaviour, got)
				}
			})
		}
	}
}

// checkStreamed asserts what one route streamed for a model of behaviour.
func checkStreamed(t *testing.T, route, behaviour string, got received) {
	t.Helper()
	if got.final.Answer == "" {
		t.Fatalf("%s: no final answer in %s", route, got.body)
	}
	// The text shown is the checked answer, the OpenAI route's followed
	// by its sources note.
	shown := got.text
	if route == "/v1/chat/completions" {
		shown, _, _ = strings.Cut(shown, "\n\nSources:")
	}
	if shown != got.final.Answer {
		t.Errorf("%s: the stream showed %q; the checked answer is %q", route, got.text, got.final.Answer)
	}
	for _, bad := range rejected[behaviour] {
		for i, p := range got.pieces {
			if strings.Contains(p, bad) {
				t.Errorf("%s: piece %d of the stream, %q, holds the rejected %q", route, i, p, bad)
			}
		}
		if strings.Contains(got.text, bad) || strings.Contains(got.final.Answer, bad) {
			t.Errorf("%s: the rejected %q reached the reader: %q", route, bad, got.text)
		}
	}
	if behaviour == "injected" && strings.Contains(got.body, "PWNED") {
		t.Errorf("%s: the injected answer is in the response:\n%s", route, got.body)
	}
	cited := regexp.MustCompile(`\[\d+\]`).MatchString(got.final.Answer)
	switch behaviour {
	case "faithful":
		if !strings.HasPrefix(got.final.Answer, leaveFact+" [") || !cited || len(got.final.Citations) == 0 {
			t.Errorf("%s: the faithful answer did not arrive intact: %q", route, got.final.Answer)
		}
	default:
		// The replacement quotes the handbook, citing it.
		if got.final.Abstained || !cited || !strings.Contains(got.final.Answer, "26 working days") {
			t.Errorf("%s: the checked answer is not the handbook's: %q", route, got.final.Answer)
		}
	}
}

// TestStreamTraceSaysHeld: a traced streamed answer tells that the
// model's answer was held back until checked, for how long, and what the
// checks changed; a request that does not stream holds nothing.
func TestStreamTraceSaysHeld(t *testing.T) {
	model := newFakeModel(t, "ollama", "injected")
	ts := start(t, config{gen: model.generator(t, "ollama")})
	type hold struct {
		Buffered bool
		Reason   string
		HeldMS   *float64 `json:"held_ms"`
		Changed  string
	}
	type traced struct {
		Answer string
		Trace  *struct{ Hold *hold }
	}
	var done traced
	_, events := ts.stream(t, "/v1/ask", map[string]any{"question": leaveQuestion, "trace": true})
	for _, e := range events {
		if e.name == "done" {
			if err := json.Unmarshal([]byte(e.data), &done); err != nil {
				t.Fatal(err)
			}
		}
	}
	if done.Trace == nil {
		t.Fatalf("no trace in the done event: %+v", events)
	}
	h := done.Trace.Hold
	if h == nil || !h.Buffered || !strings.Contains(h.Reason, "injection check") || h.HeldMS == nil || *h.HeldMS < 0 ||
		!strings.HasPrefix(h.Changed, "replaced by the extractive answer: the injection check refused") {
		t.Fatalf("hold %+v in the trace of %q", h, done.Answer)
	}
	status, raw, _ := ts.call(t, "POST", "/v1/ask", readToken, map[string]any{"question": leaveQuestion, "trace": true})
	var plain traced
	if err := json.Unmarshal(raw, &plain); err != nil || status != http.StatusOK || plain.Trace == nil || plain.Trace.Hold != nil {
		t.Errorf("an answer that did not stream: %d %v %s", status, err, raw)
	}
}
