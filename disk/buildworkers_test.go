package disk

import (
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// overlapAnalyzer splits on spaces and records the most calls that ran at
// once: the view build analyses chunks on its workers, so that is how many
// processors the build took.
type overlapAnalyzer struct {
	running, most atomic.Int32
}

func (a *overlapAnalyzer) Analyze(text string) []string {
	n := a.running.Add(1)
	for {
		m := a.most.Load()
		if n <= m || a.most.CompareAndSwap(m, n) {
			break
		}
	}
	// Long enough that the workers' calls overlap however the scheduler
	// orders them; sleeping needs no processor, so load cannot hide it.
	time.Sleep(200 * time.Microsecond)
	a.running.Add(-1)
	return strings.Fields(text)
}

// takeMost returns the most calls that ran at once since the last call.
func (a *overlapAnalyzer) takeMost() int { return int(a.most.Swap(0)) }

// TestViewBuildLeavesReadersAProcessor: a view built while an earlier one
// serves queries (after a writer's commit) analyses on GOMAXPROCS-1
// goroutines, so a query never waits behind a build that holds every
// processor (on two cores that made queries of hundreds of milliseconds
// during a write). The first view, which queries wait for, uses them all.
func TestViewBuildLeavesReadersAProcessor(t *testing.T) {
	old := PersistMinChunks
	PersistMinChunks = 5 // the writer's lexical build, as at a million chunks
	t.Cleanup(func() { PersistMinChunks = old })
	const procs = 4
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))

	an := &overlapAnalyzer{}
	s := analysedStore(t, an, 64)
	if _, err := s.ViewLatest(); err != nil {
		t.Fatal(err)
	}
	if got := an.takeMost(); got != procs {
		t.Fatalf("the first view analysed on %d goroutines at once, want %d (GOMAXPROCS)", got, procs)
	}

	putAll(t, s, makeRecord("doc999", 1, 4, testCfg.Dim))
	v, err := s.ViewLatest()
	if err != nil {
		t.Fatal(err)
	}
	if v.lexical == nil {
		t.Fatal("the second view did not build its lexical index: the test does not reach the writer's build")
	}
	if got := an.takeMost(); got != procs-1 {
		t.Fatalf("a view built beside a serving one analysed on %d goroutines at once, want %d (GOMAXPROCS-1)", got, procs-1)
	}
}
