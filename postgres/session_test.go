package postgres

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
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

// TestPGliteSharedSession opens a collection on PGlite started as its
// README says (pglite-server -m 8), with a URL that does not ask for the
// simple protocol, the way three fonte commands in a row would: one
// indexes, two search. Before the store looked for a shared session the
// second open failed with `prepared statement "stmtcache_…" already
// exists`, the first one's statements outliving its connections in
// PGlite's one session. It then takes the fallback, through a proxy that
// refuses every connection after the first, as pglite-server does beyond
// its -m: the version (PGlite) decides.
func TestPGliteSharedSession(t *testing.T) {
	base, stop, err := testserver.StartPGlite()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	ctx := context.Background()

	t.Run("CommandsInTurn", func(t *testing.T) {
		u := withParams(t, base, "collection", "shared_session")
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

	t.Run("VersionWhenNoSecondConnection", func(t *testing.T) {
		pu, err := url.Parse(base)
		if err != nil {
			t.Fatal(err)
		}
		pu.Host = firstConnectionOnly(t, pu.Host)
		cfg, err := parseURL(withParams(t, pu.String(), "collection", "shared_session"))
		if err != nil {
			t.Fatal(err)
		}
		pcfg, err := pgxpool.ParseConfig(cfg.connString)
		if err != nil {
			t.Fatal(err)
		}
		logs := captureLog(t)
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
}

// firstConnectionOnly listens on a loopback port of its own, forwards the
// first connection it accepts to addr and closes every later one at once,
// as a server at its connection limit does; it returns its address.
func firstConnectionOnly(t *testing.T, addr string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for n := 0; ; n++ {
			c, err := l.Accept()
			if err != nil {
				return
			}
			if n > 0 {
				c.Close()
				continue
			}
			go func() {
				defer c.Close()
				up, err := net.Dial("tcp", addr)
				if err != nil {
					return
				}
				defer up.Close()
				go io.Copy(up, c)
				io.Copy(c, up)
			}()
		}
	}()
	return l.Addr().String()
}

// TestOwnSessionKeepsExtendedProtocol checks, on a native server of its
// own (a backend per connection, whatever server the package's other
// tests use), that the store keeps pgx's default protocol and logs
// nothing, and that a URL naming its protocol is taken as it is.
func TestOwnSessionKeepsExtendedProtocol(t *testing.T) {
	srv, err := testserver.StartNativePostgres("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	logs := captureLog(t)
	s := open(t, withParams(t, srv.URL, "collection", "own_session"), fonte.StoreOptions{Settings: testSettings})
	if got := s.pool.Config().ConnConfig.DefaultQueryExecMode; got != pgx.QueryExecModeCacheStatement {
		t.Errorf("exec mode %v, want pgx's default (cache_statement)", got)
	}
	e := open(t, withParams(t, srv.URL, "collection", "own_session_exec", "default_query_exec_mode", "exec"), fonte.StoreOptions{Settings: testSettings})
	if got := e.pool.Config().ConnConfig.DefaultQueryExecMode; got != pgx.QueryExecModeExec {
		t.Errorf("exec mode %v, want exec as the URL says", got)
	}
	if logs.String() != "" {
		t.Fatalf("logged %q", logs.String())
	}
}

// TestSearchesPlanForTheirParameters searches a collection, writes to it
// (a commit that analyzes its tables makes the server plan its prepared
// statements again) and searches again, many times, on a pool of one
// connection, and then looks at the statements that connection has
// prepared: the pg_textsearch leg's is not among them (it is sent
// unnamed, so planned afresh each time), while the other statements the
// searches run are. Prepared under a name, it ran with a generic plan
// here, and once planned again it sorts by pg_textsearch's operator row
// by row (BenchmarkBM25LegPlans: 3.1 ms a query instead of 0.8 on 300
// chunks).
func TestSearchesPlanForTheirParameters(t *testing.T) {
	ctx := context.Background()
	u := withParams(t, newCollection(t), "pool_max_conns", "1")
	s := open(t, u, fonte.StoreOptions{Settings: testSettings})
	search := func() {
		t.Helper()
		for i := range 12 {
			q := fonte.LexicalQuery{Terms: []string{"common", fmt.Sprintf("doc%d", i%versionDocs)}, K: 2 + i%3}
			if _, err := s.LexicalTopK(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
	}
	for v := 1; v <= 3; v++ {
		if err := commitVersion(ctx, s, v); err != nil {
			t.Fatal(err)
		}
		search()
	}
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	var named int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE '%term_df%'", pgx.QueryExecModeSimpleProtocol).Scan(&named); err != nil {
		t.Fatal(err)
	}
	if named == 0 {
		t.Fatal("no statement on term_df is prepared under a name: the pool does not prepare statements, and the test shows nothing")
	}
	rows, err := conn.Query(ctx, "SELECT statement, generic_plans FROM pg_prepared_statements WHERE statement LIKE '%to_bm25query%'", pgx.QueryExecModeSimpleProtocol)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var statement string
		var generic int64
		if err := rows.Scan(&statement, &generic); err != nil {
			t.Fatal(err)
		}
		t.Errorf("the pg_textsearch leg's statement is prepared under a name (run %d times with a generic plan): %.200s", generic, statement)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
}
