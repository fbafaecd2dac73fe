// Package cores counts the goroutines of fonte's searches that are at work
// on a core, so that one search may borrow an idle core for part of its
// work without ever asking for more cores than the process has.
//
// A search's own goroutine, and any goroutine it runs beside it that
// would run anyway (the hybrid search's dense leg), call Enter before its
// costly part and Leave after: they count whether or not a core is free.
// A goroutine that would be extra help, one a search starts only to
// finish sooner, runs only if TryHelper finds fewer goroutines counted
// than GOMAXPROCS, and calls Leave when done. So with one search at a
// time the second core helps it; with as many searches as cores, or more,
// no search starts a helper and each runs alone, as without this package.
package cores

import (
	"runtime"
	"sync/atomic"
)

var (
	busy  atomic.Int64
	limit = int64(runtime.GOMAXPROCS(0))
)

// Enter counts the calling goroutine as at work, whatever the count.
func Enter() { busy.Add(1) }

// Leave ends what Enter or a successful TryHelper began.
func Leave() { busy.Add(-1) }

// TryHelper counts one more goroutine at work and reports true if fewer
// than GOMAXPROCS (as at the start of the process) were counted; else it
// counts nothing and reports false. It never waits.
func TryHelper() bool {
	for {
		b := busy.Load()
		if b >= limit {
			return false
		}
		if busy.CompareAndSwap(b, b+1) {
			return true
		}
	}
}

// Busy returns how many goroutines are counted now: for tests that check
// that every Enter and granted helper was given back.
func Busy() int { return int(busy.Load()) }

// Saturated reports whether as many goroutines as GOMAXPROCS (as at the
// start of the process), or more, are counted: every core has a search's
// work. Background work that can wait, a write's build, gives way then.
func Saturated() bool { return busy.Load() >= limit }
