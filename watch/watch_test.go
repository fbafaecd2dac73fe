package watch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Timings: runs are debounced by quiet; a test waits up to deadline for
// something that must happen, and settle for something that must not.
const (
	quiet    = 50 * time.Millisecond
	deadline = 5 * time.Second
	settle   = 400 * time.Millisecond
)

// harness runs a Watcher over root in the background.
type harness struct {
	t      *testing.T
	root   string
	w      *Watcher
	cancel context.CancelFunc
	errc   chan error
	calls  atomic.Int32 // reindex calls started
}

// start creates root's Watcher with reindex (nil means one that succeeds)
// and returns once its initial watches are set.
func start(t *testing.T, root string, reindex func(ctx context.Context) (any, error), o Options) *harness {
	t.Helper()
	h := &harness{t: t, root: root, errc: make(chan error, 1)}
	if reindex == nil {
		reindex = func(context.Context) (any, error) { return "ok", nil }
	}
	if o.Quiet == 0 {
		o.Quiet = quiet
	}
	o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	w, err := New(root, func(ctx context.Context) (any, error) {
		h.calls.Add(1)
		return reindex(ctx)
	}, o)
	if err != nil {
		t.Fatal(err)
	}
	h.w = w
	ready := make(chan struct{})
	w.ready = func() { close(ready) }
	ctx, cancel := context.WithCancel(context.Background())
	h.cancel = cancel
	go func() { h.errc <- w.Run(ctx) }()
	select {
	case <-ready:
	case err := <-h.errc:
		t.Fatalf("Run: %v", err)
	case <-time.After(deadline):
		t.Fatal("watcher not ready")
	}
	t.Cleanup(func() {
		cancel()
		select {
		case <-h.errc:
		case <-time.After(deadline):
			t.Error("Run did not return after cancel")
		}
	})
	return h
}

