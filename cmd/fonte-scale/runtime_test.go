package main

import (
	"runtime"
	"runtime/pprof"
	"testing"
	"time"
)

// TestParseSteal reads the eighth time of /proc/stat's first line, and
// refuses a line that has none.
func TestParseSteal(t *testing.T) {
	got, err := parseSteal("cpu  1357046 186256 157465 624139 9472 0 2801 5859 0 0")
	if err != nil || got != 5859 {
		t.Fatalf("parseSteal = %d, %v; want 5859", got, err)
	}
	for _, bad := range []string{"cpu0 1 2 3 4 5 6 7 8", "cpu 1 2 3", "cpu 1 2 3 4 5 6 7 x"} {
		if _, err := parseSteal(bad); err == nil {
			t.Errorf("parseSteal(%q) took a line with no steal time", bad)
		}
	}
}

// TestRuntimeCountsAnInterval checks the counts of an interval in which
// the process touched fresh memory: its page faults are counted, and no
// time count exceeds what the interval could hold.
func TestRuntimeCountsAnInterval(t *testing.T) {
	before, err := readRuntime()
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	fresh := make([]byte, 64<<20)
	for i := 0; i < len(fresh); i += 4096 {
		fresh[i] = 1
	}
	runtime.KeepAlive(fresh)
	after, err := readRuntime()
	if err != nil {
		t.Fatal(err)
	}
	c := after.since(before)
	if c.MinorFaults < 1000 {
		t.Errorf("touching 64 MiB counted %d minor faults, want at least 1000", c.MinorFaults)
	}
	// Steal is counted per processor, run delay per thread: on a loaded
	// machine more threads than processors wait at once, so each count
	// has its own bound (threads: every thread this process ever made).
	wall := time.Since(start).Seconds()
	if limit := wall*float64(runtime.NumCPU()) + 0.02; c.StealS < 0 || c.StealS > limit {
		t.Errorf("steal %.3f s over an interval of at most %.3f processor seconds", c.StealS, limit)
	}
	threads := pprof.Lookup("threadcreate").Count()
	if limit := wall*float64(threads) + 0.02; c.OSRunDelayS < 0 || c.OSRunDelayS > limit {
		t.Errorf("run delay %.3f s over an interval of at most %.3f thread seconds (%d threads)", c.OSRunDelayS, limit, threads)
	}
}

// TestMemtouchTouchesEveryRound checks the memtouch phase's rounds and
// its refusal of a size or count below one.
func TestMemtouchTouchesEveryRound(t *testing.T) {
	before, err := readRuntime()
	if err != nil {
		t.Fatal(err)
	}
	rounds, err := memtouch(16, 2)
	if err != nil {
		t.Fatal(err)
	}
	after, err := readRuntime()
	if err != nil {
		t.Fatal(err)
	}
	if len(rounds) != 2 {
		t.Fatalf("%d rounds, want 2", len(rounds))
	}
	for i, r := range rounds {
		if r.MiB != 16 || r.Seconds <= 0 || r.GiBPerS <= 0 || r.WorstMs <= 0 {
			t.Errorf("round %d: %+v", i, r)
		}
	}
	// Two rounds of 16 MiB are 8,192 pages, each faulted in once.
	if f := after.since(before).MinorFaults; f < 8192 {
		t.Errorf("two rounds of 16 MiB counted %d minor faults, want at least 8192", f)
	}
	for _, bad := range [][2]int{{0, 1}, {1, 0}} {
		if _, err := memtouch(bad[0], bad[1]); err == nil {
			t.Errorf("memtouch(%d, %d) ran", bad[0], bad[1])
		}
	}
}
