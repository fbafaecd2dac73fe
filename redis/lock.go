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

// lockScript takes the write lock for the longest-waiting writer only:
// each attempt enters the writer in a queue (a sorted set by arrival, on
// the server's clock) and notes when it last asked (a hash); a writer
// that stopped asking for queueStale is dropped from the head. Without
// the queue a writer that commits in a loop took the lock again before a
// waiting one polled, and the waiting one gave up after lock_timeout.
var lockScript = goredis.NewScript(`local lock, queue, seen = KEYS[1], KEYS[2], KEYS[3]
local token, ttl, stale, keep = ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4]
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('zadd', queue, 'NX', now, token)
redis.call('hset', seen, token, now)
redis.call('pexpire', queue, keep)
redis.call('pexpire', seen, keep)
while true do
  local head = redis.call('zrange', queue, 0, 0)[1]
  if head == token then break end
  if tonumber(redis.call('hget', seen, head) or '0') >= now - stale then return 0 end
  redis.call('zrem', queue, head)
  redis.call('hdel', seen, head)
end
if not redis.call('set', lock, token, 'NX', 'PX', ttl) then return 0 end
redis.call('zrem', queue, token)
redis.call('hdel', seen, token)
return 1`)

// leaveScript takes a writer that gives up out of the queue.
var leaveScript = goredis.NewScript(`redis.call('zrem', KEYS[1], ARGV[1])
redis.call('hdel', KEYS[2], ARGV[1])
return 0`)

// queueStale is how long a queued writer may go without asking for the
// lock (it asks at least every 250 ms) before the next one passes it.
const queueStale = 3 * time.Second

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
	queue := []string{s.k.lock(), s.k.lockQueue(), s.k.lockSeen()}
	leave := func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		leaveScript.Run(ctx, s.rdb, queue[1:], l.token)
	}
	for {
		ok, err := lockScript.Run(ctx, s.rdb, queue, l.token, lockTTL.Milliseconds(),
			queueStale.Milliseconds(), (lockTTL + queueStale).Milliseconds()).Int()
		if err != nil {
			leave()
			return nil, s.wrapErr("taking the write lock", err)
		}
		if ok == 1 {
			break
		}
		if time.Now().After(deadline) {
			leave()
			return nil, fmt.Errorf("redis %s: %w (waited %v for the lock %s)", s.cfg.where(), ErrLocked, s.cfg.lockTimeout, s.k.lock())
		}
		select {
		case <-ctx.Done():
			leave()
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
