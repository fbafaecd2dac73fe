package redis

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/internal/testserver"
)

// startReplicaCluster starts three masters with a replica each and
// returns them and every node's address.
func startReplicaCluster(t *testing.T) (*testserver.RedisCluster, []string) {
	t.Helper()
	cl, stop, err := testserver.StartRedisClusterReplicas()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	var addrs []string
	for _, n := range cl.Nodes {
		addrs = append(addrs, n.Addr)
	}
	return cl, addrs
}

// nodeAt is the cluster's node at addr.
func nodeAt(t *testing.T, cl *testserver.RedisCluster, addr string) *testserver.RedisNode {
	t.Helper()
	for _, n := range cl.Nodes {
		if n.Addr == addr {
			return n
		}
	}
	t.Fatalf("no node at %s", addr)
	return nil
}

// masterOf is the address of the master serving key.
func masterOf(t *testing.T, s *Store, key string) string {
	t.Helper()
	c, err := s.rdb.(*goredis.ClusterClient).MasterForKey(ctxT(t), key)
	if err != nil {
		t.Fatal(err)
	}
	return c.Options().Addr
}

// TestClusterFailover kills (SIGKILL) the master holding a collection's
// meta slot while readers query, and lets its replica take over: reads
// fail with fonte.ErrUnavailable during the failover and answer again
// after it, from the same Stores, with every committed generation; a
// writer commits again once it is over.
func TestClusterFailover(t *testing.T) {
	t.Parallel()
	cl, addrs := startReplicaCluster(t)
	coll := newCollection(t)
	c := batches{docs: 12, chunksPer: 3}
	w := open(t, cl.URL, coll, fonte.StoreOptions{Settings: testSettings})
	r := open(t, cl.URL, coll, fonte.StoreOptions{ReadOnly: true})
	for b := range 2 {
		if err := c.commit(ctxT(t), w, b); err != nil {
			t.Fatal(err)
		}
	}
	victim := nodeAt(t, cl, masterOf(t, w, w.k.meta()))

	const readers = 8
	var ready sync.WaitGroup
	ready.Add(readers)
	type outcome struct {
		failed   int
		back     time.Time
		firstErr error
		err      error
	}
	results := make(chan outcome, readers)
	var killed atomic.Int64 // when the master was killed, Unix nanoseconds
	sinceKill := func() time.Duration { return time.Since(time.Unix(0, killed.Load())) }
	for range readers {
		go func() {
			var o outcome
			defer func() { results <- o }()
			ctx := context.Background()
			for i := 0; ; i++ {
				if i == 1 {
					ready.Done()
				}
				lex, dense, stats, err := c.everyLeg(ctx, r, 1)
				switch {
				case err == nil && (lex != 1 || dense != 1 || stats != 1):
					o.err = errors.New("an answer not of batch 1")
				case err == nil && o.failed > 0:
					o.back = time.Now()
					return
				case err == nil:
					if killed.Load() != 0 && sinceKill() > time.Minute {
						o.err = errors.New("no read failed in the minute after the kill")
					}
				case errors.Is(err, fonte.ErrUnavailable) && containsAnyAddr(err, addrs):
					if o.failed == 0 {
						o.firstErr = err
					}
					o.failed++
					if sinceKill() > time.Minute {
						o.err = err
					}
					time.Sleep(50 * time.Millisecond)
				default:
					o.err = err
				}
				if o.err != nil {
					if i == 0 {
						ready.Done()
					}
					return
				}
			}
		}()
	}
	ready.Wait()
	killed.Store(time.Now().UnixNano())
	if err := victim.Kill(); err != nil {
		t.Fatal(err)
	}
	var last time.Time
	for range readers {
		o := <-results
		if o.err != nil {
			t.Fatal(o.err)
		}
		if o.back.After(last) {
			last = o.back
		}
		t.Logf("a reader failed %d times (first: %v), then answered", o.failed, o.firstErr)
	}
	t.Logf("killed master %s; every reader answered again %v later", victim.Addr, last.Sub(time.Unix(0, killed.Load())).Round(time.Millisecond))
	if err := c.commit(ctxT(t), w, 2); err != nil {
		t.Fatalf("commit after the failover: %v", err)
	}
	st, err := r.Status(ctxT(t))
	if err != nil || st.Generation != 3 {
		t.Fatalf("Status after the failover and a commit: %+v, %v; want generation 3", st, err)
	}
	if lex, dense, stats, err := c.everyLeg(ctxT(t), r, 2); err != nil || lex != 2 || dense != 2 || stats != 2 {
		t.Fatalf("after the failover: batches %d, %d, %d, %v; want 2", lex, dense, stats, err)
	}
	assertOnlyLive(t, w)
}

func containsAnyAddr(err error, addrs []string) bool {
	for _, a := range addrs {
		if containsAddr(err, a) {
			return true
		}
	}
	return false
}
