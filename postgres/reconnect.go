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
func readAgain[T any](ctx context.Context, s *Store, read func() (T, error)) (T, error) {
	v, err := read()
	if s.dropConnections(err) && ctx.Err() == nil {
		return read()
	}
	return v, err
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
