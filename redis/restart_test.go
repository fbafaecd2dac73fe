package redis

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/internal/testserver"
)

// TestRestartMidQuery kills a single Redis node (SIGKILL) under readers
// and starts it again on the same port and data: while it is down every
// read fails with fonte.ErrUnavailable naming the address; afterwards
// the same Stores answer again by themselves, with what was committed.
func TestRestartMidQuery(t *testing.T) {
	t.Parallel()
	node, stop, err := testserver.StartRedisPersistent()
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	url := "redis://" + node.Addr
	coll := newCollection(t)
	c := batches{docs: 12, chunksPer: 3}
	w := open(t, url, coll, fonte.StoreOptions{Settings: testSettings})
	r := open(t, url, coll, fonte.StoreOptions{ReadOnly: true})
	if err := c.commit(ctxT(t), w, 0); err != nil {
		t.Fatal(err)
	}
	if err := c.commit(ctxT(t), w, 1); err != nil {
		t.Fatal(err)
	}

	const readers = 8
	var ready, restarted sync.WaitGroup
	ready.Add(readers)
	restarted.Add(1)
	type outcome struct {
		downErrs int
		err      error
	}
	results := make(chan outcome, readers)
	for range readers {
		go func() {
			var o outcome
			defer func() { results <- o }()
			ctx := context.Background()
			// Whole answers of batch 1 until the kill, then errors that
			// name the server, then whole answers again.
			for i := 0; ; i++ {
				if i == 1 {
					ready.Done()
				}
				lex, dense, stats, err := c.everyLeg(ctx, r, 1)
				switch {
				case err == nil && (lex != 1 || dense != 1 || stats != 1):
					o.err = fmt.Errorf("batches %d, %d, %d; want 1", lex, dense, stats)
				case err == nil && o.downErrs > 0:
					restarted.Wait()
					return
				case err == nil:
					continue
				case !errors.Is(err, fonte.ErrUnavailable) || !containsAddr(err, node.Addr):
					o.err = err
				}
				if o.err != nil {
					if i == 0 {
						ready.Done()
					}
					return
				}
				o.downErrs++
				time.Sleep(20 * time.Millisecond)
			}
		}()
	}
	ready.Wait()
	if err := node.Kill(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second)
	st, err := w.Status(ctxT(t))
	assertUnavailable(t, "Status while down", err, node.Addr)
	t.Logf("while down: %v", err)
	if err := node.Start(); err != nil {
		t.Fatal(err)
	}
	restarted.Done()
	for range readers {
		o := <-results
		if o.err != nil {
			t.Error(o.err)
		} else if o.downErrs == 0 {
			t.Error("a reader saw no error while the server was down")
		}
	}
	if st, err = w.Status(ctxT(t)); err != nil || st.Generation != 2 {
		t.Fatalf("Status after the restart: %+v, %v; want generation 2", st, err)
	}
	// The writer reconnects too.
	if err := c.commit(ctxT(t), w, 2); err != nil {
		t.Fatal(err)
	}
	assertOnlyLive(t, w)
}

