package disk

import (
	"context"
	"errors"
	"io/fs"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// fullFS is a file system whose disk fills up at the N-th write: that
// write takes half its bytes and fails with ENOSPC, as do all the writes
// after it (a full disk stays full). Everything else works.
type fullFS struct {
	osFS
	mu     sync.Mutex
	n, at  int
	failed string // the file the first failed write was to
}

func (f *fullFS) Create(name string) (writeFile, error) {
	w, err := f.osFS.Create(name)
	if err != nil {
		return nil, err
	}
	return &fullFile{w: w, fs: f, name: name}, nil
}

type fullFile struct {
	w    writeFile
	fs   *fullFS
	name string
}

func (f *fullFile) Write(p []byte) (int, error) {
	f.fs.mu.Lock()
	f.fs.n++
	full := f.fs.n >= f.fs.at
	if full && f.fs.failed == "" {
		f.fs.failed = f.name
	}
	f.fs.mu.Unlock()
	if full {
		n, _ := f.w.Write(p[:len(p)/2])
		return n, &fs.PathError{Op: "write", Path: f.name, Err: syscall.ENOSPC}
	}
	return f.w.Write(p)
}

func (f *fullFile) Sync() error  { return f.w.Sync() }
func (f *fullFile) Close() error { return f.w.Close() }

// TestDiskFull: a commit whose N-th write finds the disk full (for every N
// until the commit needs no more writes) fails with an error that names
// the file and says the disk is full, leaves the previous generation
// whole (in memory and on disk) and no file of its own behind, and a
// retry once space is freed commits.
func TestDiskFull(t *testing.T) {
	pristine, opts := faultBase(t)
	before := fingerprint(mustSnapshot(t, mustOpen(t, pristine, testCfg, Options{ReadOnly: true})))
	beforeFiles := listFiles(t, pristine)
	ref := copyDir(t, pristine)
	rs := mustOpen(t, ref, testCfg, opts)
	tx(t, rs, faultChange)
	after := fingerprint(mustSnapshot(t, rs))

	points := 0
	for n := 1; ; n++ {
		dir := copyDir(t, pristine)
		f := &fullFS{at: n}
		o := opts
		o.fs = f
		s := mustOpen(t, dir, testCfg, o)
		err := s.Write(context.Background(), faultChange)
		if f.failed == "" {
			if err != nil {
				t.Fatalf("no write failed, yet: %v", err)
			}
			break
		}
		points++
		if err == nil {
			t.Fatalf("the disk filled at write %d (%s) and the commit succeeded", n, f.failed)
		}
		msg := err.Error()
		if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(msg, f.failed) || !strings.Contains(msg, "the disk is full") {
			t.Fatalf("write %d: the error does not name %s and the full disk: %v", n, f.failed, err)
		}
		if n == 1 {
			t.Log(err)
		}
		if fingerprint(mustSnapshot(t, s)) != before {
			t.Fatalf("write %d (%v): the store's current generation changed", n, err)
		}
		if fingerprint(mustSnapshot(t, mustOpen(t, dir, testCfg, Options{ReadOnly: true}))) != before {
			t.Fatalf("write %d (%v): the generation on disk changed", n, err)
		}
		// The failed commit removed what it wrote: the space is free again.
		if got := listFiles(t, dir); strings.Join(got, " ") != strings.Join(beforeFiles, " ") {
			t.Errorf("write %d: files %v after the failure, want %v", n, got, beforeFiles)
		}
		s.Close()
		// Space freed: the retry commits the same change.
		s2 := mustOpen(t, dir, testCfg, opts)
		tx(t, s2, faultChange)
		if fingerprint(mustSnapshot(t, s2)) != after {
			t.Fatalf("write %d: the retry committed something else", n)
		}
		checkNoStrays(t, dir)
		s2.Close()
	}
	if points < 3 {
		t.Errorf("only %d writes failed in turn", points)
	}
	t.Logf("the disk filled at each of %d writes in turn", points)
}
