// Package yield lets a write's goroutines give way to searches.
//
// A write (the view build's lexical and graph work, its copies and its
// persist) runs beside the searches it must not slow. On two cores, two
// searches and one build goroutine are three runnable goroutines for two
// processors: the scheduler lets the build run until the runtime preempts
// it, 10 ms later, and a search that was preempted or woke up meanwhile
// (a hybrid search's dense leg, a search after a collection's assist)
// waits all that time in the run queue. That wait was most of the p99 of
// 22-26 ms of hybrid and BM25 with two query goroutines during a write at
// a million chunks (BENCHMARKS.md, "Readers beside a write").
//
// ToSearches, called by the write between small steps of its work, hands
// the processor to any goroutine waiting for one while a search is in
// flight (Searching) or every core is counted busy with a search's costly
// part (internal/cores): a search waits for one step, not for a time
// slice. With no search it does nothing. The cores' count alone was not
// enough: it covers a search's costly parts only, and a search preempted
// outside them (reading its hits' chunks, fusing) waited as before
// (session 32: the readers' waits for a processor in the execution trace
// barely moved). Nor was runtime.Gosched (session 33): it hands the
// processor only to goroutines queued on the writer's own processor, and
// a search's goroutine woken on the other one waited there while the
// writer ran on; ToSearches now leaves the processor for the scheduler to
// fill from either queue (see ToSearches).
//
// Nor may a write give way without end: readers in a closed loop always
// have a goroutine waiting, and a writer that yielded at every step ran
// only in their gaps. ToSearches gives away at most a share of the time
// (share.go), so a write beside busy readers is slower by a bounded
// factor.
package yield

import (
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"time"

	"github.com/fonte-rag/fonte/internal/cores"
)

// searching counts the searches in flight (Searching).
var searching atomic.Int64

// Searching counts a search in flight until the returned function is
// called: the engine's Search calls it, so that a write gives way to the
// whole search, not only to its costly parts.
func Searching() (done func()) {
	searching.Add(1)
	return searchDone
}

func searchDone() { searching.Add(-1) }

// ToSearches gives the processor to a goroutine waiting for one, if a
// search is in flight or every core is counted busy and the write has
// not given away its share of the time (share.go), and reports whether
// it did. It does so by sleeping (parkFor), not by runtime.Gosched: a
// goroutine that Gosched puts back runs again at once on its processor
// when that processor's own queue is empty, even while a search's
// goroutine waits in the other processor's queue (woken there by its
// other leg, behind another search), and that wait was most of the
// 2-goroutine hybrid p99 during a write (session 33). A sleeping
// goroutine leaves its processor to look for work elsewhere: it takes the
// waiting goroutine from the other queue. With no goroutine waiting
// (the scheduler's count, runtime/metrics) it does not sleep: a free
// processor costs a search nothing.
func ToSearches() bool {
	if searching.Load() == 0 && !cores.Saturated() {
		return false
	}
	if !othersWaiting() || !writerShare.mayGive(time.Now()) {
		return false
	}
	start := time.Now()
	time.Sleep(parkFor)
	// The timer that wakes it puts it first in line on the processor
	// that ran the timer, ahead of a search's goroutine waiting there (in
	// the benchmark's split readers that was 0.4 ms more on the median
	// query); Gosched sends it to the back.
	runtime.Gosched()
	writerShare.gave(time.Since(start))
	return true
}

// parkFor is how long ToSearches sleeps: short, since the writer only
// needs to be off its processor while the scheduler looks for another
// goroutine; when every processor is busy, it waits in a queue after it
// anyway. (With every processor idle the runtime's timer rounds it up to
// a millisecond.)
const parkFor = 20 * time.Microsecond

// runnableMetric is the scheduler's count of goroutines ready to run and
// not running.
const runnableMetric = "/sched/goroutines/runnable:goroutines"

// othersWaiting reports whether a goroutine is ready to run and waits for
// a processor. It reads the scheduler's count, about a microsecond: the
// write's steps are far longer.
func othersWaiting() bool {
	s := [1]metrics.Sample{{Name: runnableMetric}}
	metrics.Read(s[:])
	return s[0].Value.Kind() == metrics.KindUint64 && s[0].Value.Uint64() > 0
}

// Every calls ToSearches once every n calls of Step: for a loop whose
// steps are too small to yield at each one.
type Every struct {
	n, left int
}

// NewEvery returns an Every that yields every n steps (n < 1 means every
// step).
func NewEvery(n int) *Every { return &Every{n: max(n, 1), left: max(n, 1)} }

// Step counts w units of work and calls ToSearches each time n units or
// more have been counted since the last call.
func (e *Every) Step(w int) {
	if e.left -= w; e.left > 0 {
		return
	}
	e.left = e.n
	ToSearches()
}
