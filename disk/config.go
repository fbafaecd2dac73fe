package disk

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Config is what an index was built with. It is recorded when the store is
// created and checked at every open, so chunks analysed, cut or embedded
// differently are never mixed in one index.
type Config struct {
	Analyzer string `json:"analyzer"` // e.g. "fonte-analysis/v1 en+it"
	Chunker  string `json:"chunker"`  // e.g. "structure/v1 size=220 overlap=40"
	Embedder string `json:"embedder"` // the embedding model id
	Dim      int    `json:"dim"`      // the length of every vector
}

// IsZero reports whether c is the zero Config, which Open reads as "accept
// whatever the store records".
func (c Config) IsZero() bool { return c == Config{} }

// diff lists the fields that differ between the stored and requested
// configurations, one "field: stored X, requested Y" line each.
func (c Config) diff(requested Config) []string {
	var out []string
	add := func(field, stored, req string) {
		if stored != req {
			out = append(out, fmt.Sprintf("%s: stored %s, requested %s", field, stored, req))
		}
	}
	add("analyzer", fmt.Sprintf("%q", c.Analyzer), fmt.Sprintf("%q", requested.Analyzer))
	add("chunker", fmt.Sprintf("%q", c.Chunker), fmt.Sprintf("%q", requested.Chunker))
	add("embedder", fmt.Sprintf("%q", c.Embedder), fmt.Sprintf("%q", requested.Embedder))
	add("dim", fmt.Sprint(c.Dim), fmt.Sprint(requested.Dim))
	return out
}

// maxDim bounds the dimension so a corrupted header cannot request an
// absurd allocation.
const maxDim = 1 << 16

func (c Config) validate() error {
	if c.Dim < 1 || c.Dim > maxDim {
		return fmt.Errorf("disk: Config.Dim is %d; a new index needs a vector dimension between 1 and %d", c.Dim, maxDim)
	}
	return nil
}

// Options tune how a Store is opened. The zero value opens for writing with
// the defaults.
type Options struct {
	// ReadOnly opens without the write lock file, so a folder on read-only
	// media can be searched. Update and Purge return ErrReadOnly.
	ReadOnly bool

	// Rebuild accepts a store built with a different Config: the first
	// Update starts from an empty generation and its commit replaces the
	// old index atomically (readers keep the old one until then).
	Rebuild bool

	// LockTimeout is how long Update and Purge wait for another process
	// that is writing the index. Zero means DefaultLockTimeout; a negative
	// value fails at once.
	LockTimeout time.Duration

	// SegmentBytes is the size segments are cut at, and so the most a
	// commit rewrites when one document of a segment changes. Zero means
	// DefaultSegmentBytes.
	SegmentBytes int64

	// fs replaces the file system in tests.
	fs fileSystem
}

// Defaults for Options.
const (
	DefaultLockTimeout  = 30 * time.Second
	DefaultSegmentBytes = 16 << 20
)

// maxSmallSegments is the merge policy's bound: a commit that would keep
// more segments under a quarter of SegmentBytes rewrites them all.
const maxSmallSegments = 8

func (o Options) lockTimeout() time.Duration {
	if o.LockTimeout == 0 {
		return DefaultLockTimeout
	}
	return o.LockTimeout
}

func (o Options) segmentBytes() int64 {
	if o.SegmentBytes <= 0 {
		return DefaultSegmentBytes
	}
	return o.SegmentBytes
}

// Errors callers can test for with errors.Is.
var (
	// ErrConfigMismatch is wrapped by the *MismatchError Open returns when
	// the folder holds an index built with another Config.
	ErrConfigMismatch = errors.New("disk: index built with a different configuration")
	// ErrLocked means another process kept the write lock past
	// Options.LockTimeout.
	ErrLocked = errors.New("disk: index is being written by another process")
	// ErrReadOnly is returned by Update and Purge on a store opened with
	// Options.ReadOnly.
	ErrReadOnly = errors.New("disk: store opened read-only")
	// ErrClosed is returned by every method of a closed Store.
	ErrClosed = errors.New("disk: store closed")
	// ErrCorrupt is wrapped by every error caused by a file's content: a
	// checksum mismatch, a wrong magic, inconsistent sizes, a truncation.
	ErrCorrupt = errors.New("disk: corrupted index file")
	// ErrFormatVersion means the folder was written by a newer fonte.
	ErrFormatVersion = errors.New("disk: unsupported index format version")
	// ErrInvalidRecord is wrapped by every error Tx.Put returns.
	ErrInvalidRecord = errors.New("disk: invalid record")
	// ErrTxDone is returned by Tx.Put after the transaction's function has
	// returned.
	ErrTxDone = errors.New("disk: transaction already finished")
	// ErrNotDurable means the new generation was committed and is visible,
	// but the final fsync of the directory failed, so it may not survive a
	// power loss. Every other Update error means nothing was committed.
	ErrNotDurable = errors.New("disk: commit may not be durable")
)

// MismatchError reports an index built with a different Config. It wraps
// ErrConfigMismatch.
type MismatchError struct {
	Dir       string
	Stored    Config
	Requested Config
}

// Error names every differing field and how to rebuild.
func (e *MismatchError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "disk: the index in %s was built with a different configuration", e.Dir)
	for _, d := range e.Stored.diff(e.Requested) {
		b.WriteString("; ")
		b.WriteString(d)
	}
	fmt.Fprintf(&b, "; to rebuild it, delete the folder %s or run `fonte index --rebuild`", e.Dir)
	return b.String()
}

// Unwrap makes errors.Is(err, ErrConfigMismatch) true.
func (e *MismatchError) Unwrap() error { return ErrConfigMismatch }
