package redis

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// lockTTL is how long the write lock outlives a writer that stopped
// refreshing it (a crashed process); a live writer refreshes it every
// third of that.
const lockTTL = 30 * time.Second

// Compare-and-delete and compare-and-extend: a writer touches the lock
// only while it still holds its own token.
var (
	unlockScript = goredis.NewScript(`if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0`)
	extendScript = goredis.NewScript(`if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end return 0`)
)

// writeLock is a held write lock of a collection.
type writeLock struct {
	s     *Store
	token string
	stop  chan struct{}
	done  sync.WaitGroup
}

// lock takes the collection's write lock (SET NX PX with a random
// token), waiting up to the lock timeout for another writer, and keeps
// it alive until unlock.
func (s *Store) lock(ctx context.Context) (*writeLock, error) {
	var b [16]byte
	rand.Read(b[:])
	l := &writeLock{s: s, token: hex.EncodeToString(b[:]), stop: make(chan struct{})}
	deadline := time.Now().Add(s.cfg.lockTimeout)
	delay := 10 * time.Millisecond
	for {
		ok, err := s.rdb.SetNX(ctx, s.k.lock(), l.token, lockTTL).Result()
		if err != nil {
			return nil, s.wrapErr("taking the write lock", err)
		}
		if ok {
			break
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("redis %s: %w (waited %v for the lock %s)", s.cfg.where(), ErrLocked, s.cfg.lockTimeout, s.k.lock())
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("redis %s: waiting for the write lock: %w", s.cfg.where(), ctx.Err())
		case <-time.After(delay):
		}
		delay = min(2*delay, 250*time.Millisecond)
	}
	l.done.Add(1)
	go l.keepAlive()
	return l, nil
}

func (l *writeLock) keepAlive() {
	defer l.done.Done()
	t := time.NewTicker(lockTTL / 3)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
			ctx, cancel := context.WithTimeout(context.Background(), lockTTL/3)
			// A failure is not fatal here: the commit's switch checks the
			// token under WATCH and refuses if the lock was lost.
			extendScript.Run(ctx, l.s.rdb, []string{l.s.k.lock()}, l.token, lockTTL.Milliseconds())
			cancel()
		}
	}
}

// unlock releases the lock if it still holds it.
func (l *writeLock) unlock() error {
	close(l.stop)
	l.done.Wait()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := unlockScript.Run(ctx, l.s.rdb, []string{l.s.k.lock()}, l.token).Err()
	if err != nil && !errors.Is(err, goredis.Nil) {
		return l.s.wrapErr("releasing the write lock", err)
	}
	return nil
}
