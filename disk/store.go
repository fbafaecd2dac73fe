package disk

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
)

// Store is an index folder. Its methods are safe for concurrent use; any
// number of Stores, in any number of processes, may read one folder while
// one of them writes.
type Store struct {
	dir     string
	opts    Options
	fs      fileSystem
	cfg     Config
	rebuild bool // the next commit starts from an empty generation

	lock   *os.File      // the flock'ed file; nil when read-only
	writer chan struct{} // holds a token while an Update or Purge runs

	loadMu sync.Mutex // serializes manifest checks and reloads
	// seen is the manifest file as last read (guarded by loadMu): while
	// the file is the same (same inode, size and time) it need not be
	// read and parsed again on every search.
	seen   os.FileInfo
	mu     sync.Mutex // guards cur, raw and closed
	cur    *Snapshot
	raw    []byte // the manifest bytes cur was loaded from
	closed bool

	viewMu  sync.Mutex // guards views
	views   viewCache
	buildMu sync.Mutex  // one view build at a time
	bgBuild atomic.Bool // a background build is running (buildInBackground)
	// rowsOwner is the snapshot the last build made a shared graph refer
	// to (guarded by buildMu; see view).
	rowsOwner *Snapshot

	segmentsRead atomic.Int64 // segments decoded from disk, for tests
}

// Open opens the index in dir, creating the folder and an empty index
// when there is none (unless opts.ReadOnly).
//
// cfg must match the Config the index was created with; otherwise Open
// returns a *MismatchError (wrapping ErrConfigMismatch) naming each
// differing field, unless opts.Rebuild is set. A zero cfg accepts whatever
// the index records, for commands that neither chunk nor embed (status,
// search, delete); creating an index needs a full cfg.
func Open(dir string, cfg Config, opts Options) (*Store, error) {
	if opts.ReadOnly && opts.Rebuild {
		return nil, errors.New("disk: Options.ReadOnly and Options.Rebuild exclude each other")
	}
	s := &Store{dir: dir, opts: opts, fs: opts.fs, writer: make(chan struct{}, 1)}
	if s.fs == nil {
		s.fs = osFS{}
	}
	if !opts.ReadOnly {
		if err := s.fs.MkdirAll(dir); err != nil {
			return nil, wrapFile("creating the index folder", dir, err)
		}
		f, err := s.fs.OpenLock(s.path(lockName))
		if err != nil {
			return nil, fmt.Errorf("%w (writing needs write access to the index folder; reading does not: search and ask open it read-only, as Options.ReadOnly does)",
				wrapFile("opening the write lock", s.path(lockName), err))
		}
		s.lock = f
	}
	if err := s.init(cfg); err != nil {
		if s.lock != nil {
			s.lock.Close()
		}
		return nil, err
	}
	return s, nil
}

// init reads the manifest, or writes the first one, and settles s.cfg.
func (s *Store) init(cfg Config) error {
	raw, err := os.ReadFile(s.path(manifestName))
	if errors.Is(err, fs.ErrNotExist) {
		if s.opts.ReadOnly {
			return fmt.Errorf("disk: no index in %s (run `fonte index` to build one): %w", s.dir, err)
		}
		if cfg.IsZero() {
			return fmt.Errorf("disk: no index in %s, and no configuration to create one with: %w", s.dir, err)
		}
		return s.create(cfg, false)
	}
	if err != nil {
		return wrapFile("reading", s.path(manifestName), err)
	}
	m, err := parseManifest(s.path(manifestName), raw)
	if err != nil {
		if !errors.Is(err, ErrCorrupt) {
			return err
		}
		if s.opts.Rebuild {
			// Rebuild replaces the index whatever it holds: one whose
			// manifest cannot be read starts over, its files unreferenced
			// and removed by the first commit.
			return s.create(cfg, true)
		}
		return damaged(s.dir, err)
	}
	switch {
	case s.opts.Rebuild:
		if err := validateConfig(cfg); err != nil {
			return err
		}
		s.cfg, s.rebuild = cfg, true
	case cfg.IsZero():
		s.cfg = m.Config
	case cfg != m.Config:
		return &MismatchError{Dir: s.dir, Stored: m.Config, Requested: cfg}
	default:
		s.cfg = cfg
	}
	return nil
}

