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
	// Every commit reaches a replica of every master before it returns.
	w := open(t, cl.URL, coll, fonte.StoreOptions{Settings: testSettings}, "wait_replicas=1")
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
	// The promoted master has no replica: a commit that must reach one
	// fails until the dead node comes back, as its replica.
	// The writer has not spoken to the cluster since the kill: its first
	// command may still go to the dead master and fail as unavailable,
	// which refreshes its slot map, as a retrying client would.
	err := commitPastUnavailable(t, c, w, 2)
	if !errors.Is(err, ErrNotReplicated) {
		t.Fatalf("commit with no replica left: %v; want ErrNotReplicated", err)
	}
	if err := victim.Start(); err != nil {
		t.Fatal(err)
	}
	if err := cl.WaitReady(time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := commitPastUnavailable(t, c, w, 2); err != nil {
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

// commitPastUnavailable commits batch b, retrying for up to a minute
// while the cluster answers fonte.ErrUnavailable for a reason other than
// missing replicas (a slot map that still names a dead master); any
// other outcome is returned as it is.
func commitPastUnavailable(t *testing.T, c batches, s *Store, b int) error {
	t.Helper()
	start := time.Now()
	for {
		err := c.commit(ctxT(t), s, b)
		retry := errors.Is(err, fonte.ErrUnavailable) && !errors.Is(err, ErrNotReplicated)
		if !retry || time.Since(start) > time.Minute {
			return err
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func containsAnyAddr(err error, addrs []string) bool {
	for _, a := range addrs {
		if containsAddr(err, a) {
			return true
		}
	}
	return false
}

// TestReplicaBehind pauses (SIGSTOP) the replica of the master holding
// the meta slot. With wait_replicas=1 a commit fails with
// ErrNotReplicated and commits nothing. Without it the commit succeeds;
// then the master dies, the replica resumes and is promoted, and the
// acknowledged commit is gone: what fonte's default (no waiting) risks
// when a master dies before its replica has its last writes.
func TestReplicaBehind(t *testing.T) {
	t.Parallel()
	cl, addrs := startReplicaCluster(t)
	coll := newCollection(t)
	c := batches{docs: 12, chunksPer: 3}
	safe := open(t, cl.URL, coll, fonte.StoreOptions{Settings: testSettings}, "wait_replicas=1", "wait_timeout=500ms")
	unsafe := open(t, cl.URL, coll, fonte.StoreOptions{Settings: testSettings})
	for b := range 2 {
		if err := c.commit(ctxT(t), safe, b); err != nil {
			t.Fatal(err)
		}
	}
	master := nodeAt(t, cl, masterOf(t, safe, safe.k.meta()))
	replica, err := cl.ReplicaOf(master.Addr)
	if err != nil {
		t.Fatal(err)
	}
	// Paused, the replica would still find the master's later writes in
	// its socket's buffer when it resumes: the master drops the link too.
	if err := replica.Pause(); err != nil {
		t.Fatal(err)
	}
	defer replica.Resume()
	if out, err := master.CLI("CLIENT", "KILL", "TYPE", "replica"); err != nil || out != "1" {
		t.Fatalf("CLIENT KILL TYPE replica on %s: %q, %v", master.Addr, out, err)
	}

	err = c.commit(ctxT(t), safe, 2)
	if !errors.Is(err, ErrNotReplicated) || !containsAnyAddr(err, addrs) {
		t.Fatalf("a commit with its replica paused: %v; want ErrNotReplicated naming the master", err)
	}
	t.Logf("wait_replicas=1, replica paused: %v", err)
	if st, err := safe.Status(ctxT(t)); err != nil || st.Generation != 2 {
		t.Fatalf("after the refused commit: %+v, %v; want generation 2", st, err)
	}
	if err := c.commit(ctxT(t), unsafe, 2); err != nil {
		t.Fatalf("without wait_replicas: %v", err)
	}
	if st, err := unsafe.Status(ctxT(t)); err != nil || st.Generation != 3 {
		t.Fatalf("after the commit: %+v, %v; want generation 3", st, err)
	}

	if err := master.Kill(); err != nil {
		t.Fatal(err)
	}
	if err := replica.Resume(); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for replica.Role() != "master" {
		if time.Since(start) > time.Minute {
			t.Fatalf("the replica %s was not promoted", replica.Addr)
		}
		time.Sleep(100 * time.Millisecond)
	}
	var st fonte.StoreStatus
	for {
		st, err = unsafe.Status(ctxT(t))
		if err == nil || time.Since(start) > time.Minute {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	_, _, _, rerr := c.everyLeg(ctxT(t), unsafe, 2)
	t.Logf("promoted %s after %v: generation %d; reads: %v", replica.Addr, time.Since(start).Round(time.Millisecond), st.Generation, rerr)
	if st.Generation != 2 {
		t.Fatalf("generation %d after the failover; this test expects the unreplicated commit (generation 3) lost", st.Generation)
	}
}
