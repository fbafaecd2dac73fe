package disk

import (
	"errors"
	"fmt"
	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/retrieve"
	"strings"
	"time"
)

// Config is what an index was built with (fonte.IndexSettings). It is
// recorded when the store is created and checked at every open, so chunks
// analysed, cut or embedded differently are never mixed in one index.
type Config = fonte.IndexSettings

func validateConfig(c Config) error {
	if err := c.Validate(); err != nil {
		return fmt.Errorf("disk: %w", err)
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

	// TxMemory is how many bytes of documents (estimated as encoded) a
	// transaction holds in memory before it writes them out as segment
	// files, so that a change of any size is written within bounded
	// memory, and how many bytes of postings the lexical build holds
	// before it spills a sorted run. Zero means DefaultTxMemory.
	TxMemory int64

	// Analyzers analyse chunks and queries for the in-memory BM25 index
	// (retrieve.DefaultAnalyzers when zero).
	Analyzers retrieve.Analyzers

	// Dense chooses the dense leg's index (retrieve.DenseAuto when zero:
	// exact below retrieve.HNSWMinChunks chunks, HNSW from there on).
	Dense retrieve.DenseKind

	// fs replaces the file system in tests.
	fs fileSystem
}

// Defaults for Options.
const (
	DefaultLockTimeout  = 30 * time.Second
	DefaultSegmentBytes = 16 << 20
	DefaultTxMemory     = 256 << 20
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

func (o Options) txMemory() int64 {
	if o.TxMemory <= 0 {
		return DefaultTxMemory
	}
	return max(o.TxMemory, o.segmentBytes())
}

// Errors callers can test for with errors.Is.
var (
	// ErrConfigMismatch is wrapped by the *MismatchError Open returns when
	// the folder holds an index built with another Config.
	ErrConfigMismatch = fmt.Errorf("disk: %w", fonte.ErrSettingsMismatch)
	// ErrLocked means another process kept the write lock past
	// Options.LockTimeout.
	ErrLocked = errors.New("disk: index is being written by another process")
	// ErrReadOnly is returned by Update and Purge on a store opened with
	// Options.ReadOnly.
	ErrReadOnly = fmt.Errorf("disk: %w", fonte.ErrReadOnly)
	// ErrClosed is returned by every method of a closed Store.
	ErrClosed = errors.New("disk: store closed")
	// ErrCorrupt is wrapped by every error caused by a file's content: a
	// checksum mismatch, a wrong magic, inconsistent sizes, a truncation.
	ErrCorrupt = errors.New("disk: corrupted index file")
	// ErrFormatVersion means the folder was written by a newer fonte.
	ErrFormatVersion = fmt.Errorf("disk: unsupported index format version: %w", fonte.ErrStoreVersion)
	// ErrInvalidRecord is wrapped by every error Tx.Put returns.
	ErrInvalidRecord = fonte.ErrInvalidRecord
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
	for _, d := range e.Stored.Diff(e.Requested) {
		b.WriteString("; ")
		b.WriteString(d)
	}
	fmt.Fprintf(&b, "; to rebuild it, delete the folder %s or run `fonte index --rebuild`", e.Dir)
	return b.String()
}

// Unwrap makes errors.Is(err, ErrConfigMismatch) true.
func (e *MismatchError) Unwrap() error { return ErrConfigMismatch }
