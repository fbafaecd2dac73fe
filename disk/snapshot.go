package disk

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fonte-rag/fonte"
)

// Snapshot is one committed generation loaded in memory. It is immutable
// and safe for any number of concurrent readers. Chunks are numbered
// 0..NumChunks-1, documents in ID order and each document's chunks in
// Position order; the numbering is stable within a snapshot only.
//
// Slices returned by a Snapshot (vectors, blobs, headings) are shared with
// it and must not be modified.
type Snapshot struct {
	storeID   string
	gen       uint64
	committed time.Time
	cfg       Config
	segs      []segInfo // in manifest order
	blobs     map[string]blobData
	docs      []docEntry // sorted by ID
	chunks    []fonte.Chunk
	hashes    []string
	rows      [][]float32 // per chunk, into its segment's vector block

	hashOnce sync.Once
	byHash   map[string]int
}

// segInfo is one segment of the generation and the documents it holds.
type segInfo struct {
	entry segmentEntry
	file  *segFile // holds the vector block the documents' rows point into
	docs  []int    // indices into Snapshot.docs, in ID order
}

type docEntry struct {
	doc        fonte.Document
	meta       map[string]string
	start, end int       // the document's chunks
	vecs       []float32 // the document's vectors, row-major
}

// blobData is one blob of a generation: its bytes when small, or only
// where to read them (see Snapshot.ReadBlob).
type blobData struct {
	entry blobEntry
	data  []byte    // nil for a blob of lazyBlobBytes or more
	file  *blobFile // for a blob of lazyBlobBytes or more
}

// lazyBlobBytes is the size from which a snapshot does not keep a blob in
// memory but reads it when asked: a large blob (a serialized index of a
// million chunks is gigabytes) is decoded into its own structures by its
// user, and keeping its bytes too would double the memory it costs.
const lazyBlobBytes = 1 << 20

// Generation is the snapshot's generation number; every commit adds one.
func (s *Snapshot) Generation() uint64 { return s.gen }

// Committed is when the generation was committed.
func (s *Snapshot) Committed() time.Time { return s.committed }

// Config is the configuration the generation was built with.
func (s *Snapshot) Config() Config { return s.cfg }

// Dim is the length of every vector.
func (s *Snapshot) Dim() int { return s.cfg.Dim }

// NumDocs is the number of documents.
func (s *Snapshot) NumDocs() int { return len(s.docs) }

// NumChunks is the number of chunks, and of vectors.
func (s *Snapshot) NumChunks() int { return len(s.chunks) }

// Segments is the number of segment files the generation is stored in.
func (s *Snapshot) Segments() int { return len(s.segs) }

// Docs describes every document, sorted by ID.
func (s *Snapshot) Docs() []DocInfo {
	out := make([]DocInfo, len(s.docs))
	for i := range s.docs {
		out[i] = s.info(i)
	}
	return out
}

// Info describes the document with the given ID.
func (s *Snapshot) Info(id string) (DocInfo, bool) {
	i, ok := s.find(id)
	if !ok {
		return DocInfo{}, false
	}
	return s.info(i), true
}

func (s *Snapshot) info(i int) DocInfo {
	e := &s.docs[i]
	d := &e.doc
	return DocInfo{
		ID: d.ID, Title: d.Title, Source: d.Source, Language: d.Language,
		SHA256: d.SHA256, Updated: d.Updated, Tags: slices.Clone(d.Tags),
		Bytes: len(d.Text), Chunks: e.end - e.start, Meta: maps.Clone(e.meta),
	}
}

// Doc returns the document's full record. Its vectors are shared with the
// snapshot.
func (s *Snapshot) Doc(id string) (Record, bool) {
	i, ok := s.find(id)
	if !ok {
		return Record{}, false
	}
	return s.data(i).record(s.cfg.Dim), true
}

// ChunkRange returns the global numbers [start, end) of a document's
// chunks.
func (s *Snapshot) ChunkRange(id string) (start, end int, ok bool) {
	i, ok := s.find(id)
	if !ok {
		return 0, 0, false
	}
	return s.docs[i].start, s.docs[i].end, true
}

// Chunk returns chunk i, 0 <= i < NumChunks.
func (s *Snapshot) Chunk(i int) fonte.Chunk { return s.chunks[i] }

// TextHash returns the text hash stored with chunk i ("" if none).
func (s *Snapshot) TextHash(i int) string { return s.hashes[i] }

// Vector returns chunk i's vector. It points into the segment file's
// read-only memory map: it is valid while the Snapshot is reachable.
func (s *Snapshot) Vector(i int) []float32 { return s.rows[i] }

// Rows returns every chunk's vector, NumChunks of them, with Vector's
// lifetime.
func (s *Snapshot) Rows() [][]float32 { return s.rows[:len(s.rows):len(s.rows)] }

