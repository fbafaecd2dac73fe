package postgres

import (
	"context"
	"log/slog"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// sharedSessionQuery asks a connection which backend serves it, and what
// the server is.
const sharedSessionQuery = "SELECT pg_backend_pid(), version()"

// chooseProtocol switches the pool to pgx's simple protocol when the
// server runs every connection in one session, as PGlite does (one
// WebAssembly backend behind its socket server) and as a pooler in
// transaction mode may. On such a server the prepared statements pgx
// names after each query's text (stmtcache_…) outlive the connection that
// made them, and the next process's first query fails with "prepared
// statement already exists"; the simple protocol prepares nothing.
//
// It looks with connections of its own, in the simple protocol, before
// the pool makes any: the server is shared when two connections open at
// once are served by the same backend (pg_backend_pid), or, when a second
// connection cannot be made, when its version names PGlite. A URL that sets default_query_exec_mode is taken as
// it is, without looking. A server that cannot be reached fails here, as
// the pool's first query would.
func (c *config) chooseProtocol(ctx context.Context, pcfg *pgxpool.Config) error {
	if c.execModeSet {
		return nil
	}
	cc := pcfg.ConnConfig.Copy()
	cc.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	first, err := pgx.ConnectConfig(ctx, cc)
	if err != nil {
		return c.wrap(ctx, "connecting", err)
	}
	defer first.Close(context.WithoutCancel(ctx))
	var pid int32
	var version string
	if err := first.QueryRow(ctx, sharedSessionQuery).Scan(&pid, &version); err != nil {
		return c.wrap(ctx, "connecting", err)
	}
	why := ""
	if samePid(ctx, cc, pid) {
		why = "two connections to the server are served by one backend (one shared session)"
	} else if strings.Contains(version, "PGlite") {
		// pglite-server refuses connections beyond its -m (default 1):
		// the second one above may not have been made.
		why = "the server is PGlite, whose connections share one session"
	}
	if why == "" {
		return nil
	}
	pcfg.ConnConfig.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	slog.Info("postgres: "+why+", so fonte uses the simple protocol (no prepared statements); "+
		"add default_query_exec_mode=simple_protocol to the store URL to say so and skip this check",
		"server", c.server, "collection", c.collection)
	return nil
}

// samePid reports whether a second connection, opened while the first is,
// is served by the backend pid. A second connection that cannot be made
// (a server at its connection limit) tells nothing: false.
func samePid(ctx context.Context, cc *pgx.ConnConfig, pid int32) bool {
	second, err := pgx.ConnectConfig(ctx, cc)
	if err != nil {
		return false
	}
	defer second.Close(context.WithoutCancel(ctx))
	var other int32
	var version string
	return second.QueryRow(ctx, sharedSessionQuery).Scan(&other, &version) == nil && other == pid
}
