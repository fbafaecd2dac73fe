// Package watch keeps a folder's index fresh without a cron job: it watches
// the folder (recursively) for changes and calls a re-index function once per
// burst of changes, never two at once.
//
// fsnotify is not recursive, so a Watcher adds a watch for every
// subdirectory, adds new directories as they appear and drops the watches of
// deleted or renamed ones. Hidden files and directories (name starting with
// '.') are skipped, as the ingester skips them too, and so are the Ignore
// paths (typically the index folder when it lies inside the watched folder,
// whose every commit would otherwise trigger another run).
package watch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fsnotify/fsnotify"
)

// maxTrigger bounds Run.Trigger: a checkout of thousands of files needs a
// sample in /v1/status, not the whole list.
const maxTrigger = 20

// Options configure a Watcher. The zero value is usable.
type Options struct {
	// Quiet is the debounce: a run starts after this long without events
	// (default 500ms).
	Quiet time.Duration
	// MaxWait bounds the debounce: a run starts at the latest this long after
	// the first event of a burst (default 5s), so a folder that never stops
	// changing is still indexed. A MaxWait below Quiet is raised to Quiet.
	MaxWait time.Duration
	// Ignore lists paths whose events are ignored, with everything under
	// them, e.g. the index folder when it lies inside the watched folder.
	// Relative paths are made absolute against the working directory.
	Ignore []string
	// Logger receives run results and watch errors; nil means slog.Default().
	Logger *slog.Logger
	// RetryMax bounds the wait before a failed run is tried again: the
	// first retry comes Quiet after the failure, each next one twice as
	// late, up to RetryMax (default 5m), until a run succeeds. A failed
	// run changed nothing (a store that was down, a lock another writer
	// held), so its changes are still to be indexed.
	RetryMax time.Duration
	// CatchUp makes Run re-index once as soon as the folder is watched,
	// for a caller that has not indexed first (a server started over a
	// folder that changed while it was down): watching before that run
	// loses no change made during it.
	CatchUp bool
}

// Run is one re-index of the folder; the last finished one is kept as the
// watcher's report.
type Run struct {
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished"`
	// Trigger holds up to 20 of the paths whose change caused the run, in
	// the order they were first seen.
	Trigger []string `json:"trigger"`
	// Report is what the re-index function returned.
	Report any `json:"report,omitempty"`
	// Err is the re-index error, empty on success.
	Err string `json:"error,omitempty"`
}

// Watcher re-indexes a folder when its contents change. Create one with New
// and start it with Run; Last and Runs are safe to call from any goroutine.
type Watcher struct {
	root    string
	reindex func(ctx context.Context) (any, error)
	quiet   time.Duration
	maxWait time.Duration
	ignore  []string
	log     *slog.Logger
	catchUp bool
	retry   time.Duration // RetryMax

	running atomic.Bool // guards against two Run calls, hence two reindex calls
	ready   func()      // tests: called once the initial watches are set

	mu   sync.Mutex
	last Run
	runs int
}

// New returns a Watcher of the directory root that calls reindex once per
// burst of changes. It does not call reindex itself unless o.CatchUp: the
// caller indexes first, then calls Run.
func New(root string, reindex func(ctx context.Context) (any, error), o Options) (*Watcher, error) {
	if reindex == nil {
		return nil, errors.New("watch: nil reindex function")
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("watch: %s: %w", root, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("watch: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("watch: %s is not a directory", abs)
	}
	w := &Watcher{root: abs, reindex: reindex, quiet: o.Quiet, maxWait: o.MaxWait, log: o.Logger, catchUp: o.CatchUp}
	if w.quiet <= 0 {
		w.quiet = 500 * time.Millisecond
	}
	if w.maxWait <= 0 {
		w.maxWait = 5 * time.Second
	}
	if w.maxWait < w.quiet {
		w.maxWait = w.quiet
	}
	if w.log == nil {
		w.log = slog.Default()
	}
	w.retry = o.RetryMax
	if w.retry <= 0 {
		w.retry = 5 * time.Minute
	}
	for _, p := range o.Ignore {
		a, err := filepath.Abs(p)
		if err != nil {
			return nil, fmt.Errorf("watch: ignore %s: %w", p, err)
		}
		w.ignore = append(w.ignore, a)
	}
	return w, nil
}

// Root returns the absolute path of the watched folder.
func (w *Watcher) Root() string { return w.root }

// Last returns the last finished run, and false if none has finished yet.
func (w *Watcher) Last() (Run, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	r := w.last
	r.Trigger = append([]string(nil), r.Trigger...) // the caller may keep it
	return r, w.runs > 0
}

// Runs returns the number of finished runs, failed ones included.
func (w *Watcher) Runs() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.runs
}

// Run watches the folder until ctx is done, then returns nil after any
// re-index in progress has returned (it gets ctx, so it should stop soon).
// A re-index error is logged and recorded in Last; the watcher goes on.
// Run returns an error naming the path if the root disappears or a watch
// cannot be added. A Watcher runs at most once at a time.
func (w *Watcher) Run(ctx context.Context) error {
	if !w.running.CompareAndSwap(false, true) {
		return errors.New("watch: Run already in progress")
	}
	defer w.running.Store(false)

	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watch: %w", err)
	}
	defer fw.Close()
	l := &loop{w: w, fw: fw, dirs: map[string]bool{}, seen: map[string]bool{}}
	if err := l.addTree(w.root, false); err != nil {
		return err
	}
	if w.ready != nil {
		w.ready()
	}
	return l.run(ctx)
}

