package disk

import (
	"runtime"
	"runtime/debug"
	"sync"
)

// buildGCPercent is the collector's target (GOGC) while a view is built
// beside serving readers. The build allocates fast (every chunk decoded,
// enriched and analysed to be counted once) over a live heap the lexical
// builder's postings fill up to the memory budget. At GOGC 100 the
// collector then runs every second or two, each cycle marking that heap
// while the build allocates toward the goal; a query that allocates when
// the headroom is nearly gone is made to mark in the build's stead (a
// hybrid query of 300 ms at 100,000 chunks, 295 of them GC assist), and
// every cycle stops the world twice, which on a loaded machine takes
// milliseconds. Four times the live heap in headroom makes the cycles
// rarer and their assists small; the heap can grow to five times what is
// live during the build (the build's live heap is bounded by
// Options.TxMemory, not by the corpus), and GOMEMLIMIT, when set, still
// caps it.
const buildGCPercent = 400

// buildGC counts the view builds that raised the collector's target, so
// that the last one to end restores the target it found.
var buildGC struct {
	sync.Mutex
	builds int
	prev   int
}

// relaxGC raises the collector's target to buildGCPercent until the
// returned function is called, unless it is already higher or off.
func relaxGC() (restore func()) {
	buildGC.Lock()
	defer buildGC.Unlock()
	if buildGC.builds == 0 {
		buildGC.prev = debug.SetGCPercent(buildGCPercent)
		if buildGC.prev < 0 || buildGC.prev > buildGCPercent {
			debug.SetGCPercent(buildGC.prev) // the process chose: leave it
		}
	}
	buildGC.builds++
	return func() {
		buildGC.Lock()
		defer buildGC.Unlock()
		if buildGC.builds--; buildGC.builds == 0 {
			if buildGC.prev >= 0 && buildGC.prev < buildGCPercent {
				// The heap may have grown past the lower target's goal:
				// restored now, a collection would start behind it, and
				// every query that allocated would mark until it caught
				// up. Collect at the relaxed target first, on the
				// build's own time, so the lower goal starts from what
				// is live.
				runtime.GC()
			}
			debug.SetGCPercent(buildGC.prev)
		}
	}
}
