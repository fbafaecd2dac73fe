package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/retrieve"
)

// handbook is the example handbook indexed once for every test: the tools
// only read it. handbookDir is its folder.
var (
	handbook    *engine.Engine
	handbookDir string
)

// serveEnv names the index a re-executed test binary serves over stdio,
// as `fonte mcp` does, for the subprocess transport.
const serveEnv = "FONTE_MCP_TEST_SERVE"

func TestMain(m *testing.M) {
	if dir := os.Getenv(serveEnv); dir != "" {
		os.Exit(serveStdio(dir))
	}
	dir, err := os.MkdirTemp("", "fonte-mcp-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := func() int {
		ctx := context.Background()
		e, err := engine.Open(ctx, engine.Settings{Store: dir}, engine.OpenOptions{})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer e.Close()
		if _, err := e.Index(ctx, "../examples/handbook", nil); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		handbook, handbookDir = e, dir
		return m.Run()
	}()
	os.RemoveAll(dir)
	os.Exit(code)
}

// serveStdio is the subprocess: the index opened read-only and served on
// the process's own stdin and stdout until stdin closes.
func serveStdio(dir string) int {
	ctx := context.Background()
	e, err := engine.Open(ctx, engine.Settings{Store: dir}, engine.OpenOptions{ReadOnly: true})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer e.Close()
	if err := New(e).Run(ctx, &sdk.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// connect returns a client session to the MCP server over one transport.
type connect func(t *testing.T) *sdk.ClientSession

func newClient() *sdk.Client {
	return sdk.NewClient(&sdk.Implementation{Name: "fonte-test", Version: "0"}, nil)
}

// inMemory runs the server as `fonte mcp` does over stdio: one session on
// a newline-delimited JSON stream.
func inMemory(t *testing.T) *sdk.ClientSession {
	st, ct := sdk.NewInMemoryTransports()
	ss, err := New(handbook).Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := newClient().Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

// subprocess runs the server in another process on real stdin and stdout,
// started by the SDK's command transport as an MCP client starts fonte.
func subprocess(t *testing.T) *sdk.ClientSession {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), serveEnv+"="+handbookDir)
	cmd.Stderr = os.Stderr
	cs, err := newClient().Connect(t.Context(), &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := cs.Close(); err != nil {
			t.Errorf("closing the subprocess: %v", err)
		}
	})
	return cs
}

