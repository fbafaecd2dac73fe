package redis

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/fonte-rag/fonte"
)

// ErrNotReplicated means fewer replicas than the URL's wait_replicas
// acknowledged a commit's writes within wait_timeout. Before the switch
// nothing was committed; after it the commit is live on the master but
// a failover before the replicas catch up would lose it (the error says
// which).
var ErrNotReplicated = errors.New("redis: the commit was not acknowledged by enough replicas")

// syncKeyTTL keeps the keys a replica sync writes from outliving their
// use.
const syncKeyTTL = time.Minute

// syncReplicas waits, on every master, until cfg.waitReplicas replicas
// have everything written to it so far: Redis's WAIT counts the replicas
// that acknowledged the connection's last write, and a master's
// replication stream is ordered, so a write on one connection followed
// by WAIT covers what every connection wrote before it. On a cluster
// each master gets its own key (fonte:c:s:<n>, expiring) in one of its
// slots.
func (s *Store) syncReplicas(ctx context.Context) error {
	if s.cfg.waitReplicas == 0 {
		return nil
	}
	cc, ok := s.rdb.(*goredis.ClusterClient)
	if !ok {
		return s.waitOn(ctx, s.rdb.(*goredis.Client), s.k.syncKey(0))
	}
	var mu sync.Mutex
	var masters []*goredis.Client
	err := cc.ForEachMaster(ctx, func(_ context.Context, c *goredis.Client) error {
		mu.Lock()
		masters = append(masters, c)
		mu.Unlock()
		return nil
	})
	if err != nil {
		return err
	}
	for _, m := range masters {
		key, err := s.keyServedBy(ctx, cc, m.Options().Addr)
		if err != nil {
			return err
		}
		if err := s.waitOn(ctx, m, key); err != nil {
			return err
		}
	}
	return nil
}

// keyServedBy finds a sync key in one of the slots of the master at addr.
func (s *Store) keyServedBy(ctx context.Context, cc *goredis.ClusterClient, addr string) (string, error) {
	for n := range 1 << 16 {
		key := s.k.syncKey(n)
		c, err := cc.MasterForKey(ctx, key)
		if err != nil {
			return "", err
		}
		if c.Options().Addr == addr {
			return key, nil
		}
	}
	return "", fmt.Errorf("no key of the collection maps to master %s", addr)
}

// waitOn writes key on c and waits for the replicas on the same
// connection (WAIT blocks up to its timeout, past the read timeout of a
// pipeline; go-redis's Wait extends it).
func (s *Store) waitOn(ctx context.Context, c *goredis.Client, key string) error {
	conn := c.Conn()
	defer conn.Close()
	if err := conn.Set(ctx, key, strconv.FormatInt(time.Now().UnixNano(), 10), syncKeyTTL).Err(); err != nil {
		return err
	}
	n, err := conn.Wait(ctx, s.cfg.waitReplicas, s.cfg.waitTimeout).Result()
	if err != nil {
		return err
	}
	if int(n) < s.cfg.waitReplicas {
		return fmt.Errorf("%w: %w: %d of %d replicas of %s acknowledged the commit's writes within %v",
			fonte.ErrUnavailable, ErrNotReplicated, n, s.cfg.waitReplicas, c.Options().Addr, s.cfg.waitTimeout)
	}
	return nil
}
