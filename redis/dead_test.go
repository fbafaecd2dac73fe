package redis

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/internal/testserver"
)

// shutdown stops the server at addr the way a crash would look to a
// client (SHUTDOWN NOSAVE; the connection drops).
func shutdown(t *testing.T, addr string) {
	t.Helper()
	c := goredis.NewClient(&goredis.Options{Addr: addr, Protocol: 2})
	defer c.Close()
	c.Do(context.Background(), "SHUTDOWN", "NOSAVE")
	for range 100 {
		if conn, err := net.DialTimeout("tcp", addr, 100*time.Millisecond); err != nil {
			return
		} else {
			conn.Close()
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s still answers after SHUTDOWN", addr)
}

// assertUnavailable checks err wraps fonte.ErrUnavailable, names one of
// addrs and never shows the password.
func assertUnavailable(t *testing.T, what string, err error, addrs ...string) {
	t.Helper()
	if !errors.Is(err, fonte.ErrUnavailable) {
		t.Fatalf("%s: %v; want an error wrapping fonte.ErrUnavailable", what, err)
	}
	named := false
	for _, a := range addrs {
		named = named || strings.Contains(err.Error(), a)
	}
	if !named || strings.Contains(err.Error(), "s3cret") {
		t.Fatalf("%s: %q should name the server (%v) and not the password", what, err, addrs)
	}
}

func TestDeadSingle(t *testing.T) {
	t.Parallel()
	// Nothing listens: Open fails, naming the address, not the password.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	_, err = Open(ctxT(t), "redis://:s3cret@"+addr+"?collection=x", fonte.StoreOptions{})
	assertUnavailable(t, "Open on a closed port", err, addr)

	// A server that dies under an open store.
	url, stop, err := testserver.StartRedis()
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	s := open(t, url, newCollection(t), fonte.StoreOptions{Settings: testSettings})
	put(t, s, genDoc("a", 2, 8, 1))
	addr = strings.TrimPrefix(url, "redis://")
	shutdown(t, addr)
	start := time.Now()
	_, err = s.Status(ctxT(t))
	t.Logf("Status: %v after %v", err, time.Since(start))
	assertUnavailable(t, "Status", err, addr)
	_, err = s.LexicalTopK(ctxT(t), fonte.LexicalQuery{Terms: []string{"w01"}, K: 3})
	assertUnavailable(t, "LexicalTopK", err, addr)
	_, err = s.VectorTopK(ctxT(t), fonte.VectorQuery{Vector: make([]float32, 8), K: 3})
	assertUnavailable(t, "VectorTopK", err, addr)
	err = s.Update(ctxT(t), func(tx fonte.StoreTx) error { return tx.Put(ctxT(t), genDoc("b", 1, 8, 2)) })
	assertUnavailable(t, "Update", err, addr)
}

// TestDeadShard stops one master of a cluster (not the one holding the
// collection's meta slot): writes and the legs fail as unavailable, and
// the commit that failed is not visible.
func TestDeadShard(t *testing.T) {
	t.Parallel()
	url, stop, err := testserver.StartRedisCluster()
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	coll := newCollection(t)
	s := open(t, url, coll, fonte.StoreOptions{Settings: testSettings})
	var recs []fonte.Record
	for i := range 10 {
		recs = append(recs, genDoc(fmt.Sprintf("doc-%d", i), 2, 8, uint64(i)))
	}
	put(t, s, recs...)
	before, err := s.Status(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	cc := s.rdb.(*goredis.ClusterClient)
	metaNode, err := cc.MasterForKey(ctxT(t), s.k.meta())
	if err != nil {
		t.Fatal(err)
	}
	// Once the cluster sees the node gone, it refuses every command
	// (CLUSTERDOWN); letting the live masters serve reads then is what
	// lets the test look at the meta slot after the failed commit.
	err = cc.ForEachMaster(ctxT(t), func(ctx context.Context, c *goredis.Client) error {
		return c.ConfigSet(ctx, "cluster-allow-reads-when-down", "yes").Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	var addrs []string
	victim := ""
	for _, a := range s.cfg.addrs {
		addrs = append(addrs, a)
		if a != metaNode.Options().Addr && victim == "" {
			victim = a
		}
	}
	shutdown(t, victim)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err = s.Update(ctx, func(tx fonte.StoreTx) error {
		for i := range 20 {
			if err := tx.Put(ctx, genDoc(fmt.Sprintf("new-%d", i), 3, 8, uint64(100+i))); err != nil {
				return err
			}
		}
		return nil
	})
	assertUnavailable(t, "Update with a shard down", err, addrs...)
	after, err := s.Status(ctx) // the meta slot's master is alive
	if err != nil {
		t.Fatal(err)
	}
	if after.Generation != before.Generation || after.Documents != before.Documents || after.Chunks != before.Chunks {
		t.Fatalf("a failed commit changed the collection: %+v → %+v", before, after)
	}
	_, err = s.VectorTopK(ctx, fonte.VectorQuery{Vector: recs[0].Vectors[0], K: 3})
	assertUnavailable(t, "VectorTopK with a shard down", err, addrs...)
	_, err = s.LexicalTopK(ctx, fonte.LexicalQuery{Terms: vocabulary[:20], K: 3})
	assertUnavailable(t, "LexicalTopK with a shard down", err, addrs...)
	t.Logf("Update with shard %s down: %v", victim, err)
}
