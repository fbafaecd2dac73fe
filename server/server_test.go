package server_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/ingest"
	"github.com/fonte-rag/fonte/server"
)

const (
	readToken  = "read-token-for-tests"
	adminToken = "admin-token-for-tests"
)

// testServer is a real http.Server on a loopback port over a fresh index
// of the example handbook.
type testServer struct {
	url    string
	addr   string
	engine *engine.Engine
	srv    *server.Server
	done   chan error
	stop   context.CancelFunc
}

type config struct {
	gen        fonte.Generator
	publicRead bool
	embedder   fonte.Embedder
	tokens     []server.TokenDigest // besides the read and admin tokens
	dataDir    string               // "": a fresh temporary folder
	rate       *server.RateLimit    // nil: no limit
	folder     string               // the default collection's documents folder
	embedders  func(spec, url string) (fonte.Embedder, error)
	evalDir    string // Options.EvalDir
	noErrors   bool   // fail if the server logs an error
	// access are the default collection's folder access rules.
	access  map[string][]string
	audit   server.AuditOptions
	logs    *lockedBuffer // where the server logs, when the test reads them
	logJSON bool          // log JSON lines from DEBUG up, as fonte serve --log-format json --log-level debug
	limits  ingest.Limits // engine.Settings.Limits
	uploads int           // Options.UploadSlots
	store   string        // the engine's store; "": a temporary folder
}

func start(t *testing.T, c config) *testServer {
	t.Helper()
	ctx := context.Background()
	if c.store == "" {
		c.store = t.TempDir()
	}
	settings := engine.Settings{Store: c.store, Generator: c.gen, Embedder: c.embedder, Access: c.access, Limits: c.limits}
	e, err := engine.Open(ctx, settings, engine.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	if _, err := e.Index(ctx, "../examples/handbook", nil); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	logs := c.logs
	if logs == nil {
		logs = &lockedBuffer{}
	}
	t.Cleanup(func() {
		// Tokens never reach the log, whatever happened.
		if out := logs.String(); strings.Contains(out, readToken) || strings.Contains(out, adminToken) {
			t.Errorf("a token was logged: %s", out)
		}
		if out := logs.String(); c.noErrors && strings.Contains(out, "level=ERROR") {
			t.Errorf("the server logged an error: %s", out)
		}
	})
	if c.dataDir == "" {
		c.dataDir = t.TempDir()
	}
	rate := c.rate
	if rate == nil {
		rate = &server.RateLimit{}
	}
	settings.Store = ""
	log := slog.New(slog.NewTextHandler(logs, nil))
	if c.logJSON {
		log = slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	srv, err := server.New(e, server.Options{Addr: ln.Addr().String(), AdminToken: adminToken, PublicRead: c.publicRead,
		Logger: log, DataDir: c.dataDir, Template: settings, RateLimit: rate,
		Default: server.CollectionConfig{Folder: c.folder}, Embedders: c.embedders, EvalDir: c.evalDir, Audit: c.audit, UploadSlots: c.uploads,
		Tokens: append([]server.TokenDigest{{SHA256: server.Digest(readToken), Scope: server.ScopeRead}}, c.tokens...)})
	if err != nil {
		t.Fatal(err)
	}
	sctx, stop := context.WithCancel(ctx)
	ts := &testServer{url: "http://" + ln.Addr().String(), addr: ln.Addr().String(), engine: e, srv: srv, done: make(chan error, 1), stop: stop}
	go func() { ts.done <- server.Serve(sctx, ln, srv, log) }()
	t.Cleanup(func() {
		stop()
		if err := <-ts.done; err != nil {
			t.Errorf("Serve: %v", err)
		}
		if err := srv.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return ts
}

// call sends a request and returns the status and body.
func (ts *testServer) call(t *testing.T, method, path, token string, body any, header ...string) (int, []byte, http.Header) {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, ts.url+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		if header[i] == "Host" {
			req.Host = header[i+1]
		} else {
			req.Header.Set(header[i], header[i+1])
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, out, resp.Header
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func compact(t *testing.T, raw []byte) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatalf("%v in %s", err, raw)
	}
	return b.String()
}

func problemOf(t *testing.T, raw []byte) server.Problem {
	t.Helper()
	var p server.Problem
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatalf("not a problem: %s", raw)
	}
	return p
}

// streamGen is a fonte.Generator that streams pieces, failing after
// failAfter of them when failAfter > 0.
type streamGen struct {
	pieces    []string
	failAfter int
}

func (g streamGen) Generate(ctx context.Context, _ []fonte.Message, onDelta func(string)) (string, error) {
	var b strings.Builder
	for i, p := range g.pieces {
		if g.failAfter > 0 && i == g.failAfter {
			return "", errors.New("model server at 10.0.0.9 went away")
		}
		if onDelta != nil {
			onDelta(p)
		}
		b.WriteString(p)
	}
	return b.String(), nil
}

func (streamGen) Model() string { return "fake/stream" }

var leavePieces = []string{"Full-time employees accrue ", "26 working days ", "of annual leave per calendar year [1]."}

// event is one Server-Sent Event.
type event struct {
	name string
	data string
}

// readEvents parses an SSE body event by event.
func readEvents(t *testing.T, body io.Reader) []event {
	t.Helper()
	var out []event
	var cur event
	sc := bufio.NewScanner(body)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.name != "" || cur.data != "" {
				out = append(out, cur)
			}
			cur = event{}
		case strings.HasPrefix(line, ":"):
		case strings.HasPrefix(line, "event: "):
			cur.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			cur.data += strings.TrimPrefix(line, "data: ")
		default:
			t.Fatalf("unexpected SSE line %q", line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func (ts *testServer) stream(t *testing.T, path string, body any) (*http.Response, []event) {
	t.Helper()
	req, err := http.NewRequest("POST", ts.url+path, bytes.NewReader(mustJSON(t, body)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+readToken)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	return resp, readEvents(t, resp.Body)
}

// lockedBuffer collects log output from the server's goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