// overHTTP runs the server behind HTTPHandler on a real loopback listener.
func overHTTP(t *testing.T) *sdk.ClientSession {
	ts := httptest.NewServer(HTTPHandler(handbook, []string{"https://allowed.example"}))
	t.Cleanup(ts.Close)
	cs, err := newClient().Connect(t.Context(), &sdk.StreamableClientTransport{Endpoint: ts.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func TestTools(t *testing.T) {
	for _, tr := range []struct {
		name    string
		connect connect
	}{{"in-memory", inMemory}, {"stdio-subprocess", subprocess}, {"streamable-http", overHTTP}} {
		t.Run(tr.name, func(t *testing.T) {
			cs := tr.connect(t)
			t.Run("list", func(t *testing.T) { testList(t, cs) })
			t.Run("search", func(t *testing.T) { testSearch(t, cs) })
			t.Run("search-bad-k", func(t *testing.T) { testSearchBadK(t, cs) })
			t.Run("ask", func(t *testing.T) { testAsk(t, cs) })
			t.Run("ask-abstains", func(t *testing.T) { testAbstain(t, cs) })
			t.Run("ask-abstains-in-language", func(t *testing.T) { testAbstainLanguages(t, cs) })
			t.Run("ask-notice", func(t *testing.T) { testNotice(t, cs) })
			t.Run("ask-history", func(t *testing.T) { testHistory(t, cs) })
			t.Run("get-document", func(t *testing.T) { testDocument(t, cs) })
			t.Run("get-document-unknown", func(t *testing.T) { testUnknownDocument(t, cs) })
		})
	}
}

func testList(t *testing.T, cs *sdk.ClientSession) {
	res, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		a := tool.Annotations
		if a == nil || !a.ReadOnlyHint || a.DestructiveHint != nil && *a.DestructiveHint {
			t.Errorf("%s: annotations %+v, want read-only", tool.Name, a)
		}
		if len(tool.Description) < 200 {
			t.Errorf("%s: description too thin for an agent to choose by: %q", tool.Name, tool.Description)
		}
		schema, _ := json.Marshal(tool.InputSchema)
		if !strings.Contains(string(schema), `"required"`) {
			t.Errorf("%s: input schema without required fields: %s", tool.Name, schema)
		}
		if tool.OutputSchema == nil {
			t.Errorf("%s: no output schema", tool.Name)
		}
	}
	slices.Sort(names)
	if want := []string{"ask", "get_document", "search"}; !slices.Equal(names, want) {
		t.Fatalf("tools %v, want %v", names, want)
	}
	for _, tool := range res.Tools {
		if tool.Name != "search" {
			continue
		}
		// The handbook runs on the built-in embedder, whose default
		// retriever is BM25 alone: the tool must not promise vectors.
		if !strings.Contains(tool.Description, "BM25 keyword retrieval") || strings.Contains(tool.Description, "vector") {
			t.Errorf("search describes another retriever than the collection's BM25: %q", tool.Description)
		}
		schema, _ := json.Marshal(tool.InputSchema)
		for _, want := range []string{`"query"`, `"k"`, `"maximum":50`, `"default":10`, `"prefixes"`, `"tags"`} {
			if !strings.Contains(string(schema), want) {
				t.Errorf("search input schema lacks %s: %s", want, schema)
			}
		}
	}
}

// call invokes a tool and decodes its structured output into out.
func call(t *testing.T, cs *sdk.ClientSession, name string, args any, out any) *sdk.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError || out == nil {
		return res
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		t.Fatalf("%s: structured output %s: %v", name, raw, err)
	}
	return res
}

func text(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func testSearch(t *testing.T, cs *sdk.ClientSession) {
	const q = "How far ahead must I request two weeks of leave?"
	var out SearchOutput
	res := call(t, cs, "search", map[string]any{"query": q, "k": 5}, &out)
	if res.IsError {
		t.Fatalf("error result: %s", text(res))
	}
	hits, err := handbook.Search(t.Context(), q, engine.SearchOptions{K: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Passages) != len(hits) || len(hits) == 0 {
		t.Fatalf("%d passages, engine.Search gives %d", len(out.Passages), len(hits))
	}
	p, h := out.Passages[0], hits[0]
	if p.Chunk != h.Chunk.ID || p.Doc != h.Chunk.DocID || p.Title != h.Chunk.Title || p.Text != h.Chunk.Text ||
		p.Score != h.Score || p.Relevance != h.Relevance || !slices.Equal(p.Headings, h.Chunk.Headings) || p.Rank != 1 ||
		!slices.Equal(p.Legs, h.Legs) || len(p.Legs) == 0 {
		t.Errorf("top passage %+v differs from engine.Search's top hit %+v", p, h)
	}
	if p.Doc != "people/leave.md" || p.Updated == "" {
		t.Errorf("top passage from %s (updated %q), want people/leave.md with a date", p.Doc, p.Updated)
	}
	if !strings.Contains(text(res), p.Chunk) || !strings.Contains(text(res), p.Title) {
		t.Errorf("text content does not show the top passage:\n%s", text(res))
	}

	// A filter reaches the engine: no passage outside the prefix.
	call(t, cs, "search", map[string]any{"query": q, "filters": map[string]any{"prefixes": []string{"security/"}}}, &out)
	for _, p := range out.Passages {
		if !strings.HasPrefix(p.Doc, "security/") {
			t.Errorf("filtered search returned %s", p.Doc)
		}
	}
}

// testSearchBadK: an argument out of its range is a tool error naming
// the argument and its range, as the HTTP API's problems do (the SDK's
// schema check said "maximum: 500/1 is greater than 50.000000").
func testSearchBadK(t *testing.T, cs *sdk.ClientSession) {
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"search", map[string]any{"query": "leave", "k": 500}, "k is 500: it must be a whole number between 1 and 50"},
		{"search", map[string]any{"query": "leave", "k": 0}, "k is 0: it must be a whole number between 1 and 50"},
		{"search", map[string]any{"query": "leave", "k": 2.5}, "k is 2.5: it must be a whole number between 1 and 50"},
		{"search", map[string]any{"query": "leave", "k": "ten"}, `k is "ten": it must be a whole number between 1 and 50`},
		{"get_document", map[string]any{"id": "people/leave.md", "around": "people/leave.md#0", "window": 21}, "window is 21: it must be a whole number between 0 and 20"},
	} {
		res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: c.tool, Arguments: c.args})
		if err != nil || !res.IsError || text(res) != c.want {
			t.Errorf("%s %v: error %v, result %q; want a tool error %q", c.tool, c.args, err, text(res), c.want)
		}
	}
}

