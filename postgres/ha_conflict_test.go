package postgres

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fonte-rag/fonte"
)

// TestStandbyReadsThroughRebuilds rebuilds the collection on the primary
// again and again (each commit drops the old schema and renames the new
// one in its place) while readers search the primary and a hot standby
// that cancels a query in replay's way at once
// (max_standby_streaming_delay=0, the fastest a replica can be told to
// keep up). No read sees an empty index (a snapshot taken before the
// rebuild's commit would see the rebuilt tables without their rows), and
// a query the standby cancels for a conflict with recovery is run again
// on the new generation, so every read succeeds and sees one generation
// whole.
func TestStandbyReadsThroughRebuilds(t *testing.T) {
	primary := startNative(t)
	sb, err := primary.StartStandby("-c max_standby_streaming_delay=0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sb.Stop)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	u := withParams(t, primary.URL, "collection", "rebuilt")
	w := open(t, u, fonte.StoreOptions{Settings: testSettings})
	if err := commitVersion(ctx, w, 1); err != nil {
		t.Fatal(err)
	}
	var r *Store
	waitFor(t, 30*time.Second, "the collection reaching the standby", func() error {
		var err error
		r, err = Open(ctx, withParams(t, sb.URL, "collection", "rebuilt"), fonte.StoreOptions{})
		return err
	})
	t.Cleanup(func() { r.Close() })
	done := make(chan struct{})
	var wg sync.WaitGroup
	var reads atomic.Int64
	errs := make(chan error, 8)
	for i := range 8 {
		// Two readers on the primary: there the first query of a
		// snapshot waits for the rebuild's commit instead.
		s := r
		if i < 2 {
			s = w
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-done:
					return
				default:
				}
				if _, err := wholeVersion(ctx, s); err != nil {
					errs <- err
					return
				}
				reads.Add(1)
			}
		}()
	}
	for v := 2; v <= 10; v++ {
		rb := open(t, u, fonte.StoreOptions{Settings: testSettings, Rebuild: true})
		if err := commitVersion(ctx, rb, v); err != nil {
			t.Fatal(err)
		}
		rb.Close()
		time.Sleep(50 * time.Millisecond)
	}
	close(done)
	wg.Wait()
	close(errs)
	for err := range errs {
		var detail string
		if errors.Is(err, fonte.ErrUnavailable) {
			detail = " (unavailable)"
		}
		t.Error(fmt.Sprint(err) + detail)
	}
	t.Logf("%d whole reads on the primary and the standby during 9 rebuilds", reads.Load())
}
