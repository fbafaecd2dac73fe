package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/fonte-rag/fonte"
	"github.com/jackc/pgx/v5/pgconn"
)

// errClosed is returned by every method of a closed Store.
var errClosed = errors.New("postgres: store closed")

// storeError is an error whose message names the store and never holds
// its password, and that unwraps to the causes it carries (fonte's
// sentinel errors and the driver's error).
type storeError struct {
	msg    string
	causes []error
}

func (e *storeError) Error() string   { return e.msg }
func (e *storeError) Unwrap() []error { return e.causes }

// errorf builds a storeError for collection c: the message is redacted,
// and causes (which may include fonte sentinels) stay reachable through
// errors.Is and errors.As.
func (c *config) errorf(causes []error, format string, args ...any) error {
	return &storeError{msg: c.redact(fmt.Sprintf(format, args...)), causes: causes}
}

// wrap turns a driver error from op into fonte's vocabulary: a server that
// cannot be reached wraps fonte.ErrUnavailable and names host:port; a
// cancelled context stays a context error; anything else is named with
// the operation and the collection.
func (c *config) wrap(ctx context.Context, op string, err error) error {
	if err == nil {
		return nil
	}
	var se *storeError
	if errors.As(err, &se) {
		return err
	}
	if ctx != nil && ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		return c.errorf([]error{err}, "postgres %s, collection %s: %s: %v", c.server, c.collection, op, err)
	}
	if readOnly(err) {
		return c.readOnlyError(op, "it refuses writes (a hot standby, or default_transaction_read_only)", err)
	}
	if unavailable(err) {
		return c.errorf([]error{fonte.ErrUnavailable, err},
			"postgres: the server at %s is unavailable (%s, collection %s): %v", c.server, op, c.collection, err)
	}
	return c.errorf([]error{err}, "postgres %s, collection %s: %s: %v", c.server, c.collection, op, err)
}

// readOnlyError is the error of a write op sent to a server that cannot
// take it (why says what the server is), wrapping fonte.ErrReadOnly and
// cause when there is one.
func (c *config) readOnlyError(op, why string, cause error) error {
	causes := []error{fonte.ErrReadOnly}
	msg := fmt.Sprintf("postgres: the server at %s is read-only: %s; collection %s cannot be written there (%s): send writes to the primary",
		c.server, why, c.collection, op)
	if cause != nil {
		causes = append(causes, cause)
		msg += ": " + cause.Error()
	}
	return &storeError{msg: c.redact(msg), causes: causes}
}

// readOnly reports whether the server refused a write because it is
// read-only: SQLSTATE 25006, read_only_sql_transaction, which a hot
// standby answers to every write.
func readOnly(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "25006"
}

// unavailable reports whether err means the server could not be reached
// or the connection was lost, as opposed to an error the server answered.
func unavailable(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		// Class 08 is connection exceptions; 57P01-57P03 are an
		// administrator or crash shutdown and a server not accepting
		// connections yet.
		return strings.HasPrefix(pgErr.Code, "08") || pgErr.Code == "57P01" || pgErr.Code == "57P02" || pgErr.Code == "57P03"
	}
	var connErr *pgconn.ConnectError
	if errors.As(err, &connErr) {
		return true
	}
	var netErr net.Error
	if errors.As(err, &netErr) {
		return true
	}
	if pgconn.Timeout(err) {
		return true
	}
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) ||
		strings.Contains(err.Error(), "conn closed")
}
