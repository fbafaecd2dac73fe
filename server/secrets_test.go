package server_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/embed"
	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/internal/testserver"
	"github.com/fonte-rag/fonte/server"
)

// storeSecret is the password every store and model URL of these tests
// carries; no response and no log line may hold it.
const storeSecret = "Pw-9f3e-never-shown"

// routeCall is an entry of routeCalls.
type routeCall = struct {
	method, path, body string
	scope              string
	header             []string
	global             bool
}

// secretStoreURL is the PostgreSQL server's URL for collection, with the
// secret in the user info and in every password-like parameter.
func secretStoreURL(t *testing.T, base, collection string) string {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.UserPassword(u.User.Username(), storeSecret)
	q := u.Query()
	q.Set("collection", collection)
	q.Set("password", storeSecret)
	q.Set("sslpassword", storeSecret)
	q.Set("sslkey", "/nowhere/"+storeSecret+".key")
	u.RawQuery = q.Encode()
	return u.String()
}

// TestNoSecretInAnyResponseOrLog walks every route with a read and an
// admin token over collections whose stores are PostgreSQL URLs carrying
// a password (user info, ?password=, sslpassword=, sslkey=), and routes
// to collections whose store or embedder cannot be reached (their errors
// quote the URL): neither the bodies, the headers nor the server's log
// hold the password. The admin still sees where each store is.
func TestNoSecretInAnyResponseOrLog(t *testing.T) {
	base, stop, err := testserver.StartPostgres()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	ctx := context.Background()
	settings := engine.Settings{Store: secretStoreURL(t, base, "walk_default")}
	e, err := engine.Open(ctx, settings, engine.OpenOptions{Rebuild: true})
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
	logs := &lockedBuffer{}
	template := settings
	template.Store = ""
	srv, err := server.New(e, server.Options{Addr: ln.Addr().String(), AdminToken: adminToken,
		Logger: slog.New(slog.NewTextHandler(logs, nil)), DataDir: t.TempDir(), Template: template, RateLimit: &server.RateLimit{},
		Default: server.CollectionConfig{Folder: "../examples/handbook"},
		Tokens:  []server.TokenDigest{{SHA256: server.Digest(readToken), Scope: server.ScopeRead}},
		Collections: map[string]server.CollectionConfig{
			"second": {Store: secretStoreURL(t, base, "walk_second"), Folder: "../examples/handbook"},
		},
		// A collection made through the API with an embedder gets this
		// one, whose server URL carries the secret and does not answer.
		Embedders: func(spec, _ string) (fonte.Embedder, error) {
			return embed.NewOllama("nomic", embed.OllamaOptions{BaseURL: "http://fonte:" + storeSecret + "@127.0.0.1:1",
				HTTP: embed.HTTPOptions{MaxAttempts: 1}})
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	ts := serveOn(t, ln, srv, logs)

	var seen strings.Builder
	record := func(what string, status int, raw []byte, hdr http.Header) {
		seen.WriteString(what + "\n" + string(raw) + "\n")
		for k, v := range hdr {
			seen.WriteString(k + ": " + strings.Join(v, ", ") + "\n")
		}
		if strings.Contains(string(raw), storeSecret) {
			t.Errorf("%s: %d, the body holds the secret: %s", what, status, raw)
		}
	}
	calls := append([]routeCall(nil), routeCalls...)
	for _, c := range routeCalls {
		if strings.HasPrefix(c.path, "/v1/collections/default/") {
			c.path = strings.Replace(c.path, "/default/", "/second/", 1)
			calls = append(calls, c)
		}
	}
	for _, tool := range []string{
		`{"name": "search", "arguments": {"query": "vacation days"}}`,
		`{"name": "ask", "arguments": {"question": "How many vacation days?", "collection": "second"}}`,
		`{"name": "get_document", "arguments": {"id": "people/leave.md"}}`,
	} {
		calls = append(calls, routeCall{"POST", "/mcp", `{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": ` + tool + `}`,
			"read", []string{"Accept", "application/json, text/event-stream"}, true})
	}
	calls = append(calls,
		routeCall{"POST", "/v1/ask", `{"question": "How many vacation days?"}`, "read", []string{"Accept", "text/event-stream"}, false},
		routeCall{"POST", "/v1/index", ``, "admin", []string{"Accept", "text/event-stream"}, false},
		// Fails: its embedder's server does not answer, and says so.
		routeCall{"POST", "/v1/collections", `{"name": "unreachable", "embedder": "ollama:nomic"}`, "admin", nil, true},
		routeCall{"GET", "/v1/collections/nosuch/status", ``, "read", nil, false},
	)
	for _, token := range []string{readToken, adminToken} {
		for _, c := range calls {
			var body any
			if c.body != "" {
				body = c.body
			}
			status, raw, hdr := ts.call(t, c.method, c.path, token, body, c.header...)
			record(c.method+" "+c.path, status, raw, hdr)
		}
	}
	// A second server whose collection's store does not answer: the
	// error it logs quotes the store URL.
	ln2, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	broken, err := server.New(e, server.Options{Addr: ln2.Addr().String(), AdminToken: adminToken,
		Logger: slog.New(slog.NewTextHandler(logs, nil)), Template: template, RateLimit: &server.RateLimit{},
		Collections: map[string]server.CollectionConfig{
			"broken": {Store: "redis://:" + storeSecret + "@127.0.0.1:1?password=" + storeSecret + "&collection=x"},
		}})
	if err != nil {
		t.Fatal(err)
	}
	ts2 := serveOn(t, ln2, broken, logs)
	for _, path := range []string{"/v1/collections/broken/status", "/v1/collections"} {
		status, raw, hdr := ts2.call(t, "GET", path, adminToken, nil)
		record("broken: GET "+path, status, raw, hdr)
		if status != http.StatusInternalServerError {
			t.Errorf("GET %s of a store that does not answer: %d %s", path, status, raw)
		}
	}
	if text := mcpCall(t, ts2, adminToken, "search", map[string]any{"query": "x", "collection": "broken"}); strings.Contains(text, storeSecret) ||
		!strings.Contains(text, "cannot be opened") {
		t.Errorf("MCP search of a store that does not answer: %s", text)
	}
	if !strings.Contains(logs.String(), "redis://:xxxxx@127.0.0.1:1") {
		t.Errorf("the unreachable store's error was not logged (masked); the log:\n%s", logs.String())
	}

	if out := logs.String(); strings.Contains(out, storeSecret) {
		t.Errorf("the log holds the secret:\n%s", out)
	}
	if !strings.Contains(logs.String(), "127.0.0.1:1") {
		t.Errorf("the unreachable embedder was never tried; the log:\n%s", logs.String())
	}

	// The admin sees where the store is, without the secret; a reader not
	// at all.
	for token, wantDir := range map[string]bool{adminToken: true, readToken: false} {
		_, raw, _ := ts.call(t, "GET", "/v1/collections/second/status", token, nil)
		var st map[string]any
		if err := json.Unmarshal(raw, &st); err != nil {
			t.Fatalf("status: %v: %s", err, raw)
		}
		dir, _ := st["dir"].(string)
		if wantDir != (strings.Contains(dir, "collection=walk_second") && strings.Contains(dir, "xxxxx")) {
			t.Errorf("status for %s: dir %q", token, dir)
		}
	}
	if !strings.Contains(seen.String(), `"store":"postgres://postgres:xxxxx@`) {
		t.Errorf("the admin's collection list does not show the masked store:\n%s", clip(seen.String(), 3000))
	}
}

// serveOn serves srv on ln until the test ends.
func serveOn(t *testing.T, ln net.Listener, srv *server.Server, logs *lockedBuffer) *testServer {
	t.Helper()
	sctx, stop := context.WithCancel(context.Background())
	ts := &testServer{url: "http://" + ln.Addr().String(), addr: ln.Addr().String(), srv: srv, done: make(chan error, 1), stop: stop}
	go func() { ts.done <- server.Serve(sctx, ln, srv, slog.New(slog.NewTextHandler(logs, nil))) }()
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

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
