package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5/pgconn"
)

// readAgain runs a read once more when it failed because the connection
// it ran on had died while the pool held it: the server restarted,
// failed over or ended the session since the connection was last used.
// pgxpool checks a connection that sat idle for more than a second
// before handing it out, but not one idle for less, and a read on such a
// connection fails even though the server is back. A read changes
// nothing, so running it again is safe, on a new connection (see
// dropConnections). A server that cannot be reached at all fails the
// first try only, so a down server is reported as soon as before.
//
// On a hot standby, replay cancels a query that holds back a change it
// must apply (a rebuild's dropped tables, rows vacuumed away) once
// max_standby_streaming_delay has passed: such a read is run again on the
// replayed data, up to conflictTries times in all.
func readAgain[T any](ctx context.Context, s *Store, read func() (T, error)) (T, error) {
	v, err := read()
	if s.dropConnections(err) && ctx.Err() == nil {
		v, err = read()
	}
	for try := 1; try < conflictTries && recoveryConflict(err) && ctx.Err() == nil; try++ {
		v, err = read()
	}
	return v, err
}

// conflictTries bounds the runs of a read that a standby's replay keeps
// cancelling.
const conflictTries = 4

// recoveryConflict reports whether a hot standby cancelled the query, or
// ended its session, for a conflict with recovery: SQLSTATE 40001
// (serialization_failure, which a read-only transaction gets on a
// primary only under SERIALIZABLE, which fonte never asks for) or 40P01
// (a buffer pin deadlock with the startup process).
func recoveryConflict(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == "40001" || pgErr.Code == "40P01")
}

// dropConnections closes every connection of the pool when err says one
// was lost: what killed one (a restart, a failover, a pooler between)
// killed the others, which would otherwise fail one request each. Those
// in use close when they are given back. It reports whether it did.
func (s *Store) dropConnections(err error) bool {
	if err == nil || !lostConnection(err) {
		return false
	}
	s.pool.Reset()
	return true
}

// lostConnection reports whether err is the loss of a connection that
// had been open, as opposed to one that could not be opened.
func lostConnection(err error) bool {
	var connectErr *pgconn.ConnectError
	return unavailable(err) && !errors.As(err, &connectErr)
}
