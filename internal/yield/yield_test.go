package yield

import (
	"runtime"
	"testing"

	"github.com/fonte-rag/fonte/internal/cores"
)

// saturate counts as many searches as cores.Saturated needs and returns
// what gives them back.
func saturate(t *testing.T) func() {
	t.Helper()
	n := 0
	for !cores.Saturated() {
		cores.Enter()
		n++
	}
	return func() {
		for range n {
			cores.Leave()
		}
	}
}

// TestToSearchesRunsAWaitingGoroutine: on one processor, with every core
// counted busy, a goroutine that is ready to run runs at the writer's
// next ToSearches, not when the scheduler preempts the writer (10 ms).
func TestToSearchesRunsAWaitingGoroutine(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	defer saturate(t)()
	ran := make(chan struct{})
	go close(ran)
	for i := range 100 {
		if !ToSearches() {
			t.Fatalf("ToSearches did not yield with every core counted busy (call %d)", i)
		}
		select {
		case <-ran:
			return
		default:
		}
	}
	t.Fatal("the waiting goroutine did not run during 100 ToSearches on one processor")
}

// TestToSearchesIdle: with a core free, ToSearches does not yield.
func TestToSearchesIdle(t *testing.T) {
	if cores.Saturated() {
		t.Fatalf("cores saturated with no search: %d counted", cores.Busy())
	}
	if ToSearches() {
		t.Fatal("ToSearches yielded with no search counted")
	}
}

// TestEveryStep: Step offers to yield once every n units, counting
// weighted steps.
func TestEveryStep(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	defer saturate(t)()
	e := NewEvery(4)
	ran := make(chan struct{})
	go close(ran)
	for range 3 {
		e.Step(1)
	}
	select {
	case <-ran:
		t.Fatal("Every(4) yielded before 4 units")
	default:
	}
	e.Step(1)
	select {
	case <-ran:
	default:
		t.Fatal("Every(4) did not yield at the 4th unit")
	}
	if e.left != 4 {
		t.Fatalf("after a yield %d units left, want 4", e.left)
	}
	e.Step(10) // a step past n yields at once
	if e.left != 4 {
		t.Fatalf("after a step of 10 units %d left, want 4", e.left)
	}
}

// TestToSearchesWhileSearching: a search in flight makes ToSearches yield
// with no core counted busy, and its end stops it.
func TestToSearchesWhileSearching(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	done := Searching()
	ran := make(chan struct{})
	go close(ran)
	if !ToSearches() {
		t.Fatal("ToSearches did not yield with a search in flight")
	}
	select {
	case <-ran:
	default:
		t.Fatal("the waiting goroutine did not run at ToSearches")
	}
	done()
	if ToSearches() {
		t.Fatal("ToSearches yielded after the search ended")
	}
}
