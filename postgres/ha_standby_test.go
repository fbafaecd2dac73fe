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
	"github.com/jackc/pgx/v5"
)

// TestStandbyReadsWholeGenerations serves reads from a hot standby while
// the primary commits generation after generation: every read on the
// standby sees one generation whole (its documents, both legs, term
// statistics and counts), generations never go backwards, and the
// standby ends at the primary's last one.
func TestStandbyReadsWholeGenerations(t *testing.T) {
	primary := startNative(t)
	standby := startStandby(t, primary)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	w := open(t, withParams(t, primary.URL, "collection", "ha"), fonte.StoreOptions{Settings: testSettings})
	if err := commitVersion(ctx, w, 1); err != nil {
		t.Fatal(err)
	}
	var r *Store
	waitFor(t, 30*time.Second, "the collection reaching the standby", func() error {
		var err error
		r, err = Open(ctx, withParams(t, standby.URL, "collection", "ha"), fonte.StoreOptions{})
		return err
	})
	t.Cleanup(func() { r.Close() })

	const versions = 12
	var readers sync.WaitGroup
	var reads atomic.Int64
	done := make(chan struct{})
	errs := make(chan error, 16)
	for range 8 {
		readers.Add(1)
		go func() {
			defer readers.Done()
			last := 0
			for {
				select {
				case <-done:
					return
				default:
				}
				seen, err := wholeVersion(ctx, r)
				if err != nil {
					errs <- err
					return
				}
				for _, v := range seen {
					if v < last {
						errs <- fmt.Errorf("the standby went back from generation %d to %d", last, v)
						return
					}
					last = v
				}
				reads.Add(1)
			}
		}()
	}
	for v := 2; v <= versions; v++ {
		if err := commitVersion(ctx, w, v); err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	waitFor(t, 30*time.Second, "the standby replaying the last commit", func() error {
		if g := status(t, r).Generation; g != versions {
			return fmt.Errorf("generation %d", g)
		}
		return nil
	})
	close(done)
	readers.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if reads.Load() < versions {
		t.Errorf("only %d whole reads ran on the standby while %d commits replayed", reads.Load(), versions)
	}
	t.Logf("%d whole reads on the standby during %d commits", reads.Load(), versions)
}

// TestStandbyLagAndPreviousGeneration pauses replay on the standby: while
// the primary commits, the standby serves the previous generation whole
// and its status says it is behind (bytes received and not replayed, the
// time since the commit it serves, replay paused); once resumed it
// catches up and says so. A store on the primary reports no replica.
func TestStandbyLagAndPreviousGeneration(t *testing.T) {
	primary := startNative(t)
	standby := startStandby(t, primary)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	w := open(t, withParams(t, primary.URL, "collection", "lag"), fonte.StoreOptions{Settings: testSettings})
	if err := commitVersion(ctx, w, 1); err != nil {
		t.Fatal(err)
	}
	if st := status(t, w); st.Replica != nil {
		t.Errorf("the primary's status has a replica: %+v", *st.Replica)
	}
	var r *Store
	waitFor(t, 30*time.Second, "the collection reaching the standby", func() error {
		var err error
		r, err = Open(ctx, withParams(t, standby.URL, "collection", "lag"), fonte.StoreOptions{})
		return err
	})
	t.Cleanup(func() { r.Close() })
	st := status(t, r)
	if st.Replica == nil || st.Replica.LagBytes != 0 || st.Replica.LagSeconds != 0 || st.Replica.Paused {
		t.Fatalf("a caught-up standby's replica status: %+v", st.Replica)
	}

	sb, err := pgx.Connect(ctx, standby.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close(ctx)
	if _, err := sb.Exec(ctx, "SELECT pg_wal_replay_pause()"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1100 * time.Millisecond) // so the lag in seconds is visibly above 1
	if err := commitVersion(ctx, w, 2); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 30*time.Second, "the standby receiving the commit it may not replay", func() error {
		st := status(t, r)
		if st.Replica == nil || st.Replica.LagBytes == 0 {
			return fmt.Errorf("replica status %+v", st.Replica)
		}
		return nil
	})
	st = status(t, r)
	if st.Generation != 1 || !st.Replica.Paused || st.Replica.LagSeconds < 1 || st.Replica.Replayed.IsZero() {
		t.Errorf("paused standby: generation %d, replica %+v; want generation 1, paused, at least 1 s behind", st.Generation, *st.Replica)
	}
	seen, err := wholeVersion(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range seen {
		if v != 1 {
			t.Errorf("the paused standby served version %d, want the previous generation (1): %v", v, seen)
		}
	}
	if _, err := sb.Exec(ctx, "SELECT pg_wal_replay_resume()"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 30*time.Second, "the standby catching up", func() error {
		st := status(t, r)
		if st.Generation != 2 || st.Replica.LagBytes != 0 || st.Replica.LagSeconds != 0 || st.Replica.Paused {
			return fmt.Errorf("generation %d, replica %+v", st.Generation, *st.Replica)
		}
		return nil
	})
	if _, err := wholeVersion(ctx, r); err != nil {
		t.Fatal(err)
	}
}

// TestStandbyRefusesWrites opens a store on a hot standby as `fonte
// serve` and `fonte index` do (not read-only): it opens, and every write
// fails before anything runs with an error wrapping fonte.ErrReadOnly
// that names the server and says it is a standby; a collection the
// standby does not have cannot be created there either.
func TestStandbyRefusesWrites(t *testing.T) {
	primary := startNative(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	w := open(t, withParams(t, primary.URL, "collection", "ro"), fonte.StoreOptions{Settings: testSettings})
	if err := commitVersion(ctx, w, 1); err != nil {
		t.Fatal(err)
	}
	standby := startStandby(t, primary)
	var r *Store
	waitFor(t, 30*time.Second, "the collection reaching the standby", func() error {
		var err error
		r, err = Open(ctx, withParams(t, standby.URL, "collection", "ro"), fonte.StoreOptions{Settings: testSettings})
		return err
	})
	t.Cleanup(func() { r.Close() })
	addr := fmt.Sprintf("127.0.0.1:%d", standby.Port)
	check := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, fonte.ErrReadOnly) {
			t.Errorf("%s on the standby: %v; want an error wrapping fonte.ErrReadOnly", what, err)
			return
		}
		for _, want := range []string{addr, "read-only", "primary"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s on the standby: %q does not say %q", what, err, want)
			}
		}
	}
	ran := false
	err := r.Update(ctx, func(tx fonte.StoreTx) error {
		ran = true
		return nil
	})
	check("Update", err)
	if ran {
		t.Error("Update ran its function on a standby: an index run would embed everything before failing")
	}
	if !strings.Contains(fmt.Sprint(err), "hot standby") {
		t.Errorf("Update's error does not say the server is a hot standby: %v", err)
	}
	check("Purge", r.Purge(ctx))
	_, err = Open(ctx, withParams(t, standby.URL, "collection", "absent"), fonte.StoreOptions{Settings: testSettings})
	check("creating a collection", err)
	// The data is untouched and still served.
	if _, err := wholeVersion(ctx, r); err != nil {
		t.Fatal(err)
	}
}