// reconnected retries fn while it fails because the server is not
// reachable: after a run of failed dials, go-redis answers with its last
// dial error while it probes the server once a second, so a client
// reconnects within about a second of the server answering again.
func reconnected(t *testing.T, what string, fn func() error) {
	t.Helper()
	start := time.Now()
	for {
		err := fn()
		if err == nil {
			if d := time.Since(start); d > 100*time.Millisecond {
				t.Logf("%s answered again after %v", what, d.Round(time.Millisecond))
			}
			return
		}
		if !errors.Is(err, fonte.ErrUnavailable) && !isUnavailable(err) || time.Since(start) > 10*time.Second {
			t.Fatalf("%s after the restart: %v", what, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func containsAddr(err error, addr string) bool {
	return err != nil && strings.Contains(err.Error(), addr)
}

// TestIndexBeingBuilt puts the collection's vector index in the state a
// restart from the append-only file leaves it in (FT.CREATE replayed
// after the chunks it covers, so the engine scans them in the background)
// and queries at once: the dense leg fails with fonte.ErrUnavailable
// (ErrPartialAnswer) rather than answering from the part scanned so far,
// and answers whole once the scan is done.
func TestIndexBeingBuilt(t *testing.T) {
	backends(t, func(t *testing.T, url string) {
		s := open(t, url, newCollection(t), fonte.StoreOptions{Settings: testSettings})
		var recs []fonte.Record
		for d := range 30 {
			recs = append(recs, genDoc(fmt.Sprintf("doc-%02d", d), 100, 8, uint64(d)))
		}
		put(t, s, recs...)
		q := fonte.VectorQuery{Vector: recs[7].Vectors[42], K: 10}
		want, err := s.VectorTopK(ctxT(t), q)
		if err != nil {
			t.Fatal(err)
		}
		st, err := s.load(ctxT(t))
		if err != nil {
			t.Fatal(err)
		}
		partial := 0
		for attempt := 0; attempt < 10 && partial == 0; attempt++ {
			if err := s.dropIndex(ctxT(t), st.index); err != nil {
				t.Fatal(err)
			}
			if err := s.createIndex(ctxT(t), st.index, st.dim, st.dense); err != nil {
				t.Fatal(err)
			}
			got, err := s.VectorTopK(ctxT(t), q)
			switch {
			case errors.Is(err, ErrPartialAnswer) && errors.Is(err, fonte.ErrUnavailable):
				partial++
				t.Logf("while the index is built: %v", err)
			case err != nil:
				t.Fatal(err)
			default:
				sameHits(t, "VectorTopK right after FT.CREATE", hitsOf(got), hitsOf(want), 1e-9)
			}
			if err := s.waitIndexed(ctxT(t), st.index); err != nil {
				t.Fatal(err)
			}
		}
		if partial == 0 {
			t.Fatal("no query landed while the index was being built: the test did not test")
		}
		got, err := s.VectorTopK(ctxT(t), q)
		if err != nil {
			t.Fatal(err)
		}
		sameHits(t, "VectorTopK once built", hitsOf(got), hitsOf(want), 1e-9)
	})
}

// TestRestartMidCommit kills a single Redis node (SIGKILL) while a
// writer commits, at several points of the commit, and starts it again
// on the same port and data: the writer's Update fails with
// fonte.ErrUnavailable naming the address (or succeeded before the
// kill), and after the restart the collection is whole at the previous
// generation or the next, never between; an Update that returned nil is
// never lost (the node runs with appendfsync always).
func TestRestartMidCommit(t *testing.T) {
	t.Parallel()
	node, stop, err := testserver.StartRedisPersistent()
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	url := "redis://" + node.Addr
	coll := newCollection(t)
	c := batches{docs: 40, chunksPer: 4}
	w := open(t, url, coll, fonte.StoreOptions{Settings: testSettings})
	r := open(t, url, coll, fonte.StoreOptions{ReadOnly: true})
	if err := c.commit(ctxT(t), w, 0); err != nil {
		t.Fatal(err)
	}
	if err := c.commit(ctxT(t), w, 1); err != nil {
		t.Fatal(err)
	}
	batch, gen := 1, uint64(2)
	kill := func() {
		if err := node.Kill(); err != nil {
			t.Error(err)
		}
	}
	// Where the commit is when the server dies.
	rounds := []struct {
		name  string
		after time.Duration // kill this long after the Update starts
		// beforeSwitch kills once every document is written;
		// afterSwitch as soon as a reader sees the new generation
		// (while the replaced versions are being deleted).
		beforeSwitch, afterSwitch bool
	}{
		{name: "taking the lock"},
		{name: "writing documents", after: 150 * time.Millisecond},
		{name: "writing documents", after: 400 * time.Millisecond},
		{name: "before the switch", beforeSwitch: true},
		{name: "after the switch", afterSwitch: true},
		{name: "after the switch", afterSwitch: true},
	}
	for i, round := range rounds {
		next := batch + 1
		done := make(chan error, 1)
		var hook func()
		if round.beforeSwitch {
			hook = kill
		}
		go func() { done <- c.commitThen(context.Background(), w, next, hook) }()
		switch {
		case round.afterSwitch:
			for {
				pr, err := r.probe(ctxT(t))
				if err != nil {
					t.Fatal(err)
				}
				if pr.gen > gen {
					kill()
					break
				}
			}
		case !round.beforeSwitch:
			time.Sleep(round.after)
			kill()
		}
		uerr := <-done
		if err := node.Start(); err != nil {
			t.Fatal(err)
		}
		if uerr != nil {
			assertUnavailable(t, "Update while the server died", uerr, node.Addr)
		}
		var st fonte.StoreStatus
		reconnected(t, "Status", func() (err error) { st, err = r.Status(ctxT(t)); return err })
		lex, dense, stats, err := c.everyLeg(ctxT(t), r, next)
		if err != nil {
			t.Fatalf("round %d: after the restart: %v", i, err)
		}
		switch {
		case st.Generation == gen && uerr == nil:
			t.Fatalf("round %d: the Update returned nil, but the restarted server is at generation %d, before it", i, gen)
		case st.Generation == gen && lex == batch && dense == batch && stats == batch:
		case st.Generation == gen+1 && lex == next && dense == next && stats == next:
			batch, gen = next, gen+1
		default:
			t.Fatalf("round %d: generation %d with batches %d, %d, %d; want generation %d (batch %d) or %d (batch %d)",
				i, st.Generation, lex, dense, stats, gen, batch, gen+1, next)
		}
		t.Logf("round %d, killed %s: Update: %v; now generation %d", i, round.name, uerr, st.Generation)
		// The dying writer could not release its lock: it expires by
		// itself within lockTTL. Check it will, then free it for the
		// next round rather than wait.
		var ttl time.Duration
		reconnected(t, "PTTL", func() (err error) { ttl, err = w.rdb.PTTL(ctxT(t), w.k.lock()).Result(); return err })
		if ttl > lockTTL {
			t.Fatalf("the write lock's time to live is %v; want at most %v", ttl, lockTTL)
		}
		w.rdb.Del(ctxT(t), w.k.lock())
	}
	// The next commit cleans up whatever the dead writers left.
	if err := c.commit(ctxT(t), w, batch+1); err != nil {
		t.Fatal(err)
	}
	assertOnlyLive(t, w)
}
