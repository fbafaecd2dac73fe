package yield

import (
	"runtime"
	"testing"
	"time"
)

// withShare puts a fresh bucket of the given share in writerShare for a
// test and returns what restores the old one.
func withShare(percent int) func() {
	old := writerShare
	writerShare = newBucket(percent)
	return func() { writerShare = old }
}

// TestBucketBoundsTheShare: a writer that yields at every chance, each
// yield taking 3 ms (a search's query ahead of it) and each step 200 µs,
// gives away at most the bucket's share of the time, plus its burst.
func TestBucketBoundsTheShare(t *testing.T) {
	for _, percent := range []int{10, 25, 50} {
		b := newBucket(percent)
		now := time.Unix(0, 0)
		start := now
		var given time.Duration
		for range 20000 {
			now = now.Add(200 * time.Microsecond) // a step of work
			if b.mayGive(now) {
				now = now.Add(3 * time.Millisecond)
				given += 3 * time.Millisecond
				b.gave(3 * time.Millisecond)
			}
		}
		total := now.Sub(start)
		most := time.Duration(float64(percent)/100*float64(total)) + shareBurst + 3*time.Millisecond
		least := time.Duration(float64(percent)/100*float64(total)) - 3*time.Millisecond
		if given > most || given < least {
			t.Errorf("share %d%%: gave %v of %v, want within one yield and the burst of %d%% (%v)",
				percent, given, total, percent, time.Duration(float64(percent)/100*float64(total)))
		}
	}
}

// TestBucketWaitsForCredit: after a yield longer than its credit the
// writer runs until the share of the time passed has paid it back, and
// not longer.
func TestBucketWaitsForCredit(t *testing.T) {
	b := newBucket(25)
	t0 := time.Unix(0, 0)
	if !b.mayGive(t0) {
		t.Fatal("a fresh bucket refused a yield")
	}
	b.gave(10 * time.Millisecond) // credit 2 - 10 = -8 ms
	if b.mayGive(t0.Add(31 * time.Millisecond)) {
		t.Fatal("yield allowed 31 ms after 8 ms of debt at 25% (7.75 ms paid back)")
	}
	if !b.mayGive(t0.Add(33 * time.Millisecond)) {
		t.Fatal("yield refused 33 ms after 8 ms of debt at 25% (8.25 ms paid back)")
	}
	// Idle time earns no more than the burst.
	b = newBucket(25)
	b.mayGive(t0)
	b.mayGive(t0.Add(time.Hour))
	b.gave(shareBurst + time.Microsecond)
	if b.mayGive(t0.Add(time.Hour)) {
		t.Fatal("an hour idle earned more credit than the burst")
	}
}

// TestBucketFullShare: at 100% the writer may always give way, as before
// the floor.
func TestBucketFullShare(t *testing.T) {
	b := newBucket(100)
	b.gave(time.Hour)
	if !b.mayGive(time.Unix(0, 0)) {
		t.Fatal("a bucket of 100% refused a yield")
	}
}

// TestToSearchesKeepsTheFloor: with the write's credit spent, ToSearches
// does not give way even while a search is in flight and a goroutine
// waits for a processor.
func TestToSearchesKeepsTheFloor(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	defer withShare(25)()
	defer Searching()()
	writerShare.mayGive(time.Now())
	writerShare.gave(time.Hour)
	ran := make(chan struct{})
	go close(ran)
	if ToSearches() {
		t.Fatal("ToSearches gave way with the write's credit spent")
	}
	select {
	case <-ran:
		t.Fatal("the waiting goroutine ran although the writer kept its processor")
	default:
	}
	writerShare = newBucket(25)
	if !ToSearches() {
		t.Fatal("ToSearches did not give way with credit")
	}
	<-ran
}