// loop is the state of one Run, owned by its goroutine.
type loop struct {
	w    *Watcher
	fw   *fsnotify.Watcher
	dirs map[string]bool // watched directories, to drop a removed tree's watches

	// The pending burst: paths changed since the last run started.
	trigger []string
	seen    map[string]bool
	pending bool
	first   time.Time // first event of the burst, for MaxWait
	fails   int       // failed runs in a row, for the retry's backoff
}

func (l *loop) run(ctx context.Context) error {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()

	// reindex runs in its own goroutine so that events keep being read (and
	// new directories watched) during a slow run.
	done := make(chan Run, 1)
	busy, due := false, false
	defer func() {
		if busy {
			l.w.record(<-done)
		}
	}()
	start := func() {
		r := Run{Trigger: l.trigger}
		l.trigger, l.seen, l.pending, l.first = nil, map[string]bool{}, false, time.Time{}
		busy, due = true, false
		timer.Stop() // this run takes the whole burst
		go func() {
			r.Started = time.Now()
			rep, err := l.w.reindex(ctx)
			r.Finished, r.Report = time.Now(), rep
			if err != nil {
				r.Err = err.Error()
			}
			done <- r
		}()
	}
	if l.w.catchUp {
		l.note(l.w.root)
		start()
	}

	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-l.fw.Events:
			if !ok {
				return nil
			}
			changed, err := l.event(ev)
			if err != nil {
				return err
			}
			if changed {
				l.arm(timer)
			}
		case err, ok := <-l.fw.Errors:
			if !ok {
				return nil
			}
			if !errors.Is(err, fsnotify.ErrEventOverflow) {
				l.w.log.Warn("watch: error", "root", l.w.root, "err", err)
				continue
			}
			// Events were lost: rescan for unwatched directories and index
			// anyway, since any file may have changed.
			l.w.log.Warn("watch: event queue overflow, re-indexing", "root", l.w.root)
			if err := l.addTree(l.w.root, false); err != nil {
				return err
			}
			l.note(l.w.root)
			l.arm(timer)
		case <-timer.C:
			if !l.pending {
				continue
			}
			if busy {
				due = true // start as soon as the current run returns
			} else {
				start()
			}
		case r := <-done:
			busy = false
			l.w.record(r)
			if r.Err != "" && ctx.Err() == nil {
				// Nothing of the failed run was committed: its changes wait
				// for the retry, or for the next change, whichever is first.
				for _, p := range r.Trigger {
					l.note(p)
				}
				l.fails++
				timer.Reset(l.backoff())
			} else if r.Err == "" {
				l.fails = 0
			}
			if due && l.pending {
				start()
			}
		}
	}
}

// arm (re)sets the debounce timer after an event: Quiet from now, but no
// later than MaxWait after the burst's first event.
func (l *loop) arm(t *time.Timer) {
	now := time.Now()
	if l.first.IsZero() {
		l.first = now
	}
	d := l.w.quiet
	if rest := l.first.Add(l.w.maxWait).Sub(now); rest < d {
		d = max(rest, 0)
	}
	t.Reset(d)
}

