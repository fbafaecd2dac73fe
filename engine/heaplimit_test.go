package engine

import (
	"context"
	"math"
	"path/filepath"
	"runtime/debug"
	"testing"

	"github.com/fonte-rag/fonte"
)

// TestWriteLimitsHeap: while a write runs, the collector's soft limit
// is the engine's memory budget (a process with no limit of its own let
// a write's heap grow past it); after the write, the process's own limit
// is back, and a lower one the process set is left alone.
func TestWriteLimitsHeap(t *testing.T) {
	prev := debug.SetMemoryLimit(math.MaxInt64)
	defer debug.SetMemoryLimit(prev)
	ctx := context.Background()
	const budget = 3 << 30
	e, err := Open(ctx, Settings{IndexDir: filepath.Join(t.TempDir(), "index"), Memory: budget}, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	docs := []fonte.Document{{ID: "a", Text: "the first document"}, {ID: "b", Text: "the second document"}}
	var during []int64
	write := func() {
		t.Helper()
		during = during[:0]
		_, err := e.IndexDocuments(ctx, docs, true, func(Progress) { during = append(during, debug.SetMemoryLimit(-1)) })
		if err != nil {
			t.Fatal(err)
		}
		if len(during) != len(docs) {
			t.Fatalf("progress called %d times for %d documents", len(during), len(docs))
		}
	}
	write()
	for _, l := range during {
		if l != budget {
			t.Fatalf("soft memory limit %d during the write, want the budget %d", l, int64(budget))
		}
	}
	if l := debug.SetMemoryLimit(-1); l != math.MaxInt64 {
		t.Fatalf("soft memory limit %d after the write, want the process's %d", l, int64(math.MaxInt64))
	}

	debug.SetMemoryLimit(1 << 30)
	docs = append(docs, fonte.Document{ID: "c", Text: "a third one"})
	write()
	for _, l := range during {
		if l != 1<<30 {
			t.Fatalf("soft memory limit %d during the write, want the process's lower %d", l, 1<<30)
		}
	}
	if l := debug.SetMemoryLimit(-1); l != 1<<30 {
		t.Fatalf("soft memory limit %d after the write, want the process's %d", l, 1<<30)
	}
}

// TestLimitHeapNested: overlapping writes keep the first one's limit,
// and the last to end restores the process's.
func TestLimitHeapNested(t *testing.T) {
	prev := debug.SetMemoryLimit(math.MaxInt64)
	defer debug.SetMemoryLimit(prev)
	r1 := limitHeap(2 << 30)
	r2 := limitHeap(4 << 30)
	if l := debug.SetMemoryLimit(-1); l != 2<<30 {
		t.Fatalf("limit %d with two writes, want the first's %d", l, 2<<30)
	}
	r1()
	if l := debug.SetMemoryLimit(-1); l != 2<<30 {
		t.Fatalf("limit %d with one write left, want %d", l, 2<<30)
	}
	r2()
	if l := debug.SetMemoryLimit(-1); l != math.MaxInt64 {
		t.Fatalf("limit %d after both, want %d", l, int64(math.MaxInt64))
	}
}
