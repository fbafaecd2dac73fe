package server_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/internal/testserver"
	"github.com/fonte-rag/fonte/server"
	"github.com/jackc/pgx/v5"
)

// withCollection is a PostgreSQL URL naming a collection.
func withCollection(t *testing.T, raw, collection string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("collection", collection)
	u.RawQuery = q.Encode()
	return u.String()
}

// TestServeFromHotStandby runs `fonte serve` on a hot standby of a native
// PostgreSQL while the primary takes the writes: search and ask answer;
// /v1/status shows the replica and, with replay paused while the primary
// commits, the previous generation and how far behind it is; an upload
// is refused with a 409 read-only-store problem naming the collection;
// and while the standby is killed every request gets a 503
// store-unavailable problem with Retry-After and no driver message,
// until it is back, when the same server answers again by itself.
func TestServeFromHotStandby(t *testing.T) {
	primary, err := testserver.StartNativePostgres("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(primary.Stop)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	writer, err := engine.Open(ctx, engine.Settings{Store: withCollection(t, primary.URL, "default")}, engine.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { writer.Close() })
	if _, err := writer.Index(ctx, "../examples/handbook", nil); err != nil {
		t.Fatal(err)
	}
	standby, err := primary.StartStandby("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(standby.Stop)
	var reader *engine.Engine
	deadline := time.Now().Add(30 * time.Second)
	for reader == nil {
		reader, err = engine.Open(ctx, engine.Settings{Store: withCollection(t, standby.URL, "default")}, engine.OpenOptions{})
		if err != nil && time.Now().After(deadline) {
			t.Fatalf("opening the collection on the standby: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Cleanup(func() { reader.Close() })

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	logs := &lockedBuffer{}
	srv, err := server.New(reader, server.Options{Addr: ln.Addr().String(), AdminToken: adminToken,
		Logger: slog.New(slog.NewTextHandler(logs, nil)), DataDir: t.TempDir(), RateLimit: &server.RateLimit{},
		Tokens: []server.TokenDigest{{SHA256: server.Digest(readToken), Scope: server.ScopeRead}}})
	if err != nil {
		t.Fatal(err)
	}
	ts := serveOn(t, ln, srv, logs)

	const question = "How many days of annual leave do full-time employees accrue?"
	answers := func() {
		t.Helper()
		if code, raw, _ := ts.call(t, "POST", "/v1/search", readToken, map[string]any{"query": "annual leave"}); code != 200 || !strings.Contains(string(raw), "leave") {
			t.Fatalf("search on the standby: %d %s", code, clip(string(raw), 300))
		}
		if code, raw, _ := ts.call(t, "POST", "/v1/ask", readToken, map[string]any{"question": question}); code != 200 || !strings.Contains(string(raw), `"citations"`) {
			t.Fatalf("ask on the standby: %d %s", code, clip(string(raw), 300))
		}
	}
	answers()
	statusOf := func() server.StatusResponse {
		t.Helper()
		code, raw, _ := ts.call(t, "GET", "/v1/status", adminToken, nil)
		if code != 200 {
			t.Fatalf("status: %d %s", code, raw)
		}
		var st server.StatusResponse
		if err := json.Unmarshal(raw, &st); err != nil {
			t.Fatal(err)
		}
		return st
	}
	st := statusOf()
	if st.Replica == nil || st.Replica.LagBytes != 0 {
		t.Fatalf("a caught-up standby's status: replica %+v", st.Replica)
	}
	gen := st.Generation

	// An upload reaches the standby's store, which refuses it.
	code, raw := ts.upload(t, "/v1/documents", adminToken, map[string]string{"new.md": "# New\n\nA new policy."})
	if p := problemOf(t, raw); code != 409 || !strings.HasSuffix(p.Type, "#read-only-store") || !strings.Contains(p.Detail, `collection "default"`) {
		t.Errorf("an upload to the standby: %d %+v; want 409 read-only-store naming the collection", code, p)
	}

	// Replay paused: the primary's next commit is not served, and the
	// status says so.
	sb, err := pgx.Connect(ctx, standby.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close(ctx)
	if _, err := sb.Exec(ctx, "SELECT pg_wal_replay_pause()"); err != nil {
		t.Fatal(err)
	}
	if _, err := writer.Delete(ctx, []string{"people/*"}); err != nil {
		t.Fatal(err)
	}
	deadline = time.Now().Add(30 * time.Second)
	for st = statusOf(); st.Replica == nil || st.Replica.LagBytes == 0; st = statusOf() {
		if time.Now().After(deadline) {
			t.Fatalf("the paused standby's status never showed a lag: %+v", st.Replica)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if st.Generation != gen || !st.Replica.Paused {
		t.Errorf("paused standby: generation %d (before the commit %d), replica %+v", st.Generation, gen, *st.Replica)
	}
	answers() // the deleted documents are still served: the previous generation
	if _, err := sb.Exec(ctx, "SELECT pg_wal_replay_resume()"); err != nil {
		t.Fatal(err)
	}

	// The standby dies: a 503 naming the collection, no driver text.
	if err := standby.Kill(); err != nil {
		t.Fatal(err)
	}
	for path, body := range map[string]any{"/v1/search": map[string]any{"query": "annual leave"}, "/v1/ask": map[string]any{"question": question}} {
		code, raw, header := ts.call(t, "POST", path, readToken, body)
		p := problemOf(t, raw)
		if code != 503 || !strings.HasSuffix(p.Type, "#store-unavailable") || !strings.Contains(p.Detail, `collection "default"`) {
			t.Errorf("%s while the store is down: %d %+v; want 503 store-unavailable", path, code, p)
		}
		if secs, err := strconv.Atoi(header.Get("Retry-After")); err != nil || secs < 1 {
			t.Errorf("%s while the store is down: Retry-After %q", path, header.Get("Retry-After"))
		}
		for _, leak := range []string{"dial", "SQLSTATE", strconv.Itoa(standby.Port), "pgx"} {
			if strings.Contains(string(raw), leak) {
				t.Errorf("%s while the store is down: the problem shows %q: %s", path, leak, raw)
			}
		}
	}
	if err := standby.Restart(); err != nil {
		t.Fatal(err)
	}
	answers()
	if st := statusOf(); st.Replica == nil {
		t.Errorf("after the restart the status has no replica")
	}
}
