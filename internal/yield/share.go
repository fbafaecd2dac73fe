package yield

import (
	"os"
	"strconv"
	"sync"
	"time"
)

// A floor on the write's share of its processors. Searches in a closed
// loop always have a goroutine waiting, so a writer that gave way at
// every step ran only in the gaps: 1.8× slower during a write beside four
// query goroutines at a million chunks (118–128 s against 63–69 s,
// BENCHMARKS.md, "Readers beside a write"). ToSearches therefore gives
// away at most a share of the wall-clock time, a token bucket: credit
// accrues at that share of the time that passes, up to a small burst,
// and each yield spends the time it took (the sleep and the wait in a
// run queue for a processor). With no credit left the writer runs on
// until it has earned some back, so a reader waits at most about one
// yield's length times (1-share)/share for it, not a 10 ms time slice.
// The credit is shared by all the write's goroutines.

// shareBurst is the most credit that builds up while no yield spends it:
// enough for a few yields behind a search at once.
const shareBurst = 2 * time.Millisecond

// defaultGiveShare is the share of the wall-clock time the write may give
// away to searches, in percent; FONTE_YIELD_SHARE overrides it (100 gives
// way at every step; 0 never). It is 100, no floor: at a million chunks
// with searches taking turns (internal/admit), 25% put the 2-goroutine
// hybrid p99 during a write at 22.7 ms and 50% the 4-goroutine one at
// 19.3-21.2 ms, against 9.6-11.8 and 13.5-14.6 ms with none, for a writer
// 1.6-1.9x faster (BENCHMARKS.md, "Searches that take turns at a million
// chunks"). Readers' tails are the target; the write's time is not.
const defaultGiveShare = 100

// bucket is the write's credit for yielding.
type bucket struct {
	mu     sync.Mutex
	share  float64 // of the time that passes, what accrues as credit
	credit time.Duration
	at     time.Time // when credit was last brought up to date
}

var writerShare = newBucket(giveShareFromEnv())

func newBucket(percent int) *bucket {
	return &bucket{share: float64(min(max(percent, 0), 100)) / 100, credit: shareBurst}
}

// giveShareFromEnv reads FONTE_YIELD_SHARE (percent), else the default.
func giveShareFromEnv() int {
	if n, err := strconv.Atoi(os.Getenv("FONTE_YIELD_SHARE")); err == nil {
		return n
	}
	return defaultGiveShare
}

// mayGive brings the credit up to now and reports whether there is any.
func (b *bucket) mayGive(now time.Time) bool {
	if b.share >= 1 {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.at.IsZero() && now.After(b.at) {
		b.credit = min(b.credit+time.Duration(b.share*float64(now.Sub(b.at))), shareBurst)
	}
	b.at = now
	return b.credit > 0
}

// gave spends d, the length of one yield.
func (b *bucket) gave(d time.Duration) {
	if b.share >= 1 {
		return
	}
	b.mu.Lock()
	b.credit -= d
	b.mu.Unlock()
}