func testAsk(t *testing.T, cs *sdk.ClientSession) {
	var out AskOutput
	res := call(t, cs, "ask", map[string]any{"question": "How many vacation days do I get in a year if I work full time?"}, &out)
	if res.IsError || out.Abstained {
		t.Fatalf("no answer: %s", text(res))
	}
	if len(out.Citations) == 0 || !strings.Contains(out.Answer, "[1]") && !strings.Contains(out.Answer, "[") {
		t.Fatalf("answer without citations: %+v", out)
	}
	found := false
	for _, c := range out.Citations {
		if c.Doc == "people/leave.md" && c.Quote != "" && c.Updated != "" && c.Chunk != "" {
			found = true
		}
	}
	if !found {
		t.Errorf("no citation of people/leave.md with quote and date: %+v", out.Citations)
	}
	if !strings.Contains(text(res), "Sources:") {
		t.Errorf("text content without sources:\n%s", text(res))
	}
}

func testAbstain(t *testing.T, cs *sdk.ClientSession) {
	var out AskOutput
	res := call(t, cs, "ask", map[string]any{"question": "What is the canteen menu on Fridays?"}, &out)
	if res.IsError {
		t.Fatalf("abstention returned as an error: %s", text(res))
	}
	if !out.Abstained || out.Relevance >= out.Floor || out.Floor <= 0 {
		t.Fatalf("abstained %v, relevance %.2f, floor %.2f", out.Abstained, out.Relevance, out.Floor)
	}
	if !strings.Contains(text(res), "do not answer") {
		t.Errorf("text content does not say the documents do not answer:\n%s", text(res))
	}
}

func testHistory(t *testing.T, cs *sdk.ClientSession) {
	history := []map[string]any{
		{"role": "user", "content": "How many vacation days do I get in a year if I work full time?"},
		{"role": "assistant", "content": "26 working days of annual leave per year [1]."},
	}
	// A follow-up is searched as its rewrite, which the result carries
	// and the text shows.
	var out AskOutput
	res := call(t, cs, "ask", map[string]any{"question": "Can I carry them over?", "history": history}, &out)
	if res.IsError || out.Question != "Can I carry them over?" || !strings.Contains(out.Query, "vacation days") || !strings.Contains(out.Query, "carry") {
		t.Fatalf("follow-up: error %v, query %q: %s", res.IsError, out.Query, text(res))
	}
	if !strings.Contains(text(res), "Searched: "+out.Query+"\n") {
		t.Errorf("the text does not show the query searched:\n%s", text(res))
	}
	// A question that stands on its own is searched as it is.
	out = AskOutput{}
	const standalone = "Who approves purchases over 10,000 euro?"
	res = call(t, cs, "ask", map[string]any{"question": standalone, "history": history}, &out)
	if res.IsError || out.Query != standalone || strings.Contains(text(res), "Searched:") {
		t.Errorf("a standalone question after a history: query %q:\n%s", out.Query, text(res))
	}
	history[1]["role"] = "system"
	res = call(t, cs, "ask", map[string]any{"question": "And for part-time staff?", "history": history}, nil)
	if !res.IsError || !strings.Contains(text(res), "history[1].role") {
		t.Errorf("a system turn in the history: error %v, %q", res.IsError, text(res))
	}
}

