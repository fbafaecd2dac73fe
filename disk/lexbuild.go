package disk

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"unsafe"

	"github.com/fonte-rag/fonte/lexical"
	"github.com/fonte-rag/fonte/retrieve"
)

// buildDirName is the store's folder for a build's temporary files (the
// lexical index's sorted runs), which Purge removes with whatever a crash
// left there.
const buildDirName = "build.tmp"

// lexBatch is how many chunks are analysed in parallel between two
// additions to the lexical builder: enough to keep every core busy, few
// enough that their tokens are a small part of the memory budget.
const lexBatch = 1024

// builtLexical is a lexical index a writer's view built for a generation
// that has no lexical blob: the complete blob (see encodeLexicalBlob) in a
// read-only mapping of an unlinked file, for PersistDerived to commit, and
// the model searching it in place.
type builtLexical struct {
	gen  uint64
	blob []byte
	m    *lexical.BM25
	runs int // sorted runs the build spilled
}

// buildLexical builds the lexical index of snap within bounded memory: the
// chunks are analysed a batch at a time and their postings gathered by
// lexical.InPlaceBuilder, which spills sorted runs to the store's build
// folder beyond TxMemory bytes and merges them into the in-place form, written
// with the lexical blob's header to a file that is then mapped. Memory
// grows with the budget and the number of distinct terms, not with the
// corpus. The chunks are analysed on workers goroutines.
func (s *Store) buildLexical(snap *Snapshot, workers int) (_ *builtLexical, err error) {
	an := s.analyzers()
	dir := s.path(buildDirName)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, wrapFile("building the lexical index", dir, err)
	}
	b := lexical.NewInPlaceBuilder(lexical.InPlaceBuilderOptions{BM25: retrieve.BM25Params, Budget: s.opts.txMemory(), Dir: dir, Workers: workers})
	defer func() {
		if cerr := b.Close(); err == nil && cerr != nil {
			err = cerr
		}
		os.Remove(dir) // when empty: no other build is running
	}()
	if err := s.addChunks(snap, an, b); err != nil {
		return nil, err
	}
	runs := b.Runs()
	path := filepath.Join(dir, fmt.Sprintf("lexical-%d.tmp", snap.Generation()))
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, wrapFile("building the lexical index", path, err)
	}
	// The file is only ever reached through its mapping: unlinked at once,
	// it goes with the mapping, whatever happens to this process.
	defer f.Close()
	defer os.Remove(path)
	fp := corpusFingerprint(snap, an)
	w := bufio.NewWriterSize(f, ioBlock)
	head := make([]byte, lexicalFormOff)
	copy(head, lexicalMagic)
	copy(head[len(lexicalMagic):], fp[:])
	w.Write(head)
	n, err := b.Finish(w)
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		return nil, wrapFile("building the lexical index", path, err)
	}
	size := int(n) + lexicalFormOff
	blob, err := mapOrRead(f, size)
	if err != nil {
		return nil, wrapFile("building the lexical index", path, err)
	}
	m, err := lexical.OpenBM25InPlace(blob[lexicalFormOff:], an.Default)
	if err != nil {
		unmapIfMapped(blob)
		return nil, fmt.Errorf("disk: the lexical index just built does not open: %w", err)
	}
	// The model reads the mapping for as long as it lives (an index keeps
	// it): unmap when it is gone.
	runtime.AddCleanup(m, unmapIfMapped, blob)
	return &builtLexical{gen: snap.Generation(), blob: blob, m: m, runs: runs}, nil
}

// addChunks analyses every chunk of snap, in order, into b.
func (s *Store) addChunks(snap *Snapshot, an retrieve.Analyzers, b *lexical.InPlaceBuilder) error {
	err := b.AddBatched(snap.NumChunks(), lexBatch, func(i int) []string { return an.Terms(snap.Chunk(i), snap.Lang(i)) })
	if err != nil {
		return err
	}
	return snap.damage()
}

// mapOrRead returns the first size bytes of f: a read-only mapping (which
// the caller unmaps with unmapIfMapped), or, where mapping is unavailable,
// the bytes read into memory.
func mapOrRead(f *os.File, size int) ([]byte, error) {
	if mmapSupported {
		if data, err := mapReadOnly(f, size); err == nil {
			mappedRegions.Store(unsafe.SliceData(data), true)
			return data, nil
		}
	}
	data := make([]byte, size)
	_, err := f.ReadAt(data, 0)
	return data, err
}

// mappedRegions records the mappings mapOrRead made, so that
// unmapIfMapped leaves memory it read alone.
var mappedRegions sync.Map // *byte -> true

func unmapIfMapped(data []byte) {
	if _, ok := mappedRegions.LoadAndDelete(unsafe.SliceData(data)); ok {
		unmap(data)
	}
}
