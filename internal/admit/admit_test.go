package admit

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// queued waits until g has n callers in line (Enter has appended them),
// so that a test can start its waiters in a known order.
func queued(t *testing.T, g *Gate, n int) {
	t.Helper()
	for g.waiting() != n {
		select {
		case <-t.Context().Done():
			t.Fatalf("%d waiting, want %d", g.waiting(), n)
		default:
			time.Sleep(time.Millisecond)
		}
	}
}

// TestGateOrder: with every slot taken, waiters get slots in the order
// they came, one per Leave.
func TestGateOrder(t *testing.T) {
	ctx := context.Background()
	g := New(2)
	for range 2 {
		if err := g.Enter(ctx); err != nil {
			t.Fatal(err)
		}
	}
	const n = 6
	order := make(chan int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			if err := g.Enter(ctx); err != nil {
				t.Error(err)
				return
			}
			order <- i
		})
		queued(t, g, i+1)
	}
	for want := range n {
		g.Leave()
		if got := <-order; got != want {
			t.Fatalf("slot %d went to waiter %d, want %d", want, got, want)
		}
		select {
		case got := <-order:
			t.Fatalf("one Leave admitted two waiters (%d, then %d)", want, got)
		default:
		}
	}
	wg.Wait()
	g.Leave()
	g.Leave()
	if g.free != 2 || g.waiting() != 0 {
		t.Fatalf("after every Leave %d free and %d waiting, want 2 and 0", g.free, g.waiting())
	}
}

// cancellableWaiter holds g's only slot and starts a caller that waits
// for it with a context of its own; it returns that context's cancel and
// where the caller's Enter reports.
func cancellableWaiter(t *testing.T, g *Gate) (context.CancelFunc, chan error) {
	t.Helper()
	if err := g.Enter(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- g.Enter(ctx) }()
	queued(t, g, 1)
	return cancel, errc
}

// TestGateCancelled: a caller whose context ends while it waits gets
// the context's error, leaves the line and holds no slot; the next
// Leave admits the waiter behind it.
func TestGateCancelled(t *testing.T) {
	g := New(1)
	cancel, errc := cancellableWaiter(t, g)
	admitted := make(chan struct{})
	go func() {
		if g.Enter(context.Background()) == nil {
			close(admitted)
		}
	}()
	queued(t, g, 2)
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled wait returned %v, want context.Canceled", err)
	}
	if n := g.waiting(); n != 1 {
		t.Fatalf("%d waiting after the cancelled one left, want 1", n)
	}
	g.Leave()
	<-admitted
	g.Leave()
	if g.free != 1 {
		t.Fatalf("%d free at the end, want 1: the cancelled wait took a slot", g.free)
	}
	// A context already ended takes no slot even when one is free.
	ended, stop := context.WithCancel(context.Background())
	stop()
	if err := g.Enter(ended); !errors.Is(err, context.Canceled) {
		t.Fatalf("Enter with an ended context returned %v", err)
	}
	if g.free != 1 {
		t.Fatalf("%d free after an ended context's Enter, want 1", g.free)
	}
}

// TestGateCancelledAfterGrant: a slot handed to a waiter whose context
// ends at the same moment is passed on, never lost, whichever comes
// first; run many times to meet both orders (and under -race).
func TestGateCancelledAfterGrant(t *testing.T) {
	g := New(1)
	for range 500 {
		cancel, errc := cancellableWaiter(t, g)
		go cancel()
		g.Leave()
		if err := <-errc; err == nil {
			g.Leave() // admitted before the cancel was seen
		}
		if g.free != 1 || g.waiting() != 0 {
			t.Fatalf("%d free and %d waiting after the race, want 1 and 0", g.free, g.waiting())
		}
	}
}

// TestGateBound: many goroutines entering and leaving never hold more
// slots than the gate has, and all get through.
func TestGateBound(t *testing.T) {
	g := New(3)
	var mu sync.Mutex
	held, most, done := 0, 0, 0
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for range 200 {
				if err := g.Enter(context.Background()); err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				held++
				most = max(most, held)
				mu.Unlock()
				mu.Lock()
				held--
				done++
				mu.Unlock()
				g.Leave()
			}
		})
	}
	wg.Wait()
	if most > 3 || done != 16*200 {
		t.Fatalf("at most %d held (gate of 3), %d of %d through", most, done, 16*200)
	}
}

// BenchmarkSearchUncontended is what admission adds to a search that
// finds a slot free: one lock, no wait.
func BenchmarkSearchUncontended(b *testing.B) {
	ctx := context.Background()
	for b.Loop() {
		done, err := Search(ctx)
		if err != nil {
			b.Fatal(err)
		}
		done()
	}
}