func testDocument(t *testing.T, cs *sdk.ClientSession) {
	var out DocumentOutput
	res := call(t, cs, "get_document", map[string]any{"id": "people/leave.md"}, &out)
	if res.IsError {
		t.Fatalf("error result: %s", text(res))
	}
	r, err := handbook.Document(t.Context(), "people/leave.md")
	if err != nil {
		t.Fatal(err)
	}
	if out.ID != "people/leave.md" || out.Title != r.Doc.Title || out.Language != "en" || out.Updated == "" {
		t.Errorf("document %s %q %s %s", out.ID, out.Title, out.Language, out.Updated)
	}
	if len(out.Chunks) != len(r.Chunks) || len(out.Chunks) < 2 {
		t.Fatalf("%d chunks, want %d", len(out.Chunks), len(r.Chunks))
	}
	for i, c := range out.Chunks {
		if c.Position != i || c.Text != r.Chunks[i].Text || c.Chunk != r.Chunks[i].ID {
			t.Errorf("chunk %d: %+v, want %+v", i, c, r.Chunks[i])
		}
	}
	if !strings.Contains(text(res), "26 working days") {
		t.Errorf("text content lacks the document's text:\n%s", text(res))
	}

	// Around a chunk: it and the default 2 neighbours each side, or fewer
	// at the document's start.
	mid := r.Chunks[len(r.Chunks)/2]
	res = call(t, cs, "get_document", map[string]any{"id": "people/leave.md", "around": mid.ID}, &out)
	lo, hi := max(mid.Position-DefaultWindow, 0), min(mid.Position+DefaultWindow, len(r.Chunks)-1)
	if len(out.Chunks) != hi-lo+1 || out.Chunks[0].Position != lo || out.Total != len(r.Chunks) {
		t.Errorf("around %s: %d chunks from %d of %d", mid.ID, len(out.Chunks), out.Chunks[0].Position, out.Total)
	}
	// The text says which part of the document it is without mixing
	// 0-based positions with a count.
	if want := fmt.Sprintf("chunks at positions %d to %d (counted from 0) of the document's %d\n", lo, hi, len(r.Chunks)); !strings.Contains(text(res), want) {
		t.Errorf("around %s: text lacks %q:\n%s", mid.ID, want, text(res))
	}
	call(t, cs, "get_document", map[string]any{"id": "people/leave.md", "around": r.Chunks[0].ID, "window": 0}, &out)
	if len(out.Chunks) != 1 || out.Chunks[0].Chunk != r.Chunks[0].ID {
		t.Errorf("around %s, window 0: %+v", r.Chunks[0].ID, out.Chunks)
	}
	res = call(t, cs, "get_document", map[string]any{"id": "people/leave.md", "around": "security/backup.md#0"}, nil)
	if !res.IsError || !strings.Contains(text(res), `"security/backup.md#0"`) {
		t.Errorf("around a chunk of another document: error %v, %q", res.IsError, text(res))
	}
}

func testUnknownDocument(t *testing.T, cs *sdk.ClientSession) {
	res := call(t, cs, "get_document", map[string]any{"id": "people/no-such.md"}, nil)
	if !res.IsError || !strings.Contains(text(res), `"people/no-such.md"`) {
		t.Fatalf("unknown id: error %v, %q", res.IsError, text(res))
	}
}

