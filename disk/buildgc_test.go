package disk

import (
	"fmt"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/fonte-rag/fonte/analysis"
	"github.com/fonte-rag/fonte/retrieve"
)

// gcPercent reads the collector's target without changing it.
func gcPercent() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64())
}

// gogcAnalyzer splits on spaces and records the collector's target while
// the view build analyses.
type gogcAnalyzer struct{ seen atomic.Int64 }

func (a *gogcAnalyzer) Analyze(text string) []string {
	a.seen.Store(int64(gcPercent()))
	return strings.Fields(text)
}

// TestViewBuildRelaxesGC: a view built while an earlier one serves queries
// runs with the collector's target at buildGCPercent, so its garbage does
// not start a cycle every second or two whose mark assists queries pay
// for, and the target is restored once it is built. The first view, which
// no reader is served beside, leaves the target alone.
func TestViewBuildRelaxesGC(t *testing.T) {
	old := PersistMinChunks
	PersistMinChunks = 5 // the writer's lexical build, as at a million chunks
	t.Cleanup(func() { PersistMinChunks = old })
	defer debug.SetGCPercent(debug.SetGCPercent(100))

	an := &gogcAnalyzer{}
	s := mustOpen(t, t.TempDir(), testCfg, Options{Analyzers: retrieve.Analyzers{Default: an}})
	var recs []Record
	for i := range 16 {
		recs = append(recs, makeRecord(fmt.Sprintf("doc%03d", i), 1, 4, testCfg.Dim))
	}
	putAll(t, s, recs...)
	if _, err := s.ViewLatest(); err != nil {
		t.Fatal(err)
	}
	if got := an.seen.Load(); got != 100 {
		t.Fatalf("the first view was built at GOGC %d, want the process's 100", got)
	}

	putAll(t, s, makeRecord("doc999", 1, 4, testCfg.Dim))
	if _, err := s.ViewLatest(); err != nil {
		t.Fatal(err)
	}
	if got := an.seen.Load(); got != buildGCPercent {
		t.Fatalf("a view built beside a serving one ran at GOGC %d, want %d", got, buildGCPercent)
	}
	if got := gcPercent(); got != 100 {
		t.Fatalf("after the build GOGC is %d, want the 100 it found", got)
	}

	// A process that chose a higher target keeps it.
	debug.SetGCPercent(1000)
	putAll(t, s, makeRecord("doc998", 1, 4, testCfg.Dim))
	if _, err := s.ViewLatest(); err != nil {
		t.Fatal(err)
	}
	if got := an.seen.Load(); got != 1000 {
		t.Fatalf("with GOGC 1000 the build ran at %d, want 1000", got)
	}
	if got := gcPercent(); got != 1000 {
		t.Fatalf("after the build GOGC is %d, want 1000", got)
	}
}

// analysedStore is a store whose chunks an analyses, holding docs
// documents of 4 chunks.
func analysedStore(t *testing.T, an analysis.Analyzer, docs int) *Store {
	s := mustOpen(t, t.TempDir(), testCfg, Options{Analyzers: retrieve.Analyzers{Default: an}})
	var recs []Record
	for i := range docs {
		recs = append(recs, makeRecord(fmt.Sprintf("doc%03d", i), 1, 4, testCfg.Dim))
	}
	putAll(t, s, recs...)
	return s
}

// garbageAnalyzer splits on spaces and leaves garbage behind, as a view
// build's decoding and analysis does, so that the heap grows well past
// twice what is live while the build runs at GOGC 400.
type garbageAnalyzer struct{ sink atomic.Pointer[[]byte] }

func (a *garbageAnalyzer) Analyze(text string) []string {
	b := make([]byte, 4<<20)
	a.sink.Store(&b)
	return strings.Fields(text)
}

// heapAgainstGoal reads the heap's objects (live and not yet swept) and
// the collector's current goal.
func heapAgainstGoal() (heap, goal uint64) {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/goal:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64(), s[1].Value.Uint64()
}

// TestViewBuildRestoresGCBelowGoal: when a build beside serving readers
// ends, the heap its garbage grew at GOGC 400 is collected before the
// process's target is restored, so the restored target does not find the
// heap past its goal. Found so, the next cycle starts behind, and every
// query that allocates marks until it catches up: queries of hundreds of
// milliseconds at the end of a write.
func TestViewBuildRestoresGCBelowGoal(t *testing.T) {
	old := PersistMinChunks
	PersistMinChunks = 5
	t.Cleanup(func() { PersistMinChunks = old })
	defer debug.SetGCPercent(debug.SetGCPercent(100))

	s := analysedStore(t, &garbageAnalyzer{}, 64)
	if _, err := s.ViewLatest(); err != nil {
		t.Fatal(err)
	}
	putAll(t, s, makeRecord("doc999", 1, 4, testCfg.Dim))
	if _, err := s.ViewLatest(); err != nil {
		t.Fatal(err)
	}
	if heap, goal := heapAgainstGoal(); heap > goal {
		t.Fatalf("after the build the heap holds %d MiB against a goal of %d MiB: the restored target starts a collection behind", heap>>20, goal>>20)
	}
}
