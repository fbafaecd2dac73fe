package redis

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"

	goredis "github.com/redis/go-redis/v9"

	"github.com/fonte-rag/fonte"
)

// Errors of this package beyond fonte's.
var (
	// ErrLocked means another writer held the collection's write lock
	// past the lock timeout (URL parameter lock_timeout).
	ErrLocked = errors.New("redis: collection is being written by another writer")
	// ErrClosed is returned by the methods of a closed Store.
	ErrClosed = errors.New("redis: store closed")
	// ErrNoQueryEngine means the server lacks the Query Engine module
	// (RediSearch): FT.* commands are unknown.
	ErrNoQueryEngine = errors.New("redis: the server has no Query Engine (RediSearch) module")
	// ErrTxDone is returned by a transaction's methods once its function
	// has returned.
	ErrTxDone = errors.New("redis: transaction already finished")
	// ErrLostLock means the write lock expired or was taken over before
	// the commit's switch; nothing was committed.
	ErrLostLock = errors.New("redis: the write lock was lost before the commit")
)

// isUnavailable reports whether err means the server could not be
// reached or answered that it cannot serve (a cluster missing a shard).
func isUnavailable(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var ne net.Error
	if errors.As(err, &ne) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) ||
		errors.Is(err, goredis.ErrClosed) || errors.Is(err, goredis.ErrPoolTimeout) {
		return true
	}
	msg := err.Error()
	for _, s := range []string{"CLUSTERDOWN", "connection refused", "Could not send query", "Could not distribute",
		"Uninitialized cluster state", "LOADING", "TRYAGAIN", "cluster has no nodes", "Timeout calling command", "i/o timeout"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// execAbortCause returns the reason behind an EXECABORT: when the server
// refuses to queue a command of a MULTI (LOADING while it reads its data
// back after a restart), EXEC answers only "Transaction discarded because
// of previous errors", and the refusal kept on the command says why.
// Any other err is returned as it is.
func execAbortCause(cmds []goredis.Cmder, err error) error {
	if err == nil || !strings.Contains(err.Error(), "EXECABORT") {
		return err
	}
	for _, c := range cmds {
		if ce := c.Err(); ce != nil && !errors.Is(ce, goredis.Nil) && !strings.Contains(ce.Error(), "EXECABORT") {
			return fmt.Errorf("%w: %w", err, ce)
		}
	}
	return err
}

// unavailable wraps err with fonte.ErrUnavailable, naming the server.
func unavailable(where string, err error) error {
	return fmt.Errorf("redis %s: %w: %w", where, fonte.ErrUnavailable, err)
}

// wrapErr names the store in err, and marks it unavailable when it is.
func (s *Store) wrapErr(what string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, fonte.ErrUnavailable):
		s.reloadSlots()
		return fmt.Errorf("redis %s: %s: %w", s.cfg.where(), what, err)
	case isUnavailable(err):
		s.reloadSlots()
		return fmt.Errorf("redis %s: %s: %w: %w", s.cfg.where(), what, fonte.ErrUnavailable, err)
	case strings.Contains(err.Error(), "unknown command") && strings.Contains(strings.ToUpper(err.Error()), "FT."):
		return fmt.Errorf("redis %s: %s: %w: %w", s.cfg.where(), what, ErrNoQueryEngine, err)
	}
	return fmt.Errorf("redis %s: %s: %w", s.cfg.where(), what, err)
}

// reloadSlots has a cluster client read the map of slots to nodes again,
// in the background: after a failover the slots of the dead master are
// served by its promoted replica, and only a fresh map says so.
func (s *Store) reloadSlots() {
	if cc, ok := s.rdb.(*goredis.ClusterClient); ok {
		cc.ReloadState(context.Background())
	}
}
