package disk

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestReadersDuringWrites has readers loop over Snapshot, through the
// writing Store and through a read-only Store of their own (which reloads
// from the files), while a writer commits replacements, additions and
// deletions. Every snapshot a reader gets must be internally consistent:
// each document's chunks and vectors belong to the version its metadata
// names, and generations never go back.
func TestReadersDuringWrites(t *testing.T) {
	dir := t.TempDir()
	opts := Options{SegmentBytes: 3 * (makeRecordSize() + 10)}
	w := mustOpen(t, dir, testCfg, opts)
	var recs []Record
	for i := range 12 {
		recs = append(recs, makeRecord(fmt.Sprintf("d%02d", i), 0, 3, 8))
	}
	putAll(t, w, recs...)
	ro := mustOpen(t, dir, Config{}, Options{ReadOnly: true})

	var (
		stop     = make(chan struct{})
		wg       sync.WaitGroup
		checked  atomic.Int64
		vanished atomic.Int64
		failures = make(chan error, 16)
	)
	for r := range 4 {
		st := w
		if r%2 == 1 {
			st = ro
		}
		wg.Go(func() {
			var last uint64
			for {
				select {
				case <-stop:
					return
				default:
				}
				snap, err := st.Snapshot()
				if errors.Is(err, fs.ErrNotExist) {
					// Two commits removed the files of the manifest this
					// reader had read, and one retry was not enough.
					vanished.Add(1)
					continue
				}
				if err == nil {
					err = consistent(snap, last)
				}
				if err != nil {
					failures <- err
					return
				}
				last = snap.Generation()
				checked.Add(1)
			}
		})
	}

	rng := rand.New(rand.NewPCG(1, 2))
	for v := 1; v <= 40; v++ {
		err := w.Write(context.Background(), func(tx *Tx) error {
			id := fmt.Sprintf("d%02d", rng.IntN(14))
			if rng.IntN(4) == 0 {
				tx.Delete(id)
				return nil
			}
			return tx.Put(makeRecord(id, v, 1+rng.IntN(4), 8))
		})
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Millisecond)
	}
	close(stop)
	wg.Wait()
	close(failures)
	for err := range failures {
		t.Error(err)
	}
	if err := consistent(mustSnapshot(t, ro), 0); err != nil {
		t.Error(err)
	}
	if fingerprint(mustSnapshot(t, ro)) != fingerprint(mustSnapshot(t, w)) {
		t.Error("the read-only store did not catch up")
	}
	t.Logf("%d snapshots checked, %d reloads raced two commits", checked.Load(), vanished.Load())
}

// consistent checks a snapshot against makeRecord.
func consistent(s *Snapshot, notBefore uint64) error {
	if s.Generation() < notBefore {
		return fmt.Errorf("generation went back from %d to %d", notBefore, s.Generation())
	}
	// The documents' chunk ranges must tile 0..NumChunks exactly.
	covered := make([]bool, s.NumChunks())
	pos := 0
	for _, info := range s.Docs() {
		v, err := strconv.Atoi(info.Meta["version"])
		if err != nil {
			return fmt.Errorf("generation %d: %s has no version", s.Generation(), info.ID)
		}
		start, end, _ := s.ChunkRange(info.ID)
		if start < 0 || end > len(covered) || end-start != info.Chunks {
			return fmt.Errorf("generation %d: %s at chunks %d..%d of %d, want %d chunks", s.Generation(), info.ID, start, end, len(covered), info.Chunks)
		}
		for i := start; i < end; i++ {
			if covered[i] {
				return fmt.Errorf("generation %d: chunk %d belongs to two documents", s.Generation(), i)
			}
			covered[i] = true
			c := s.Chunk(i)
			if c.DocID != info.ID || c.Position != i-start {
				return fmt.Errorf("generation %d: chunk %d is %s", s.Generation(), i, c.ID)
			}
			if !sameBits(s.Vector(i), makeVector(info.ID, v, i-start, 8)) {
				return fmt.Errorf("generation %d: %s chunk %d has another version's vector", s.Generation(), info.ID, i-start)
			}
		}
		pos += end - start
	}
	if pos != s.NumChunks() {
		return fmt.Errorf("generation %d: %d chunks listed, %d stored", s.Generation(), pos, s.NumChunks())
	}
	return nil
}