// create writes generation 0 of a new index, under the write lock so that
// two processes creating the same folder agree on one store; over, it
// replaces a manifest that cannot be parsed.
func (s *Store) create(cfg Config, over bool) error {
	if err := validateConfig(cfg); err != nil {
		return err
	}
	if err := s.acquire(context.Background()); err != nil {
		return err
	}
	defer s.release()
	if raw, err := os.ReadFile(s.path(manifestName)); err == nil {
		if _, perr := parseManifest(s.path(manifestName), raw); !over || perr == nil {
			// Another process created (or rebuilt) it meanwhile: open that one.
			return s.init(cfg)
		}
	}
	var id [8]byte
	rand.Read(id[:])
	m := &manifest{
		Format: formatVersion, Store: hex.EncodeToString(id[:]), Config: cfg,
		Committed: time.Now().UTC(), Segments: []segmentEntry{},
	}
	if _, err := s.writeManifest(m); err != nil {
		s.fs.Remove(s.path(manifestTmp))
		return err
	}
	if err := s.fs.SyncDir(s.dir); err != nil {
		return wrapFile("syncing the folder", s.dir, err)
	}
	s.cfg = cfg
	return nil
}

// Dir is the index folder.
func (s *Store) Dir() string { return s.dir }

// Config is the configuration the index is built with (after a Rebuild
// option, the new one).
func (s *Store) Config() Config { return s.cfg }

func (s *Store) path(name string) string { return filepath.Join(s.dir, name) }

func (s *Store) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// Snapshot returns the latest committed generation. It reads the small
// manifest to see whether another Store or process committed since the
// last call, and loads only the files it does not already hold. While one
// goroutine reloads, others get the current snapshot rather than wait.
//
// Loading checks each segment's header and directory (a segment of a
// version before 3, its meta section too); the whole files' checksums,
// which cover the records and the vectors, are verified by a background
// pass (Snapshot.Verify waits for it; Snapshot.VerifyDocuments checks
// the segments of given documents at once). Once a check has found a
// damaged file, Snapshot returns ErrCorrupt naming it, until a newer
// generation replaces it.
func (s *Store) Snapshot() (*Snapshot, error) {
	snap, err := s.snapshot()
	if err == nil {
		if derr := snap.damage(); derr != nil {
			return nil, damaged(s.dir, derr)
		}
	}
	return snap, err
}

// Verify checks every file of the latest generation against its
// checksum, waiting for the background pass Snapshot starts, and returns
// the first mismatch as ErrCorrupt naming the file. Reading a document
// does not wait for that pass; a copy of the whole index (a dump) must,
// or it carries a damaged vector on under checksums of its own.
func (s *Store) Verify() error {
	snap, err := s.Snapshot()
	if err != nil {
		return err
	}
	if err := snap.Verify(); err != nil {
		return damaged(s.dir, err)
	}
	return nil
}

// VerifyDocuments is snap.VerifyDocuments, snap a snapshot of this store,
// with the store's advice when a file is damaged.
func (s *Store) VerifyDocuments(snap *Snapshot, ids ...string) error {
	if err := snap.VerifyDocuments(ids...); err != nil {
		return damaged(s.dir, err)
	}
	return nil
}

// damaged is the error of a store whose files failed their check.
func damaged(dir string, err error) error {
	return fmt.Errorf("disk: %s is damaged (restore it from a copy, or rebuild it with fonte index --rebuild): %w", dir, err)
}