// Verify checks the checksum of every segment file of the generation that
// was not checked yet (opening checks only the header and the meta
// section; the vectors are checked by a background pass, see
// Store.Snapshot), and returns the first mismatch.
func (s *Snapshot) Verify() error {
	for _, sg := range s.segs {
		if err := sg.file.verify(); err != nil {
			return err
		}
	}
	for _, name := range s.BlobNames() {
		if f := s.blobs[name].file; f != nil {
			if err := f.verify(); err != nil {
				return err
			}
		}
	}
	return nil
}

// damage returns the error of a segment whose check has failed, without
// waiting for the checks still running.
func (s *Snapshot) damage() error {
	for _, sg := range s.segs {
		if err := sg.file.checked(); err != nil {
			return err
		}
	}
	for _, b := range s.blobs {
		if b.file != nil && b.file.failed.Load() {
			return b.file.verifyErr
		}
	}
	return nil
}

// VectorForText is the embedding cache: the vector of any chunk whose
// stored text hash is textHash, so unchanged text is not embedded again.
func (s *Snapshot) VectorForText(textHash string) ([]float32, bool) {
	if textHash == "" {
		return nil, false
	}
	// Built on first use: most snapshots, a writer's included, never need it.
	s.hashOnce.Do(func() {
		s.byHash = make(map[string]int, len(s.hashes))
		for i, h := range s.hashes {
			if h != "" {
				if _, dup := s.byHash[h]; !dup {
					s.byHash[h] = i
				}
			}
		}
	})
	i, ok := s.byHash[textHash]
	if !ok {
		return nil, false
	}
	return s.Vector(i), true
}

// Blob returns a blob committed with the generation, or false when there
// is none or it cannot be read (see ReadBlob for the error).
func (s *Snapshot) Blob(name string) ([]byte, bool) {
	b, err := s.ReadBlob(name)
	return b, err == nil
}

// ErrNoBlob is returned by ReadBlob for a name the generation lacks.
var ErrNoBlob = errors.New("disk: no such blob")

// ReadBlob returns a blob committed with the generation. Blobs under a
// megabyte are held in memory; larger ones are read from their file and
// checked on every call, and not kept, so the caller owns the bytes. A
// large blob's file is kept as long as its generation is current or the
// one before it; reading it from an older snapshot may fail.
func (s *Snapshot) ReadBlob(name string) ([]byte, error) {
	b, ok := s.blobs[name]
	switch {
	case !ok:
		return nil, fmt.Errorf("%w: %q", ErrNoBlob, name)
	case b.data != nil:
		return b.data, nil
	}
	return readBlob(b.file.path, b.entry)
}

// MapBlob returns a blob's bytes without copying a large one: a
// read-only memory map of its file (writing to it crashes the process),
// valid while the Snapshot is reachable, so whoever reads it in place
// keeps the Snapshot. Opening checks the blob's size and its trailer
// against the manifest; its whole checksum is verified by Verify (and the
// background pass that follows a load). Small blobs are returned from
// memory. The bytes start 64-byte aligned in the file.
func (s *Snapshot) MapBlob(name string) ([]byte, error) {
	b, ok := s.blobs[name]
	switch {
	case !ok:
		return nil, fmt.Errorf("%w: %q", ErrNoBlob, name)
	case b.file == nil:
		return b.data, nil
	}
	return b.file.bytes()
}

// BlobNames lists the generation's blobs, sorted.
func (s *Snapshot) BlobNames() []string {
	return slices.Sorted(maps.Keys(s.blobs))
}

func (s *Snapshot) find(id string) (int, bool) {
	return slices.BinarySearchFunc(s.docs, id, func(e docEntry, id string) int {
		return strings.Compare(e.doc.ID, id)
	})
}

// data returns document i in internal form, sharing the snapshot's memory.
func (s *Snapshot) data(i int) *docData {
	e := &s.docs[i]
	return &docData{
		doc:    e.doc,
		meta:   e.meta,
		chunks: s.chunks[e.start:e.end:e.end],
		hashes: s.hashes[e.start:e.end:e.end],
		vecs:   e.vecs,
	}
}

// emptySnapshot is the start of a rebuild: no documents, the new config.
func emptySnapshot(m *manifest, cfg Config) *Snapshot {
	return &Snapshot{storeID: m.Store, gen: m.Generation, committed: m.Committed, cfg: cfg}
}

// segSource is one segment's documents on their way into a snapshot,
// with the file their vectors live in.
type segSource struct {
	entry segmentEntry
	file  *segFile
	docs  []*docData
}

