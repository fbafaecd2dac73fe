package disk

import (
	"bufio"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"
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

	reused  int    // chunks whose postings came from the previous view's index
	carried int    // terms whose block maxima were computed for the previous view's sake
	full    string // why every chunk was analysed, when none was reused
}

// buildLexical builds the lexical index of snap within bounded memory: the
// chunks are analysed a batch at a time and their postings gathered by
// lexical.InPlaceBuilder, which spills sorted runs to the store's build
// folder beyond TxMemory bytes and merges them into the in-place form, written
// with the lexical blob's header to a file that is then mapped. Memory
// grows with the budget and the number of distinct terms, not with the
// corpus. The chunks are analysed on workers goroutines.
//
// When the previous view's lexical index can be reused (see lexmerge.go),
// only the chunks it lacks are analysed and its postings are merged with
// theirs; else, and when that merge fails, every chunk is analysed, and
// the log says why.
func (s *Store) buildLexical(snap *Snapshot, workers int, prev *View) (*builtLexical, error) {
	reuse, why := lexicalReuse(prev, snap)
	if reuse != nil {
		lex, err := s.buildLexicalFrom(snap, workers, prev.Index.BM25(), reuse)
		if err == nil {
			lex.carried = s.carryBlockMaxima(lex.m, lex.gen, prev)
			return lex, nil
		}
		why = "merging with the previous index failed: " + err.Error()
	}
	slog.Info("building the lexical index from every chunk", "dir", s.dir, "generation", snap.Generation(), "chunks", snap.NumChunks(), "reason", why)
	lex, err := s.buildLexicalFrom(snap, workers, nil, nil)
	if lex != nil {
		lex.full = why
		lex.carried = s.carryBlockMaxima(lex.m, lex.gen, prev)
	}
	return lex, err
}

// carryBlockMaxima computes in m, the lexical model of a view about to
// be published, the block maxima the previous view's had
// (lexical.BM25.CarryBlockMaxima), and returns for how many terms:
// without them, the first queries on the new view each paid a pass over
// the common terms' lists, up to half a second at a million chunks.
func (s *Store) carryBlockMaxima(m *lexical.BM25, gen uint64, prev *View) int {
	if m == nil || prev == nil || prev.Index.BM25() == nil {
		return 0
	}
	start := time.Now()
	n := m.CarryBlockMaxima(prev.Index.BM25())
	slog.Debug("block maxima carried", "dir", s.dir, "generation", gen, "terms", n, "seconds", time.Since(start).Seconds())
	return n
}

// buildLexicalFrom is buildLexical, reusing old's postings for the chunks
// reuse maps when old is not nil.
func (s *Store) buildLexicalFrom(snap *Snapshot, workers int, old *lexical.BM25, reuse []int32) (_ *builtLexical, err error) {
	start := time.Now()
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
	if old != nil {
		err = s.addChunksReusing(snap, an, b, old, reuse)
	} else {
		err = s.addChunks(snap, an, b)
	}
	if err != nil {
		return nil, err
	}
	added := time.Since(start)
	if lexicalAddedHook != nil {
		lexicalAddedHook(b.Reused())
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
	slog.Debug("lexical index built", "dir", s.dir, "generation", snap.Generation(), "chunks", snap.NumChunks(),
		"reused", b.Reused(), "runs", runs, "add_s", added.Seconds(), "finish_s", (time.Since(start) - added).Seconds())
	return &builtLexical{gen: snap.Generation(), blob: blob, m: m, runs: runs, reused: b.Reused()}, nil
}

// addChunks analyses every chunk of snap, in order, into b.
func (s *Store) addChunks(snap *Snapshot, an retrieve.Analyzers, b *lexical.InPlaceBuilder) error {
	err := b.AddBatched(snap.NumChunks(), lexBatch, func(i int) []string { return an.Terms(snap.Chunk(i), snap.Lang(i)) })
	if err != nil {
		return err
	}
	return snap.damage()
}

// lexicalAddedHook, when set (by tests), is called once a lexical build
// has added every chunk, before it writes the index, with the number of
// chunks it reused.
var lexicalAddedHook func(reused int)

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