func (s *Store) snapshot() (*Snapshot, error) {
	s.mu.Lock()
	cur, closed := s.cur, s.closed
	s.mu.Unlock()
	if closed {
		return nil, ErrClosed
	}
	if cur == nil {
		s.loadMu.Lock()
	} else if !s.loadMu.TryLock() {
		// Someone is already checking (or loading) a newer generation; a
		// reader is better served now by the generation it has.
		return cur, nil
	}
	defer s.loadMu.Unlock()
	fi, statErr := os.Stat(s.path(manifestName))
	if cur != nil && statErr == nil && s.seen != nil && os.SameFile(fi, s.seen) &&
		fi.Size() == s.seen.Size() && fi.ModTime().Equal(s.seen.ModTime()) {
		return cur, nil
	}
	raw, m, err := s.readManifest()
	if err != nil {
		return nil, err
	}
	if statErr == nil {
		// Stat before read: a change between the two is read now and
		// seen as a change again next time, never missed.
		s.seen = fi
	}
	if m.Config != s.cfg {
		// Another process rebuilt the index with another configuration,
		// or this Store is rebuilding it and has not committed yet.
		return nil, &MismatchError{Dir: s.dir, Stored: m.Config, Requested: s.cfg}
	}
	return s.loadLatest(raw, m)
}

// readManifest reads and parses DIR/manifest.
func (s *Store) readManifest() ([]byte, *manifest, error) {
	p := s.path(manifestName)
	raw, err := os.ReadFile(p)
	if err != nil {
		return nil, nil, wrapFile("reading", p, err)
	}
	m, err := parseManifest(p, raw)
	if err != nil {
		return nil, nil, err
	}
	return raw, m, nil
}

// loadLatest returns the snapshot for the manifest raw/m, reusing the
// current one when the manifest has not changed. A segment that vanished
// means a writer committed twice since the manifest was read: read the new
// manifest and retry once. The caller holds loadMu.
func (s *Store) loadLatest(raw []byte, m *manifest) (*Snapshot, error) {
	s.mu.Lock()
	cur, curRaw := s.cur, s.raw
	s.mu.Unlock()
	if cur != nil && bytes.Equal(raw, curRaw) {
		return cur, nil
	}
	snap, err := loadSnapshot(s.dir, m, cur, &s.segmentsRead, nil)
	if errors.Is(err, fs.ErrNotExist) {
		raw2, m2, err2 := s.readManifest()
		if err2 == nil && !bytes.Equal(raw2, raw) {
			if m2.Config != s.cfg {
				return nil, &MismatchError{Dir: s.dir, Stored: m2.Config, Requested: s.cfg}
			}
			raw = raw2
			snap, err = loadSnapshot(s.dir, m2, cur, &s.segmentsRead, nil)
		}
	}
	if err != nil {
		return nil, err
	}
	// Opening checked each new segment's header and directory; the
	// files' checksums are verified in the background, and a mismatch
	// closes the index to readers (Snapshot returns it) and to writers.
	go snap.Verify()
	return s.install(snap, raw), nil
}

// install makes snap current unless a newer generation of the same store
// got there first, and returns the current snapshot.
func (s *Store) install(snap *Snapshot, raw []byte) *Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur == nil || snap.storeID != s.cur.storeID || snap.gen > s.cur.gen {
		s.cur, s.raw = snap, raw
	}
	return s.cur
}

// acquire takes the cross-process write lock, polling until
// Options.LockTimeout or ctx ends.
func (s *Store) acquire(ctx context.Context) error {
	p := s.path(lockName)
	timeout := s.opts.lockTimeout()
	start := time.Now()
	wait := 5 * time.Millisecond
	for {
		ok, err := tryLock(s.lock)
		if err != nil {
			return wrapFile("locking", p, err)
		}
		if ok {
			return nil
		}
		waited := time.Since(start)
		if timeout < 0 || waited >= timeout {
			return fmt.Errorf("%w: gave up after %v waiting for %s", ErrLocked, waited.Round(time.Millisecond), p)
		}
		t := time.NewTimer(min(wait, timeout-waited))
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("disk: waiting for the write lock %s: %w", p, ctx.Err())
		}
		wait = min(2*wait, 100*time.Millisecond)
	}
}

func (s *Store) release() { unlockFile(s.lock) }

