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
// barely moved).
package yield

import (
	"runtime"
	"sync/atomic"

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

// ToSearches yields the processor (runtime.Gosched) if a search is in
// flight or every core is counted busy, and reports whether it did. The
// caller keeps its place in the queue: it runs again as soon as a
// processor has nothing else to run, so beside a search that needs no
// processor it runs on, a microsecond later.
func ToSearches() bool {
	if searching.Load() == 0 && !cores.Saturated() {
		return false
	}
	runtime.Gosched()
	return true
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