// initialize is a client's first request, enough to see whether the
// handler lets a request through.
const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`

// TestForeignOrigin: a browser page from another origin cannot reach the
// tools (DNS rebinding, cross-site requests); a configured one can.
func TestForeignOrigin(t *testing.T) {
	ts := httptest.NewServer(HTTPHandler(handbook, []string{"https://allowed.example"}))
	defer ts.Close()
	for origin, want := range map[string]int{"https://evil.example": http.StatusForbidden, "null": http.StatusForbidden,
		"https://allowed.example": http.StatusOK, "": http.StatusOK} {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, ts.URL, strings.NewReader(initialize))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Origin %q: status %d, want %d", origin, resp.StatusCode, want)
		}
		if want == http.StatusForbidden && (resp.Header.Get("Content-Type") != "application/problem+json" || !strings.Contains(string(body), origin)) {
			t.Errorf("Origin %q: %s %s, want a problem naming the origin", origin, resp.Header.Get("Content-Type"), body)
		}
	}
}

// TestConcurrentHTTP: several agents at once over HTTP, each its own
// session, all reading the same engine (run with -race).
func TestConcurrentHTTP(t *testing.T) {
	ts := httptest.NewServer(HTTPHandler(handbook, nil))
	defer ts.Close()
	questions := []string{"expense claim deadline", "password length", "backup retention", "leave request notice"}
	errs := make(chan error, 8)
	for i := range 8 {
		go func() {
			errs <- func() error {
				cs, err := newClient().Connect(t.Context(), &sdk.StreamableClientTransport{Endpoint: ts.URL}, nil)
				if err != nil {
					return err
				}
				defer cs.Close()
				for j := range 3 {
					q := questions[(i+j)%len(questions)]
					res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "search", Arguments: map[string]any{"query": q, "k": 3}})
					if err != nil {
						return err
					}
					if res.IsError {
						return fmt.Errorf("%q: %s", q, text(res))
					}
				}
				return nil
			}()
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestAskProgress: a client that passes a progress token receives the
// answer's text as progress notifications before the result.
func TestAskProgress(t *testing.T) {
	ts := httptest.NewServer(HTTPHandler(handbook, nil))
	defer ts.Close()
	for name, transport := range map[string]func() sdk.Transport{
		"in-memory": func() sdk.Transport {
			st, ct := sdk.NewInMemoryTransports()
			ss, err := New(handbook).Connect(t.Context(), st, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ss.Wait() })
			return ct
		},
		"streamable-http": func() sdk.Transport { return &sdk.StreamableClientTransport{Endpoint: ts.URL} },
	} {
		t.Run(name, func(t *testing.T) {
			var mu sync.Mutex
			var streamed strings.Builder
			client := sdk.NewClient(&sdk.Implementation{Name: "fonte-test", Version: "0"}, &sdk.ClientOptions{
				ProgressNotificationHandler: func(_ context.Context, r *sdk.ProgressNotificationClientRequest) {
					mu.Lock()
					defer mu.Unlock()
					if r.Params.ProgressToken == "answer-1" {
						streamed.WriteString(r.Params.Message)
					}
				}})
			cs, err := client.Connect(t.Context(), transport(), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			params := &sdk.CallToolParams{Name: "ask", Arguments: map[string]any{"question": "How many vacation days do I get in a year if I work full time?"}}
			params.SetProgressToken("answer-1")
			res, err := cs.CallTool(t.Context(), params)
			if err != nil || res.IsError {
				t.Fatalf("ask: %v %+v", err, res)
			}
			answer := res.StructuredContent.(map[string]any)["answer"].(string)
			// The client handles notifications apart from responses, so the
			// last one may be handled just after the result arrives.
			got := func() string {
				mu.Lock()
				defer mu.Unlock()
				return streamed.String()
			}
			for deadline := time.Now().Add(5 * time.Second); got() != answer && time.Now().Before(deadline); {
				time.Sleep(5 * time.Millisecond)
			}
			if got() != answer {
				t.Errorf("streamed %q, answer %q", got(), answer)
			}
		})
	}
}

// TestHostBehindProxy: on loopback a foreign Host is refused (DNS
// rebinding) unless the caller checks hosts itself, as fonte serve does
// for the names a reverse proxy uses.
func TestHostBehindProxy(t *testing.T) {
	for checked, want := range map[bool]int{false: http.StatusForbidden, true: http.StatusOK} {
		srv := New(handbook)
		ts := httptest.NewServer(NewHTTPHandler(func(*http.Request) *sdk.Server { return srv }, HTTPOptions{HostChecked: checked}))
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, ts.URL, strings.NewReader(initialize))
		if err != nil {
			t.Fatal(err)
		}
		req.Host = "fonte.example.com"
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		ts.Close()
		if resp.StatusCode != want {
			t.Errorf("host checked %v: status %d, want %d", checked, resp.StatusCode, want)
		}
	}
}

// The search tool names the retriever the default collection runs.
func TestSearchDescribesItsRetriever(t *testing.T) {
	for mode, want := range map[retrieve.Mode]string{
		retrieve.BM25:   "BM25 keyword retrieval",
		retrieve.Hybrid: "BM25 keywords and vector similarity, fused",
		retrieve.Dense:  "vector retrieval by meaning",
		retrieve.TFIDF:  "TF-IDF keyword retrieval",
	} {
		if d := searchTool(0.3, mode).Description; !strings.Contains(d, want) {
			t.Errorf("retriever %s: description lacks %q: %q", mode, want, d)
		}
	}
	if d := searchTool(0.3, "").Description; strings.Contains(d, "BM25") || strings.Contains(d, "vector") {
		t.Errorf("no retriever known: the description names one anyway: %q", d)
	}
}
