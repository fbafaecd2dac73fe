package cores

import (
	"sync"
	"testing"
)

// TestTryHelperNeverExceedsLimit: whatever goroutines enter, helpers are
// granted only while fewer than limit are counted, and every grant is
// given back.
func TestTryHelperNeverExceedsLimit(t *testing.T) {
	old := limit
	limit = 3
	defer func() { limit = old }()

	Enter()
	granted := 0
	for range 5 {
		if TryHelper() {
			granted++
		}
	}
	if granted != 2 {
		t.Fatalf("one goroutine entered, limit 3: %d helpers granted, want 2", granted)
	}
	Enter() // a search that runs anyway counts past the limit
	if got := busy.Load(); got != 4 {
		t.Fatalf("busy %d after two entries and two helpers, want 4", got)
	}
	Leave() // one helper given back: 3 counted
	if TryHelper() {
		t.Fatal("a helper granted with 3 counted, limit 3")
	}
	Leave() // the second helper: 2 counted
	if !TryHelper() {
		t.Fatal("no helper granted with 2 counted, limit 3")
	}
	Leave()
	Leave()
	Leave()
	if got := busy.Load(); got != 0 {
		t.Fatalf("busy %d after every Leave, want 0", got)
	}
}

// TestTryHelperConcurrent: many goroutines racing for helpers never hold
// more than limit at once.
func TestTryHelperConcurrent(t *testing.T) {
	old := limit
	limit = 2
	defer func() { limit = old }()
	var wg sync.WaitGroup
	var mu sync.Mutex
	held, most := 0, 0
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 1000 {
				if !TryHelper() {
					continue
				}
				mu.Lock()
				held++
				most = max(most, held)
				mu.Unlock()
				mu.Lock()
				held--
				mu.Unlock()
				Leave()
			}
		}()
	}
	wg.Wait()
	if most > 2 {
		t.Fatalf("%d helpers held at once, limit 2", most)
	}
	if got := busy.Load(); got != 0 {
		t.Fatalf("busy %d at the end, want 0", got)
	}
}

// TestSaturated: saturated once limit goroutines are counted, helpers
// included, and not before.
func TestSaturated(t *testing.T) {
	old := limit
	limit = 2
	defer func() { limit = old }()
	if Saturated() {
		t.Fatal("saturated with nothing counted")
	}
	Enter()
	if Saturated() {
		t.Fatal("saturated with 1 counted, limit 2")
	}
	if !TryHelper() {
		t.Fatal("no helper with 1 counted, limit 2")
	}
	if !Saturated() {
		t.Fatal("not saturated with 2 counted, limit 2")
	}
	Enter()
	if !Saturated() {
		t.Fatal("not saturated with 3 counted, limit 2")
	}
	Leave()
	Leave()
	Leave()
}