// assemble lays the sources' documents out in ID order in one set of
// arrays; vectors stay where their segment holds them.
func assemble(m *manifest, sources []segSource, blobs map[string]blobData) (*Snapshot, error) {
	type ref struct {
		d   *docData
		seg int
	}
	var all []ref
	chunks := 0
	for k, src := range sources {
		for _, d := range src.docs {
			all = append(all, ref{d, k})
			chunks += len(d.chunks)
		}
	}
	slices.SortFunc(all, func(a, b ref) int { return cmp.Compare(a.d.doc.ID, b.d.doc.ID) })
	for i := 1; i < len(all); i++ {
		if all[i].d.doc.ID == all[i-1].d.doc.ID {
			return nil, fmt.Errorf("%w: document %q is stored in both %s and %s", ErrCorrupt,
				all[i].d.doc.ID, sources[all[i-1].seg].entry.File, sources[all[i].seg].entry.File)
		}
	}
	dim := m.Config.Dim
	s := &Snapshot{
		storeID: m.Store, gen: m.Generation, committed: m.Committed, cfg: m.Config,
		segs:   make([]segInfo, len(sources)),
		blobs:  blobs,
		docs:   make([]docEntry, len(all)),
		chunks: make([]fonte.Chunk, chunks),
		hashes: make([]string, chunks),
		rows:   make([][]float32, chunks),
	}
	for k, src := range sources {
		s.segs[k] = segInfo{entry: src.entry, file: src.file, docs: make([]int, 0, len(src.docs))}
	}
	pos := 0
	for gi, r := range all {
		d := r.d
		n := len(d.chunks)
		s.docs[gi] = docEntry{doc: d.doc, meta: d.meta, start: pos, end: pos + n, vecs: d.vecs}
		copy(s.chunks[pos:], d.chunks)
		copy(s.hashes[pos:], d.hashes)
		for j := range n {
			s.rows[pos+j] = d.vecs[j*dim : (j+1)*dim : (j+1)*dim]
		}
		s.segs[r.seg].docs = append(s.segs[r.seg].docs, gi)
		pos += n
	}
	return s, nil
}

// loadSnapshot builds the generation m describes. Segments and blobs that
// prev already holds (same file, size and checksum) are taken from it, so
// moving to a new generation reads only what changed. reads counts the
// segments read from disk; fresh names files this process has just
// written, whose checksums need no second check.
func loadSnapshot(dir string, m *manifest, prev *Snapshot, reads *atomic.Int64, fresh map[string]bool) (*Snapshot, error) {
	var have map[segmentEntry]*segInfo
	var haveBlobs map[blobEntry]blobData
	if prev != nil && prev.storeID == m.Store && prev.cfg == m.Config {
		have = make(map[segmentEntry]*segInfo, len(prev.segs))
		for i := range prev.segs {
			have[prev.segs[i].entry] = &prev.segs[i]
		}
		haveBlobs = make(map[blobEntry]blobData, len(prev.blobs))
		for _, b := range prev.blobs {
			haveBlobs[b.entry] = b
		}
	}
	sources := make([]segSource, len(m.Segments))
	err := parallel(len(m.Segments), func(k int) error {
		e := m.Segments[k]
		if sg, ok := have[e]; ok {
			docs := make([]*docData, len(sg.docs))
			for i, di := range sg.docs {
				docs[i] = prev.data(di)
			}
			sources[k] = segSource{entry: e, file: sg.file, docs: docs}
			return nil
		}
		docs, sf, err := loadSegment(filepath.Join(dir, e.File), e, m.Config.Dim)
		if err != nil {
			return err
		}
		if fresh[e.File] {
			sf.markVerified()
		}
		reads.Add(1)
		sources[k] = segSource{entry: e, file: sf, docs: docs}
		return nil
	})
	if err != nil {
		return nil, err
	}
	blobs := make(map[string]blobData, len(m.Blobs))
	for _, e := range m.Blobs {
		b, ok := haveBlobs[e]
		if !ok {
			var err error
			if b, err = loadBlob(filepath.Join(dir, e.File), e); err != nil {
				return nil, err
			}
		}
		blobs[e.Name] = b
	}
	return assemble(m, sources, blobs)
}

// loadBlob reads a small blob whole; of a large one it checks only that
// its file has the size the manifest says (the checksum is verified when
// it is read).
func loadBlob(path string, e blobEntry) (blobData, error) {
	if e.Size < lazyBlobBytes {
		data, err := readBlob(path, e)
		return blobData{entry: e, data: data}, err
	}
	info, err := os.Stat(path)
	if err != nil {
		return blobData{}, wrapFile("reading blob", path, err)
	}
	if info.Size() != e.Size {
		return blobData{}, corrupt(path, "%d bytes, the manifest says %d", info.Size(), e.Size)
	}
	return blobData{entry: e, file: &blobFile{path: path, entry: e}}, nil
}

// parallel runs fn(0), ..., fn(n-1) on up to GOMAXPROCS goroutines and
// returns the error of the lowest i that failed.
func parallel(n int, fn func(i int) error) error {
	workers := min(n, runtime.GOMAXPROCS(0))
	if workers <= 1 {
		for i := range n {
			if err := fn(i); err != nil {
				return err
			}
		}
		return nil
	}
	errs := make([]error, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				errs[i] = fn(i)
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
