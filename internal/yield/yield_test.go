package yield

import (
	"os"
	"os/exec"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/fonte-rag/fonte/internal/cores"
)

// saturate counts as many searches as cores.Saturated needs and returns
// what gives them back.
func saturate(t *testing.T) func() {
	t.Helper()
	restore := withShare(100) // these tests are of when to yield, not how often
	n := 0
	for !cores.Saturated() {
		cores.Enter()
		n++
	}
	return func() {
		for range n {
			cores.Leave()
		}
		restore()
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
	defer withShare(100)()
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

// TestToSearchesRunsAGoroutineQueuedElsewhere: on two processors, a
// search's goroutine woken on the processor of another busy goroutine
// (queued behind it, as a hybrid search's lexical leg woken by its dense
// leg) runs at the writer's next ToSearches on the other processor, not
// when the busy goroutine stops. runtime.Gosched did not do it: the
// writer's processor, with nothing queued of its own, ran the writer
// again. Async preemption is off (in a child process), so that only the
// yield can let the queued goroutine run while the busy one spins.
func TestToSearchesRunsAGoroutineQueuedElsewhere(t *testing.T) {
	if os.Getenv("YIELD_QUEUED_CHILD") != "1" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestToSearchesRunsAGoroutineQueuedElsewhere$", "-test.count=1")
		cmd.Env = append(os.Environ(), "YIELD_QUEUED_CHILD=1", "GODEBUG=asyncpreemptoff=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	defer Searching()()
	var ran, stop atomic.Bool
	busy := make(chan bool)
	writing := make(chan struct{})
	go func() { // the writer
		close(writing)
		for !stop.Load() {
			ToSearches()
		}
	}()
	<-writing
	go func() { // a search's goroutine busy on the other processor
		go ran.Store(true) // queued on this processor, behind it
		// Some seconds of spinning at most, with no call in the loop
		// (no preemption point).
		for i := 0; i < 1e9 && !ran.Load(); i++ {
		}
		busy <- ran.Load()
	}()
	queuedRan := <-busy
	stop.Store(true)
	if !queuedRan {
		t.Fatal("the goroutine queued behind a busy one did not run while a busy goroutine spun for seconds and the writer called ToSearches")
	}
}
