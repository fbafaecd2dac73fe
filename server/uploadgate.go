package server

import (
	"context"
	"sync"
	"time"
)

// DefaultUploadSlots is how many uploads one collection takes at once
// when Options.UploadSlots is zero. Uploads to a collection commit one at
// a time anyway; a second slot lets the next body arrive while one is
// indexed, and no more, since each holds its whole body (up to
// MaxUploadBytes) in memory.
const DefaultUploadSlots = 2

// Waiting for an upload slot: a further upload waits this long for one
// to free, then is answered 503 with Retry-After (uploadRetryAfter
// seconds), so a client backs off instead of queueing without bound.
const (
	uploadWait       = 2 * time.Second
	uploadRetryAfter = 5
)

// uploadGate bounds the uploads in flight per collection, from the first
// byte of their body read to their commit.
type uploadGate struct {
	slots int

	mu    sync.Mutex
	sems  map[string]chan struct{} // per collection name, while in use
	users map[string]int           // requests holding or waiting for a slot
}

func newUploadGate(slots int) *uploadGate {
	if slots <= 0 {
		slots = DefaultUploadSlots
	}
	return &uploadGate{slots: slots, sems: map[string]chan struct{}{}, users: map[string]int{}}
}

// acquire takes a slot of collection name, waiting up to uploadWait (or
// until ctx ends); it returns the release function, or false when none
// freed in time.
func (g *uploadGate) acquire(ctx context.Context, name string) (func(), bool) {
	g.mu.Lock()
	sem := g.sems[name]
	if sem == nil {
		sem = make(chan struct{}, g.slots)
		g.sems[name] = sem
	}
	g.users[name]++
	g.mu.Unlock()

	timer := time.NewTimer(uploadWait)
	defer timer.Stop()
	select {
	case sem <- struct{}{}:
		return func() { <-sem; g.leave(name) }, true
	case <-timer.C:
	case <-ctx.Done():
	}
	g.leave(name)
	return nil, false
}

// leave forgets collection name's semaphore once no request uses it, so
// names that were never collections leave nothing behind.
func (g *uploadGate) leave(name string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.users[name]--; g.users[name] == 0 {
		delete(g.users, name)
		delete(g.sems, name)
	}
}
