// Package admit lets searches take turns at the processors instead of
// sharing them.
//
// Go's scheduler shares processors among runnable goroutines in time
// slices of up to 10 ms. With more closed-loop searches than processors
// (four query goroutines on two cores), a search of 4 ms can lose a
// whole slice, or several, to the others in the middle of its work, and
// every search then finishes late: the tail grows with the number of
// searches, not with their cost (BENCHMARKS.md, "A million chunks,
// session 34"). A Gate admits at most as many searches to their costly
// part as it has slots, one per processor by default (Searches), and
// the rest wait in arrival order: each admitted search runs through, and
// a waiting one starts as soon as one ends, so searches finish in the
// order they came.
//
// Only the outermost part of a search enters: its inner goroutines (the
// hybrid search's dense leg, the lexical helpers of internal/cores) run
// within its turn and never wait here, so a search cannot wait for a
// slot its own legs hold.
package admit

import (
	"context"
	"os"
	"runtime"
	"sync"
)

// Gate is a FIFO semaphore: Enter takes one of its slots, or waits in
// line for one; Leave gives it back, to the longest waiter first.
type Gate struct {
	mu    sync.Mutex
	free  int
	queue []*waiter
}

// waiter is one Enter in line; granted is set, under the gate's lock,
// when a Leave hands it a slot.
type waiter struct {
	ready   chan struct{}
	granted bool
}

// New returns a gate of n slots (at least one).
func New(n int) *Gate { return &Gate{free: max(n, 1)} }

// Enter takes a slot, waiting behind earlier callers while none is free.
// If ctx ends first it returns ctx's error and holds no slot; a slot
// handed to it meanwhile goes on to the next in line.
func (g *Gate) Enter(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	g.mu.Lock()
	if g.free > 0 && len(g.queue) == 0 {
		g.free--
		g.mu.Unlock()
		return nil
	}
	w := &waiter{ready: make(chan struct{})}
	g.queue = append(g.queue, w)
	g.mu.Unlock()
	select {
	case <-w.ready:
		return nil
	case <-ctx.Done():
	}
	g.mu.Lock()
	if w.granted {
		// Leave chose it between ctx's end and this lock: the slot is
		// its to pass on.
		g.mu.Unlock()
		g.Leave()
		return ctx.Err()
	}
	for i, q := range g.queue {
		if q == w {
			g.queue = append(g.queue[:i], g.queue[i+1:]...)
			break
		}
	}
	g.mu.Unlock()
	return ctx.Err()
}

// Leave gives back the slot an Enter took: to the first waiter in line,
// if any, else to the free slots.
func (g *Gate) Leave() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.queue) == 0 {
		g.free++
		return
	}
	w := g.queue[0]
	g.queue[0] = nil
	g.queue = g.queue[1:]
	w.granted = true
	close(w.ready)
}

// waiting is how many callers wait in line: for tests.
func (g *Gate) waiting() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.queue)
}

// searches is the gate of the process's searches: one slot per processor
// (GOMAXPROCS at the start of the process, as internal/cores counts).
var searches = New(runtime.GOMAXPROCS(0))

// enabled is false when FONTE_ADMIT=0 is in the environment: every
// search then runs at once, as before this package (for measuring it).
var enabled = os.Getenv("FONTE_ADMIT") != "0"

// Search waits for the calling search's turn at the processors and
// returns what ends it, or ctx's error if ctx ends first (then nothing
// is held).
func Search(ctx context.Context) (done func(), err error) {
	if !enabled {
		return nothing, nil
	}
	if err := searches.Enter(ctx); err != nil {
		return nil, err
	}
	return leave, nil
}

// leave and nothing are Search's done functions, declared once so that
// returning one allocates nothing.
func leave()   { searches.Leave() }
func nothing() {}
