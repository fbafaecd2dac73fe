package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fonte-rag/fonte"
)

// TestKillMidCommitAndRestart kills the native server with SIGKILL three
// times while a writer commits generation after generation and readers
// search, then restarts it. Every failure while it is down wraps
// fonte.ErrUnavailable and names the server; the first read after the
// restart succeeds (the pool drops its dead connections by itself, and
// no state of the store outlives them), and the collection is at the
// last generation that committed or at the one in flight when the
// server died, whole, never between.
func TestKillMidCommitAndRestart(t *testing.T) {
	pg := startNative(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	s := open(t, withParams(t, pg.URL, "collection", "crash", "pool_max_conns", "8"), fonte.StoreOptions{Settings: testSettings})
	if err := commitVersion(ctx, s, 1); err != nil {
		t.Fatal(err)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", pg.Port)
	checkDown := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, fonte.ErrUnavailable) || !strings.Contains(err.Error(), addr) || !strings.Contains(err.Error(), "unavailable") {
			t.Errorf("%s while the server died: %v; want an error wrapping fonte.ErrUnavailable naming %s", what, err, addr)
		}
	}
	next := 2
	for round := range 3 {
		var committed, attempting atomic.Int64
		committed.Store(int64(next - 1))
		var wg sync.WaitGroup
		var writerErr error
		wg.Add(1)
		go func() {
			defer wg.Done()
			for v := next; ; v++ {
				attempting.Store(int64(v))
				if err := commitVersion(ctx, s, v); err != nil {
					writerErr = err
					return
				}
				committed.Store(int64(v))
			}
		}()
		var readErrs sync.Map
		for r := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					if _, err := wholeVersion(ctx, s); err != nil {
						readErrs.Store(r, err)
						return
					}
				}
			}()
		}
		time.Sleep(time.Duration(300+200*round) * time.Millisecond)
		if err := pg.Kill(); err != nil {
			t.Fatal(err)
		}
		wg.Wait()
		checkDown("a commit", writerErr)
		readErrs.Range(func(r, err any) bool {
			checkDown(fmt.Sprintf("reader %d", r), err.(error))
			return true
		})
		began := time.Now()
		_, err := s.Status(ctx)
		checkDown("Status on the stopped server", err)
		if d := time.Since(began); d > 5*time.Second {
			t.Errorf("Status on the stopped server took %v to fail", d)
		}
		if err := pg.Restart(); err != nil {
			t.Fatal(err)
		}
		seen, err := wholeVersion(ctx, s)
		if err != nil {
			t.Fatalf("round %d, the first read after the restart: %v", round, err)
		}
		gen := status(t, s).Generation
		last, inFlight := committed.Load(), attempting.Load()
		if int64(gen) != last && int64(gen) != inFlight {
			t.Fatalf("round %d: generation %d after the restart; the last commit that returned was %d, the one in flight %d", round, gen, last, inFlight)
		}
		for _, v := range seen {
			if v != int(gen) {
				t.Fatalf("round %d: read version %d at generation %d: %v", round, v, gen, seen)
			}
		}
		t.Logf("round %d: killed with %d committed and %d in flight; restarted at generation %d", round, last, inFlight, gen)
		next = int(gen) + 1
	}
	// The store writes again after the crashes.
	if err := commitVersion(ctx, s, next); err != nil {
		t.Fatal(err)
	}
	if g := status(t, s).Generation; g != uint64(next) {
		t.Errorf("a commit after the restarts made generation %d, want %d", g, next)
	}
}

// TestEndedSessionsReadAgain ends every session of the store's pool on
// the server side (as a restart behind a connection pooler, a failover
// or an administrator's pg_terminate_backend does) and reads at once:
// each read finds its pooled connection dead and runs again on a new
// one, instead of failing once per dead connection after the server is
// back.
func TestEndedSessionsReadAgain(t *testing.T) {
	pg := startNative(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s := open(t, withParams(t, pg.URL, "collection", "ended", "pool_max_conns", "4"), fonte.StoreOptions{Settings: testSettings})
	if err := commitVersion(ctx, s, 1); err != nil {
		t.Fatal(err)
	}
	admin := open(t, withParams(t, pg.URL, "collection", "ended"), fonte.StoreOptions{ReadOnly: true})
	for round := range 3 {
		// Fill the pool: four reads at once leave four idle connections.
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := wholeVersion(ctx, s); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		var ended int
		err := admin.pool.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() AND datname = current_database()
	AND application_name = ''`).Scan(&ended)
		if err != nil {
			t.Fatal(err)
		}
		if ended == 0 {
			t.Fatal("no session was ended")
		}
		if _, err := wholeVersion(ctx, s); err != nil {
			t.Fatalf("round %d: a read right after %d sessions were ended: %v", round, ended, err)
		}
	}
}
