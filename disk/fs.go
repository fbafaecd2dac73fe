package disk

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// fileSystem is the narrow layer every change to DIR goes through, so tests
// can fail the N-th operation (a full disk, an I/O error) and check that a
// commit never half-happens. Reads go to the os package directly: a failing
// read cannot corrupt anything.
type fileSystem interface {
	MkdirAll(dir string) error
	// OpenLock opens (creating if needed) the file writers flock.
	OpenLock(name string) (*os.File, error)
	// Create creates or truncates name for writing.
	Create(name string) (writeFile, error)
	Rename(from, to string) error
	Remove(name string) error
	// SyncDir makes the directory's entries (creations, renames) durable.
	SyncDir(dir string) error
}

// writeFile is a file being written.
type writeFile interface {
	Write(p []byte) (int, error)
	Sync() error
	Close() error
}

// osFS is the real file system.
type osFS struct{}

func (osFS) MkdirAll(dir string) error { return os.MkdirAll(dir, 0o755) }

func (osFS) OpenLock(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
}

func (osFS) Create(name string) (writeFile, error) {
	return os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
}

func (osFS) Rename(from, to string) error { return os.Rename(from, to) }
func (osFS) Remove(name string) error     { return os.Remove(name) }
func (osFS) SyncDir(dir string) error     { return syncDir(dir) }

// wrapFile prefixes err with what failed and the file it failed on. When err
// already is a *fs.PathError for the same file the path is not repeated;
// the underlying errno stays in the chain for errors.Is.
//
// A full disk (ENOSPC) or a file-size limit reached (EFBIG) gets a
// sentence saying so after the errno.
func wrapFile(what, path string, err error) error {
	hint := ""
	switch {
	case errors.Is(err, syscall.ENOSPC):
		hint = "the disk is full: free some space and run again"
	case errors.Is(err, syscall.EFBIG):
		hint = "the file is larger than this system allows: raise the limit and run again"
	}
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe) && pe.Path == path:
		err = fmt.Errorf("disk: %s %s: %s: %w", what, path, pe.Op, pe.Err)
	case errors.As(err, &le) && le.New == path:
		err = fmt.Errorf("disk: %s %s: %s: %w", what, path, le.Op, le.Err)
	default:
		err = fmt.Errorf("disk: %s %s: %w", what, path, err)
	}
	if hint != "" {
		err = hintError{err, hint}
	}
	return err
}

// hintError adds a hint to an error, keeping it in the chain.
type hintError struct {
	err  error
	hint string
}

func (e hintError) Error() string { return e.err.Error() + " (" + e.hint + ")" }
func (e hintError) Unwrap() error { return e.err }
