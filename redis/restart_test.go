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
