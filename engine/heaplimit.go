package engine

import (
	"runtime/debug"
	"sync"
)

// A write holds the Go heap under the indexing memory budget
// (Settings.Memory). The view build that ends a write raises the
// collector's target (disk's GOGC 400, so that the queries served
// meanwhile are not made to mark in its stead), and with no soft limit
// the heap then grew to several times what was live: at a million chunks,
// a write of 10,000 documents held 7.0 GB of heap objects for at most
// 2.6 GB live, above the 6 GiB budget, every page of it touched fresh
// (BENCHMARKS.md, "The write's memory at a million chunks"). With the
// budget as the collector's soft limit, it collects as the heap nears
// the budget instead.

// heapLimit counts the writes in progress that set the soft limit, so
// that the last one to end restores the limit the first one found.
var heapLimit struct {
	sync.Mutex
	writes int
	prev   int64
}

// limitHeap sets the garbage collector's soft memory limit to budget
// until the returned function is called, unless the process's limit is
// already as low (the fonte command sets the budget itself). Writes of
// several engines at once keep the first one's limit.
func limitHeap(budget int64) (restore func()) {
	if budget <= 0 {
		budget = DefaultMemory()
	}
	heapLimit.Lock()
	defer heapLimit.Unlock()
	if heapLimit.writes == 0 {
		heapLimit.prev = debug.SetMemoryLimit(-1)
		if budget < heapLimit.prev {
			debug.SetMemoryLimit(budget)
		}
	}
	heapLimit.writes++
	return func() {
		heapLimit.Lock()
		defer heapLimit.Unlock()
		if heapLimit.writes--; heapLimit.writes == 0 {
			debug.SetMemoryLimit(heapLimit.prev)
		}
	}
}