// TestWritersInOneProcess: Updates on one Store queue up; two Stores on
// one folder exclude each other through the lock file like two processes.
func TestWritersInOneProcess(t *testing.T) {
	dir := t.TempDir()
	a := mustOpen(t, dir, testCfg, Options{})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			err := a.Write(context.Background(), func(tx *Tx) error {
				return tx.Put(makeRecord(fmt.Sprintf("g%d", i), 1, 1, 8))
			})
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if snap := mustSnapshot(t, a); snap.NumDocs() != 8 || snap.Generation() != 8 {
		t.Errorf("%d docs in generation %d", snap.NumDocs(), snap.Generation())
	}

	skipWithoutFlock(t)
	b := mustOpen(t, dir, testCfg, Options{LockTimeout: -1})
	inside, release := make(chan struct{}), make(chan struct{})
	go a.Write(context.Background(), func(tx *Tx) error {
		close(inside)
		<-release
		return nil
	})
	<-inside
	if err := b.Write(context.Background(), func(*Tx) error { return nil }); !errors.Is(err, ErrLocked) {
		t.Errorf("second Store: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	c := mustOpen(t, dir, testCfg, Options{})
	if err := c.Write(ctx, func(*Tx) error { return nil }); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("waiting writer with a deadline: %v", err)
	}
	close(release)
}

// TestViewDoesNotWaitForABuild: while one caller builds the search index
// of a new generation, View serves the previous one at once; ViewLatest
// waits for the new one.
func TestViewDoesNotWaitForABuild(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir, testCfg, Options{})
	putAll(t, s, makeRecord("a", 1, 3, 8))
	first, err := s.View()
	if err != nil {
		t.Fatal(err)
	}
	putAll(t, s, makeRecord("b", 1, 3, 8))
	s.buildMu.Lock() // a build of the new generation is under way
	v, err := s.View()
	if err != nil {
		t.Fatal(err)
	}
	if v != first {
		t.Fatalf("View during a build: generation %d, want the previous view (%d)", v.Snap.Generation(), first.Snap.Generation())
	}
	got := make(chan *View, 1)
	go func() {
		v, err := s.ViewLatest()
		if err != nil {
			t.Error(err)
		}
		got <- v
	}()
	select {
	case <-got:
		t.Fatal("ViewLatest did not wait for the build")
	case <-time.After(100 * time.Millisecond):
	}
	s.buildMu.Unlock()
	latest := <-got
	if latest.Snap.Generation() != first.Snap.Generation()+1 || latest.Index.Len() != 6 {
		t.Fatalf("ViewLatest: generation %d with %d chunks", latest.Snap.Generation(), latest.Index.Len())
	}
	if v, _ := s.View(); v != latest {
		t.Fatal("View after the build is not the new view")
	}
}

// TestReadersNeverBuild: a reader that finds a generation newer than its
// view is served the view it has at once, never building the new one
// itself (which would make a query wait seconds to minutes at scale);
// the new view is built in the background and served once ready.
func TestReadersNeverBuild(t *testing.T) {
	dir := t.TempDir()
	w := mustOpen(t, dir, testCfg, Options{})
	putAll(t, w, makeRecord("a", 1, 3, 8))
	r := mustOpen(t, dir, testCfg, Options{ReadOnly: true})
	first, err := r.View()
	if err != nil {
		t.Fatal(err)
	}
	putAll(t, w, makeRecord("b", 1, 3, 8))
	if snap := mustSnapshot(t, r); snap.Generation() != first.Snap.Generation()+1 {
		t.Fatalf("the reader's snapshot is generation %d", snap.Generation())
	}
	if v, err := r.View(); err != nil || v != first {
		t.Fatalf("View after another writer's commit: %v, %v; want the previous view served at once", v, err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		v, err := r.View()
		if err != nil {
			t.Fatal(err)
		}
		if v != first {
			if v.Snap.Generation() != first.Snap.Generation()+1 || v.Index.Len() != 6 {
				t.Fatalf("background view: generation %d with %d chunks", v.Snap.Generation(), v.Index.Len())
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the new generation's view was never built in the background")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