// backoff is the wait before retrying after l.fails failed runs in a
// row: Quiet, doubled for each failure before the last, at most RetryMax.
func (l *loop) backoff() time.Duration {
	d := l.w.quiet
	for i := 1; i < l.fails && d < l.w.retry; i++ {
		d *= 2
	}
	return min(d, l.w.retry)
}

// note adds a changed path to the pending burst.
func (l *loop) note(p string) {
	l.pending = true
	if !l.seen[p] && len(l.trigger) < maxTrigger {
		l.seen[p] = true
		l.trigger = append(l.trigger, p)
	}
}

// event handles one fsnotify event and reports whether it counts as a
// change. The error is fatal to Run.
func (l *loop) event(ev fsnotify.Event) (bool, error) {
	p := filepath.Clean(ev.Name)
	if p == l.w.root {
		if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
			if _, err := os.Stat(p); err != nil {
				return false, fmt.Errorf("watch: root %s disappeared: %w", p, err)
			}
		}
		return false, nil
	}
	if l.w.skip(p) {
		return false, nil
	}
	// Chmod alone is noise (editors, backup and antivirus software touch
	// attributes); on Linux a removal also sends one, but with Remove too.
	if !ev.Has(fsnotify.Create) && !ev.Has(fsnotify.Write) && !ev.Has(fsnotify.Remove) && !ev.Has(fsnotify.Rename) {
		return false, nil
	}
	if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
		l.dropTree(p)
	}
	l.note(p)
	if ev.Has(fsnotify.Create) {
		if fi, err := os.Lstat(p); err == nil && fi.IsDir() {
			if err := l.addTree(p, true); err != nil {
				return true, err
			}
		}
	}
	return true, nil
}

// addTree watches dir and every directory under it that is neither hidden nor
// ignored. For a directory that appeared after the start (fresh), whatever
// is already inside was created before its watch and sent no event, so it is
// noted as changed.
func (l *loop) addTree(dir string, fresh bool) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			// Gone between the event and the walk: its removal is an event of
			// its own, if it matters.
			if errors.Is(err, fs.ErrNotExist) && p != l.w.root {
				return nil
			}
			return fmt.Errorf("watch: %s: %w", p, err)
		}
		if p != l.w.root && l.w.skip(p) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() {
			if fresh {
				l.note(p)
			}
			return nil
		}
		if l.dirs[p] {
			return nil
		}
		if err := l.fw.Add(p); err != nil {
			if errors.Is(err, fs.ErrNotExist) && p != l.w.root {
				return filepath.SkipDir
			}
			return fmt.Errorf("watch: cannot watch %s: %w", p, err)
		}
		l.dirs[p] = true
		if fresh && p != dir {
			l.note(p)
		}
		return nil
	})
}

// dropTree forgets the watches of a removed or renamed directory and of
// everything under it. inotify drops them itself on removal, but a renamed
// directory would otherwise stay watched under its old name.
func (l *loop) dropTree(p string) {
	for d := range l.dirs {
		if within(d, p) {
			delete(l.dirs, d)
			// An error means the watch is gone already, which is the goal.
			_ = l.fw.Remove(d)
		}
	}
}

// skip reports whether events at the absolute path p are ignored: it is
// under an Ignore path, or hidden (some element below the root starts with
// '.').
func (w *Watcher) skip(p string) bool {
	for _, ig := range w.ignore {
		if within(p, ig) {
			return true
		}
	}
	rel, err := filepath.Rel(w.root, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return true
	}
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		if strings.HasPrefix(part, ".") && part != "." {
			return true
		}
	}
	return false
}

// record keeps a finished run as the last one and logs it.
func (w *Watcher) record(r Run) {
	w.mu.Lock()
	w.last = r
	w.runs++
	w.mu.Unlock()
	took := r.Finished.Sub(r.Started)
	if r.Err != "" {
		w.log.Error("watch: re-index failed", "root", w.root, "trigger", len(r.Trigger), "took", took, "err", r.Err)
		return
	}
	w.log.Info("watch: re-indexed", "root", w.root, "trigger", len(r.Trigger), "took", took)
}

// within reports whether path p is dir or lies under it.
func within(p, dir string) bool {
	if p == dir {
		return true
	}
	if !strings.HasSuffix(dir, string(filepath.Separator)) {
		dir += string(filepath.Separator)
	}
	return strings.HasPrefix(p, dir)
}
