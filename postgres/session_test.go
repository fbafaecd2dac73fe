package postgres

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/internal/testserver"
)

// captureLog sends slog's default logger to a buffer until the test ends.
// Open logs from the test's goroutine, so the buffer needs no lock.
func captureLog(t *testing.T) *bytes.Buffer {
	t.Helper()
	buf := &bytes.Buffer{}
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(buf, nil)))
	t.Cleanup(func() { slog.SetDefault(old) })
	return buf
}

// simpleURL asks pgx for the simple protocol, for the test's own
// connections to PGlite.
func simpleURL(t *testing.T, base string) string {
	return withParams(t, base, "default_query_exec_mode", "simple_protocol")
}

// TestPGliteSharedSession opens a collection on PGlite started as its
// README says (pglite-server -m 8), with a URL that does not ask for the
// simple protocol, the way three fonte commands in a row would: one
// indexes, two search. Before the store looked for a shared session the
// second open failed with `prepared statement "stmtcache_…" already
// exists`, the first one's statements outliving its connections in
// PGlite's one session. It also takes the fallback: with the server's
// connections all taken but one, the second connection is refused and the
// version (PGlite) decides.
func TestPGliteSharedSession(t *testing.T) {
	base, stop, err := testserver.StartPGlite()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	ctx := context.Background()
	u := withParams(t, base, "collection", "shared_session")

	t.Run("VersionWhenNoSecondConnection", func(t *testing.T) {
		logs := captureLog(t)
		var held []*pgx.Conn
		defer func() {
			for _, c := range held {
				c.Close(ctx)
			}
		}()
		for range 7 {
			c, err := pgx.Connect(ctx, simpleURL(t, base))
			if err != nil {
				t.Fatalf("holding PGlite's connections: %v", err)
			}
			held = append(held, c)
		}
		cfg, err := parseURL(u)
		if err != nil {
			t.Fatal(err)
		}
		pcfg, err := pgxpool.ParseConfig(cfg.connString)
		if err != nil {
			t.Fatal(err)
		}
		if err := cfg.chooseProtocol(ctx, pcfg); err != nil {
			t.Fatal(err)
		}
		if got := pcfg.ConnConfig.DefaultQueryExecMode; got != pgx.QueryExecModeSimpleProtocol {
			t.Fatalf("exec mode %v, want the simple protocol", got)
		}
		if !strings.Contains(logs.String(), "the server is PGlite") {
			t.Fatalf("the log does not name PGlite: %q", logs.String())
		}
	})

	t.Run("CommandsInTurn", func(t *testing.T) {
		logs := captureLog(t)
		w, err := Open(ctx, u, fonte.StoreOptions{Settings: testSettings})
		if err != nil {
			t.Fatalf("Open to index: %v", err)
		}
		put(t, w, record("a.md", 4, "apples in a shared session"))
		if got := w.pool.Config().ConnConfig.DefaultQueryExecMode; got != pgx.QueryExecModeSimpleProtocol {
			t.Errorf("exec mode %v, want the simple protocol", got)
		}
		w.Close()
		for i := range 2 {
			r, err := Open(ctx, u, fonte.StoreOptions{ReadOnly: true})
			if err != nil {
				t.Fatalf("Open to search, time %d: %v", i+1, err)
			}
			hits, err := r.LexicalTopK(ctx, fonte.LexicalQuery{Terms: []string{"apples"}, K: 3})
			r.Close()
			if err != nil || len(hits) != 1 || hits[0].Chunk.DocID != "a.md" {
				t.Fatalf("LexicalTopK, time %d = %+v, %v", i+1, hits, err)
			}
		}
		log := logs.String()
		if !strings.Contains(log, "served by one backend") || !strings.Contains(log, "default_query_exec_mode=simple_protocol") {
			t.Fatalf("the log does not say why and what to set: %q", log)
		}
	})
}

// TestOwnSessionKeepsExtendedProtocol checks that a server with a backend
// per connection (the test server, unless FONTE_TEST_POSTGRES_URL names a
// PGlite) keeps pgx's default protocol and logs nothing, and that a URL
// naming its protocol is taken as it is.
func TestOwnSessionKeepsExtendedProtocol(t *testing.T) {
	logs := captureLog(t)
	s := open(t, newCollection(t), fonte.StoreOptions{Settings: testSettings})
	if got := s.pool.Config().ConnConfig.DefaultQueryExecMode; got != pgx.QueryExecModeCacheStatement {
		t.Errorf("exec mode %v, want pgx's default (cache_statement)", got)
	}
	e := open(t, newCollection(t, "default_query_exec_mode", "exec"), fonte.StoreOptions{Settings: testSettings})
	if got := e.pool.Config().ConnConfig.DefaultQueryExecMode; got != pgx.QueryExecModeExec {
		t.Errorf("exec mode %v, want exec as the URL says", got)
	}
	if logs.String() != "" {
		t.Fatalf("logged %q", logs.String())
	}
}