// waitRuns waits until at least n runs have finished and returns the last.
func (h *harness) waitRuns(n int) Run {
	h.t.Helper()
	end := time.Now().Add(deadline)
	for h.w.Runs() < n {
		if time.Now().After(end) {
			h.t.Fatalf("%d runs after %v, want %d", h.w.Runs(), deadline, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
	r, _ := h.w.Last()
	return r
}

// waitTrigger waits for a finished run whose trigger includes path.
func (h *harness) waitTrigger(path string) Run {
	h.t.Helper()
	end := time.Now().Add(deadline)
	for {
		if r, ok := h.w.Last(); ok && slices.Contains(r.Trigger, path) {
			return r
		}
		if time.Now().After(end) {
			r, _ := h.w.Last()
			h.t.Fatalf("no run triggered by %s after %v (%d runs, last trigger %q)", path, deadline, h.w.Runs(), r.Trigger)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// stays checks that the run count is still n after the settle time.
func (h *harness) stays(n int) {
	h.t.Helper()
	time.Sleep(settle)
	if got := h.w.Runs(); got != n {
		r, _ := h.w.Last()
		h.t.Fatalf("%d runs, want %d (last trigger %q)", got, n, r.Trigger)
	}
	if got := int(h.calls.Load()); got != n {
		h.t.Fatalf("%d reindex calls, want %d", got, n)
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestBurstOneRun(t *testing.T) {
	root := t.TempDir()
	// A longer quiet than the others: 20 writes must fit in one burst even on
	// a loaded machine under -race.
	h := start(t, root, nil, Options{Quiet: 200 * time.Millisecond})
	if _, ok := h.w.Last(); ok {
		t.Fatal("Last reports a run before any change")
	}
	for i := range 20 {
		write(t, filepath.Join(root, fmt.Sprintf("doc%02d.md", i)), "# Doc\n")
	}
	r := h.waitRuns(1)
	h.stays(1)
	if r.Report != "ok" || r.Err != "" {
		t.Errorf("report %v, err %q", r.Report, r.Err)
	}
	if len(r.Trigger) == 0 || len(r.Trigger) > maxTrigger {
		t.Errorf("trigger has %d paths, want 1..%d", len(r.Trigger), maxTrigger)
	}
	if r.Started.IsZero() || r.Finished.Before(r.Started) {
		t.Errorf("started %v, finished %v", r.Started, r.Finished)
	}
}

func TestNewSubdirectory(t *testing.T) {
	root := t.TempDir()
	h := start(t, root, nil, Options{})
	sub := filepath.Join(root, "new", "deeper")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	h.waitRuns(1)
	// The new directories are watched now: a file written inside, well after
	// the run above, must trigger another run naming it.
	doc := filepath.Join(sub, "a.md")
	write(t, doc, "# A\n")
	h.waitTrigger(doc)
}

func TestNewSubdirectoryWithFile(t *testing.T) {
	root := t.TempDir()
	h := start(t, root, nil, Options{})
	// The file may be written before the directory's watch is added: it must
	// still be reported.
	doc := filepath.Join(root, "sub", "b.md")
	write(t, doc, "# B\n")
	h.waitTrigger(doc)
}

func TestDeletion(t *testing.T) {
	root := t.TempDir()
	doc := filepath.Join(root, "dir", "gone.md")
	write(t, doc, "# Gone\n")
	h := start(t, root, nil, Options{})
	if err := os.Remove(doc); err != nil {
		t.Fatal(err)
	}
	h.waitTrigger(doc)
}

func TestDeletedDirectoryRecreated(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "dir")
	write(t, filepath.Join(dir, "a.md"), "# A\n")
	h := start(t, root, nil, Options{})
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	h.waitTrigger(dir)
	doc := filepath.Join(dir, "again.md")
	write(t, doc, "# Again\n")
	h.waitTrigger(doc)
}

func TestRename(t *testing.T) {
	root := t.TempDir()
	from, to := filepath.Join(root, "old.md"), filepath.Join(root, "new.md")
	write(t, from, "# Old\n")
	h := start(t, root, nil, Options{})
	if err := os.Rename(from, to); err != nil {
		t.Fatal(err)
	}
	r := h.waitRuns(1)
	if !slices.Contains(r.Trigger, from) && !slices.Contains(r.Trigger, to) {
		t.Errorf("trigger %q names neither %s nor %s", r.Trigger, from, to)
	}
	h.stays(1)
}

func TestRenamedDirectory(t *testing.T) {
	root := t.TempDir()
	from, to := filepath.Join(root, "a"), filepath.Join(root, "b")
	write(t, filepath.Join(from, "x.md"), "# X\n")
	h := start(t, root, nil, Options{})
	if err := os.Rename(from, to); err != nil {
		t.Fatal(err)
	}
	h.waitRuns(1)
	// The directory is watched under its new name.
	doc := filepath.Join(to, "y.md")
	write(t, doc, "# Y\n")
	h.waitTrigger(doc)
}

func TestIgnoredPath(t *testing.T) {
	root := t.TempDir()
	index := filepath.Join(root, "index")
	write(t, filepath.Join(index, "segment"), "x")
	h := start(t, root, nil, Options{Ignore: []string{index}})
	write(t, filepath.Join(index, "segment"), "y")
	write(t, filepath.Join(index, "sub", "segment"), "z")
	if err := os.Remove(filepath.Join(index, "segment")); err != nil {
		t.Fatal(err)
	}
	h.stays(0)
	// A change elsewhere still counts, and the ignored ones are not in it.
	doc := filepath.Join(root, "a.md")
	write(t, doc, "# A\n")
	r := h.waitTrigger(doc)
	for _, p := range r.Trigger {
		if strings.HasPrefix(p, index) {
			t.Errorf("ignored path %s in trigger", p)
		}
	}
}

func TestHiddenDirectory(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, ".git", "HEAD"), "ref: main\n")
	h := start(t, root, nil, Options{})
	write(t, filepath.Join(root, ".git", "HEAD"), "ref: other\n")
	write(t, filepath.Join(root, ".git", "objects", "ab", "cd"), "x")
	write(t, filepath.Join(root, ".cache", "x.md"), "# X\n")
	write(t, filepath.Join(root, ".hidden.md"), "# Hidden\n")
	h.stays(0)
}

func TestEventDuringSlowRun(t *testing.T) {
	root := t.TempDir()
	started := make(chan struct{}, 10)
	release := make(chan struct{})
	var once sync.Once
	var active, overlap atomic.Int32
	h := start(t, root, func(ctx context.Context) (any, error) {
		if active.Add(1) > 1 {
			overlap.Store(1)
		}
		defer active.Add(-1)
		started <- struct{}{}
		first := false
		once.Do(func() { first = true })
		if first {
			select {
			case <-release:
			case <-ctx.Done():
			}
		}
		return nil, nil
	}, Options{})
	write(t, filepath.Join(root, "a.md"), "# A\n")
	select {
	case <-started:
	case <-time.After(deadline):
		t.Fatal("first run did not start")
	}
	during := filepath.Join(root, "b.md")
	write(t, during, "# B\n")
	write(t, filepath.Join(root, "c.md"), "# C\n")
	// Several debounce periods pass while the first run is still going.
	time.Sleep(4 * quiet)
	if n := h.w.Runs(); n != 0 {
		t.Fatalf("%d runs finished while the first is blocked", n)
	}
	close(release)
	r := h.waitRuns(2)
	if !slices.Contains(r.Trigger, during) {
		t.Errorf("second run trigger %q lacks %s", r.Trigger, during)
	}
	h.stays(2)
	if overlap.Load() != 0 {
		t.Error("two reindex calls ran at once")
	}
}

func TestReindexError(t *testing.T) {
	root := t.TempDir()
	var n atomic.Int32
	h := start(t, root, func(context.Context) (any, error) {
		if n.Add(1) == 1 {
			return nil, errors.New("disk full")
		}
		return 42, nil
	}, Options{})
	write(t, filepath.Join(root, "a.md"), "# A\n")
	if r := h.waitRuns(1); r.Err != "disk full" {
		t.Fatalf("Err %q, want %q", r.Err, "disk full")
	}
	write(t, filepath.Join(root, "b.md"), "# B\n")
	r := h.waitRuns(2)
	if r.Err != "" || r.Report != 42 {
		t.Fatalf("second run: report %v, err %q", r.Report, r.Err)
	}
}

func TestMaxWait(t *testing.T) {
	root := t.TempDir()
	h := start(t, root, nil, Options{Quiet: 200 * time.Millisecond, MaxWait: 400 * time.Millisecond})
	// Changes every 20ms never leave 200ms of quiet, yet a run must start
	// (waitRuns gives up long before the writer stops).
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			if err := os.WriteFile(filepath.Join(root, "busy.md"), []byte(fmt.Sprint(i)), 0o644); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	defer func() { close(stop); <-done }()
	h.waitRuns(1)
}

func TestCancel(t *testing.T) {
	root := t.TempDir()
	started := make(chan struct{})
	h := start(t, root, func(ctx context.Context) (any, error) {
		close(started)
		<-ctx.Done()
		return nil, ctx.Err()
	}, Options{})
	write(t, filepath.Join(root, "a.md"), "# A\n")
	select {
	case <-started:
	case <-time.After(deadline):
		t.Fatal("run did not start")
	}
	// Cancel during a run: Run waits for it, then returns nil.
	h.cancel()
	select {
	case err := <-h.errc:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		h.errc <- nil // for the cleanup
	case <-time.After(2 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
	if r, ok := h.w.Last(); !ok || r.Err == "" {
		t.Errorf("canceled run not recorded: %+v, %v", r, ok)
	}
}

func TestCancelIdle(t *testing.T) {
	h := start(t, t.TempDir(), nil, Options{})
	h.cancel()
	select {
	case err := <-h.errc:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		h.errc <- nil
	case <-time.After(2 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
	if h.w.Runs() != 0 {
		t.Error("reindex called without a change")
	}
}

func TestRootRemoved(t *testing.T) {
	root := filepath.Join(t.TempDir(), "docs")
	write(t, filepath.Join(root, "sub", "a.md"), "# A\n")
	h := start(t, root, nil, Options{})
	if err := os.RemoveAll(root); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-h.errc:
		if err == nil || !strings.Contains(err.Error(), root) {
			t.Fatalf("Run: %v, want an error naming %s", err, root)
		}
		h.errc <- nil
	case <-time.After(deadline):
		t.Fatal("Run did not return after the root was removed")
	}
}

func TestNew(t *testing.T) {
	ok := func(context.Context) (any, error) { return nil, nil }
	missing := filepath.Join(t.TempDir(), "missing")
	if _, err := New(missing, ok, Options{}); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing root: %v", err)
	}
	file := filepath.Join(t.TempDir(), "f")
	write(t, file, "x")
	if _, err := New(file, ok, Options{}); err == nil {
		t.Error("file root accepted")
	}
	if _, err := New(t.TempDir(), nil, Options{}); err == nil {
		t.Error("nil reindex accepted")
	}
	w, err := New(t.TempDir(), ok, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if w.quiet != 500*time.Millisecond || w.maxWait != 5*time.Second {
		t.Errorf("defaults: quiet %v, max wait %v", w.quiet, w.maxWait)
	}
}

func TestRunTwice(t *testing.T) {
	h := start(t, t.TempDir(), nil, Options{})
	if err := h.w.Run(context.Background()); err == nil {
		t.Error("second concurrent Run accepted")
	}
}

// TestCatchUp: with CatchUp, Run re-indexes once as soon as the folder is
// watched, with no change to trigger it (a server catching up with what
// changed while it was down), and a change after it runs again; without
// it, Run waits for a change.
func TestCatchUp(t *testing.T) {
	root := t.TempDir()
	h := start(t, root, nil, Options{CatchUp: true})
	if r := h.waitRuns(1); !slices.Equal(r.Trigger, []string{h.w.Root()}) {
		t.Errorf("the catch-up run's trigger: %q, want the root", r.Trigger)
	}
	h.stays(1)
	write(t, filepath.Join(root, "a.md"), "# A\n")
	h.waitTrigger(filepath.Join(h.w.Root(), "a.md"))

	start(t, t.TempDir(), nil, Options{}).stays(0)
}

// TestRetryAfterFailure: a run that fails (a store down, a lock another
// writer holds) is tried again by itself, later each time, with the
// changes that triggered it, until one succeeds; then the watcher waits
// for changes again. Without the retry, a.md stayed out of the index
// until some other file changed.
func TestRetryAfterFailure(t *testing.T) {
	root := t.TempDir()
	var n atomic.Int32
	h := start(t, root, func(context.Context) (any, error) {
		if n.Add(1) <= 2 {
			return nil, errors.New("store unavailable")
		}
		return "ok", nil
	}, Options{})
	write(t, filepath.Join(root, "a.md"), "# A\n")
	r := h.waitRuns(3)
	if r.Err != "" || !slices.Contains(r.Trigger, filepath.Join(h.w.Root(), "a.md")) {
		t.Fatalf("third run: err %q, trigger %q", r.Err, r.Trigger)
	}
	h.stays(3)
}

// TestBackoff: the retries wait Quiet, then twice as long each time, up
// to RetryMax.
func TestBackoff(t *testing.T) {
	l := &loop{w: &Watcher{quiet: time.Second, retry: 5 * time.Second}}
	for fails, want := range []time.Duration{1: time.Second, 2: 2 * time.Second, 3: 4 * time.Second, 4: 5 * time.Second, 30: 5 * time.Second} {
		if fails == 0 || (want == 0) {
			continue
		}
		l.fails = fails
		if got := l.backoff(); got != want {
			t.Errorf("after %d failures: %v, want %v", fails, got, want)
		}
	}
}