// writeManifest writes m to manifest.tmp, fsyncs it and renames it over
// the manifest. The caller fsyncs the folder.
func (s *Store) writeManifest(m *manifest) ([]byte, error) {
	raw, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("disk: encoding the manifest: %w", err)
	}
	raw = append(raw, '\n')
	tmp := s.path(manifestTmp)
	if err := s.writeFile("writing the manifest", tmp, func(w io.Writer) error {
		_, err := w.Write(raw)
		return err
	}); err != nil {
		return nil, err
	}
	if err := s.fs.Rename(tmp, s.path(manifestName)); err != nil {
		return nil, wrapFile("replacing the manifest with", tmp, err)
	}
	return raw, nil
}

// writeFile creates path, lets fill write it, and fsyncs and closes it;
// every failure names the file.
func (s *Store) writeFile(what, path string, fill func(w io.Writer) error) error {
	f, err := s.fs.Create(path)
	if err != nil {
		return wrapFile(what, path, err)
	}
	if err := fill(f); err != nil {
		f.Close()
		return wrapFile(what, path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return wrapFile(what, path, err)
	}
	if err := f.Close(); err != nil {
		return wrapFile(what, path, err)
	}
	return nil
}

// removeUnreferenced deletes the store's files in DIR that are not in
// keep (the manifest and the lock are never candidates). Files it does not
// recognise are left alone. Errors are returned joined; callers that only
// tidy up ignore them, since the next writer tries again.
func (s *Store) removeUnreferenced(keep map[string]bool) error {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return wrapFile("listing", s.dir, err)
	}
	var errs []error
	removed := false
	for _, e := range entries {
		name := e.Name()
		if !isStoreFile(name) || keep[name] {
			continue
		}
		if err := s.fs.Remove(s.path(name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, wrapFile("removing", s.path(name), err))
			continue
		}
		removed = true
	}
	if removed {
		if err := s.fs.SyncDir(s.dir); err != nil {
			errs = append(errs, wrapFile("syncing the folder", s.dir, err))
		}
	}
	return errors.Join(errs...)
}

func keepSet(lists ...[]string) map[string]bool {
	keep := map[string]bool{}
	for _, l := range lists {
		for _, name := range l {
			keep[name] = true
		}
	}
	return keep
}

// Purge removes every file the current generation does not reference:
// the previous generation's files kept for readers and anything a crashed
// writer left. After a deletion, Purge is what guarantees the deleted
// documents' bytes are in no file under DIR. A reader still loading the
// previous generation retries with the current one.
//
// A deletion's terms and vectors can also live in the derived search
// indexes kept in the store (see derived.go): Purge first rewrites those
// without the deleted chunks, so no blob the current generation keeps
// holds them either.
func (s *Store) Purge(ctx context.Context) error {
	if s.opts.ReadOnly {
		return ErrReadOnly
	}
	// A commit that deleted documents dropped the derived blobs; only then
	// are there tombstoned vectors to compact away before writing them
	// again. A purge with nothing deleted rewrites nothing.
	snap, err := s.Snapshot()
	if err != nil {
		return err
	}
	if !hasBlob(snap, BlobLexical) {
		if err := s.PersistDerived(ctx, true); err != nil {
			return err
		}
	}
	return s.purgeFiles()
}

// purgeFiles removes the files the current generation does not reference.
func (s *Store) purgeFiles() error {
	s.writer <- struct{}{}
	defer func() { <-s.writer }()
	if s.isClosed() {
		return ErrClosed
	}
	if err := s.acquire(context.Background()); err != nil {
		return err
	}
	defer s.release()
	_, m, err := s.readManifest()
	if err != nil {
		return err
	}
	// A build's temporary files hold analysed text too.
	if err := os.RemoveAll(s.path(buildDirName)); err != nil {
		return wrapFile("removing", s.path(buildDirName), err)
	}
	return s.removeUnreferenced(keepSet(m.files()))
}

// Close releases the store, waiting for a running Update. Snapshots
// already taken stay usable.
func (s *Store) Close() error {
	s.writer <- struct{}{}
	defer func() { <-s.writer }()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	if s.lock != nil {
		if err := s.lock.Close(); err != nil {
			return wrapFile("closing", s.path(lockName), err)
		}
	}
	return nil
}
