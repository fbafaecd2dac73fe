package disk

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/internal/yield"
	"github.com/fonte-rag/fonte/vector"
)

// Snapshot is one committed generation, read in place from its files. It
// is immutable and safe for any number of concurrent readers. Chunks are
// numbered 0..NumChunks-1 segment by segment in the manifest's order,
// within a segment documents in ID order and each document's chunks in
// Position order; the numbering is stable within a snapshot only.
//
// Opening a snapshot parses no document: each segment's directory is read
// in place, and a chunk or document is decoded from the segment's meta
// section when it is asked for (Chunk, Doc, Info). Slices returned by a
// Snapshot (vectors, blobs) are shared with it and must not be modified;
// strings it returns are its callers' own.
type Snapshot struct {
	storeID   string
	gen       uint64
	committed time.Time
	cfg       Config
	segs      []segInfo // in manifest order
	blobs     map[string]blobData
	docBase   []int // segment k's documents are [docBase[k], docBase[k+1])
	chunkBase []int // and its chunks [chunkBase[k], chunkBase[k+1])

	rowsOnce sync.Once
	rows     [][]float32 // per chunk, into its segment's vector block

	// The embedding cache's index (VectorForText), built on first use
	// and dropped when the write that used it ends (dropTextHashes).
	hashMu sync.Mutex
	byHash map[[sha256.Size]byte]int // hex SHA-256 text hashes, by their bytes
	byText map[string]int            // any other text hash
}

// segInfo is one segment of the generation.
type segInfo struct {
	entry segmentEntry
	file  *segFile
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
func (s *Snapshot) NumDocs() int { return s.docBase[len(s.segs)] }

// NumChunks is the number of chunks, and of vectors.
func (s *Snapshot) NumChunks() int { return s.chunkBase[len(s.segs)] }

// Segments is the number of segment files the generation is stored in.
func (s *Snapshot) Segments() int { return len(s.segs) }

// Docs describes every document, sorted by ID. A document whose record
// does not decode is left out (and the store reports the damage).
func (s *Snapshot) Docs() []DocInfo {
	// A write's first step, seconds at a million documents beside live
	// readers: it gives way to searches every docsPerYield documents
	// read or comparisons made (internal/yield).
	y := yield.NewEvery(docsPerYield)
	out := make([]DocInfo, 0, s.NumDocs())
	for k := range s.segs {
		for j := range s.segs[k].file.numDocs() {
			if info, err := s.info(k, j); err == nil {
				out = append(out, info)
			}
			y.Step(1)
		}
	}
	slices.SortFunc(out, func(a, b DocInfo) int {
		y.Step(1)
		return strings.Compare(a.ID, b.ID)
	})
	return out
}

// docsPerYield is how many documents a pass over a snapshot's documents
// decodes, or how many comparisons its sort makes, between offers to give
// way to searches: about a microsecond each.
const docsPerYield = 1024

// Info describes the document with the given ID.
func (s *Snapshot) Info(id string) (DocInfo, bool) {
	k, j, ok := s.find(id)
	if !ok {
		return DocInfo{}, false
	}
	info, err := s.info(k, j)
	return info, err == nil
}

func (s *Snapshot) info(k, j int) (DocInfo, error) {
	sf := s.segs[k].file
	e, n, err := sf.docHead(j, true)
	if err != nil {
		return DocInfo{}, err
	}
	d := &e.doc
	bytes := len(d.Text)
	d.Text = "" // not copied by detach: only its length is reported
	e.detach()
	return DocInfo{
		ID: d.ID, Title: d.Title, Source: d.Source, Language: d.Language,
		SHA256: d.SHA256, Updated: d.Updated, Tags: d.Tags,
		Bytes: bytes, Chunks: n, Meta: e.meta,
	}, nil
}

// Document returns the document with the given ID without its text, as a
// search result cites it.
func (s *Snapshot) Document(id string) (fonte.Document, bool) {
	k, j, ok := s.find(id)
	if !ok {
		return fonte.Document{}, false
	}
	e, _, err := s.segs[k].file.docHead(j, false)
	if err != nil {
		return fonte.Document{}, false
	}
	d := e.doc
	d.Text = ""
	return fonte.Document{ID: strings.Clone(d.ID), Title: strings.Clone(d.Title), Source: strings.Clone(d.Source),
		Language: strings.Clone(d.Language), SHA256: strings.Clone(d.SHA256), Updated: d.Updated, Tags: cloneStrings(d.Tags)}, true
}

// Doc returns the document's full record. Its vectors are shared with the
// snapshot.
func (s *Snapshot) Doc(id string) (Record, bool) {
	k, j, ok := s.find(id)
	if !ok {
		return Record{}, false
	}
	d, err := s.data(k, j)
	if err != nil {
		return Record{}, false
	}
	d.detach()
	return d.record(s.cfg.Dim), true
}

// ChunkRange returns the global numbers [start, end) of a document's
// chunks.
func (s *Snapshot) ChunkRange(id string) (start, end int, ok bool) {
	k, j, ok := s.find(id)
	if !ok {
		return 0, 0, false
	}
	dir := &s.segs[k].file.dir
	return s.chunkBase[k] + int(dir.docChunk[j]), s.chunkBase[k] + int(dir.docChunk[j+1]), true
}

// segOf returns the segment holding chunk i and i's number within it.
func (s *Snapshot) segOf(i int) (k, local int) {
	k = sort.Search(len(s.segs), func(k int) bool { return s.chunkBase[k+1] > i })
	return k, i - s.chunkBase[k]
}

// Chunk returns chunk i, 0 <= i < NumChunks. A chunk whose record does not
// decode comes back empty, and the store reports the damage.
func (s *Snapshot) Chunk(i int) fonte.Chunk {
	k, c := s.segOf(i)
	ch, _, _ := s.segs[k].file.decodeChunk(c)
	return ch
}

// Lang returns the language of chunk i's document.
func (s *Snapshot) Lang(i int) string {
	k, c := s.segOf(i)
	dir := &s.segs[k].file.dir
	return dir.langs[dir.docLang[dir.docOfChunk(c)]]
}

// Tags returns the tags of chunk i's document.
func (s *Snapshot) Tags(i int) []string {
	k, c := s.segOf(i)
	sf := s.segs[k].file
	d, _, err := sf.docHead(sf.dir.docOfChunk(c), false)
	if err != nil {
		return nil
	}
	return cloneStrings(d.doc.Tags)
}

// Languages lists the languages of the snapshot's documents, sorted.
func (s *Snapshot) Languages() []string {
	var out []string
	for _, sg := range s.segs {
		for _, l := range sg.file.dir.langs {
			if !slices.Contains(out, l) {
				out = append(out, l)
			}
		}
	}
	slices.Sort(out)
	return out
}

// TextHash returns the text hash stored with chunk i ("" if none).
func (s *Snapshot) TextHash(i int) string {
	k, c := s.segOf(i)
	_, h, _ := s.segs[k].file.decodeChunk(c)
	return h
}

// Vector returns chunk i's vector. It points into the segment file's
// read-only memory map: it is valid while the Snapshot is reachable.
func (s *Snapshot) Vector(i int) []float32 {
	k, c := s.segOf(i)
	d := s.cfg.Dim
	return s.segs[k].file.vecs[c*d : (c+1)*d : (c+1)*d]
}

// Rows returns every chunk's vector, NumChunks of them, with Vector's
// lifetime.
func (s *Snapshot) Rows() [][]float32 {
	s.rowsOnce.Do(func() {
		s.rows = make([][]float32, 0, s.NumChunks())
		d := s.cfg.Dim
		for _, sg := range s.segs {
			v := sg.file.vecs
			for c := range sg.file.numChunks() {
				s.rows = append(s.rows, v[c*d:(c+1)*d:(c+1)*d])
			}
		}
	})
	return s.rows[:len(s.rows):len(s.rows)]
}

// FlatParts returns the vectors segment by segment, each with the int8
// copy exact search scans when the segment carries one, for a
// vector.FlatView; they share Vector's lifetime.
func (s *Snapshot) FlatParts() []vector.FlatPart {
	parts := make([]vector.FlatPart, 0, len(s.segs))
	for _, sg := range s.segs {
		if sg.file.numChunks() > 0 {
			parts = append(parts, vector.FlatPart{Data: sg.file.vecs, Int8: sg.file.int8})
		}
	}
	return parts
}

// Keys returns every chunk's graph key (retrieve.ChunkKey), in order.
func (s *Snapshot) Keys() []uint64 {
	keys := make([]uint64, 0, s.NumChunks())
	for _, sg := range s.segs {
		keys = append(keys, sg.file.dir.keys...)
	}
	return keys
}

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

// VerifyDocuments verifies the whole-file checksums of the segments that
// hold the documents ids (those the snapshot does not hold are skipped),
// waiting for a check the background pass has begun and making one it
// has not reached: opening checks a segment's header and directory, not
// the records' bytes, so a one-shot command, which ends before the
// background pass gets far, would otherwise send text no check has
// vouched for. A segment checked once costs nothing more.
func (s *Snapshot) VerifyDocuments(ids ...string) error {
	for _, id := range ids {
		if k, _, ok := s.find(id); ok {
			if err := s.segs[k].file.verify(); err != nil {
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
	s.hashMu.Lock()
	if s.byHash == nil {
		s.indexTextHashes()
	}
	var i int
	var ok bool
	if raw, hexed := rawHash(textHash); hexed {
		i, ok = s.byHash[raw]
	} else {
		i, ok = s.byText[textHash]
	}
	s.hashMu.Unlock()
	if !ok {
		return nil, false
	}
	return s.Vector(i), true
}

// indexTextHashes maps every chunk's text hash to its row, the first row
// of a hash held by several. A hex SHA-256 (every hash fonte computes) is
// keyed by its 32 bytes: keyed by the hex string, decoded anew for the
// map, a million chunks' index held 108 MB through the whole write
// (BENCHMARKS.md, "The write's memory at a million chunks"). The caller
// holds hashMu.
func (s *Snapshot) indexTextHashes() {
	s.byHash = make(map[[sha256.Size]byte]int, s.NumChunks())
	s.byText = map[string]int{}
	y := yield.NewEvery(docsPerYield) // as Docs: a write's step of seconds
	for k, sg := range s.segs {
		sf := sg.file
		for j := range sf.numDocs() {
			y.Step(1)
			d, err := sf.decodeDoc(j)
			if err != nil {
				continue
			}
			first := s.chunkBase[k] + int(sf.dir.docChunk[j])
			for c, h := range d.hashes {
				if h == "" {
					continue
				}
				if raw, hexed := rawHash(h); hexed {
					if _, dup := s.byHash[raw]; !dup {
						s.byHash[raw] = first + c
					}
				} else if _, dup := s.byText[h]; !dup {
					s.byText[h] = first + c
				}
			}
		}
	}
}

// dropTextHashes lets the embedding cache's index go: a write builds it
// for its own lookups, and the base snapshot outlives the write (the
// previous view holds it until the new one is built, the memory peak of a
// large write).
func (s *Snapshot) dropTextHashes() {
	s.hashMu.Lock()
	s.byHash, s.byText = nil, nil
	s.hashMu.Unlock()
}

// rawHash is h's bytes if h is a SHA-256 in lower-case hex (the form a
// segment stores as bytes, hexBytes).
func rawHash(h string) (raw [sha256.Size]byte, ok bool) {
	return raw, copy(raw[:], hexBytes(h)) == sha256.Size
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

// find returns the segment and the number within it of the document
// with the given ID.
func (s *Snapshot) find(id string) (k, j int, ok bool) {
	for k := range s.segs {
		if j, ok := s.segs[k].file.dir.find(id); ok {
			return k, j, true
		}
	}
	return 0, 0, false
}

// data returns document j of segment k in internal form, its strings
// views of the segment (see docData.detach).
func (s *Snapshot) data(k, j int) (*docData, error) { return s.segs[k].file.decodeDoc(j) }

// emptySnapshot is the start of a rebuild: no documents, the new config.
func emptySnapshot(m *manifest, cfg Config) *Snapshot {
	return &Snapshot{storeID: m.Store, gen: m.Generation, committed: m.Committed, cfg: cfg, docBase: []int{0}, chunkBase: []int{0}}
}

// loadSnapshot opens the generation m describes. Segments and blobs that
// prev already holds (same file, size and checksum) are taken from it, so
// moving to a new generation opens only what changed. reads counts the
// segments opened from disk; fresh names files this process has just
// written, whose checksums need no second check.
func loadSnapshot(dir string, m *manifest, prev *Snapshot, reads *atomic.Int64, fresh map[string]bool) (*Snapshot, error) {
	var have map[segmentEntry]*segFile
	var haveBlobs map[blobEntry]blobData
	if prev != nil && prev.storeID == m.Store && prev.cfg == m.Config {
		have = make(map[segmentEntry]*segFile, len(prev.segs))
		for _, sg := range prev.segs {
			have[sg.entry] = sg.file
		}
		haveBlobs = make(map[blobEntry]blobData, len(prev.blobs))
		for _, b := range prev.blobs {
			haveBlobs[b.entry] = b
		}
	}
	s := &Snapshot{
		storeID: m.Store, gen: m.Generation, committed: m.Committed, cfg: m.Config,
		segs: make([]segInfo, len(m.Segments)), docBase: make([]int, len(m.Segments)+1), chunkBase: make([]int, len(m.Segments)+1),
	}
	err := parallel(len(m.Segments), func(k int) error {
		e := m.Segments[k]
		if sf, ok := have[e]; ok {
			s.segs[k] = segInfo{entry: e, file: sf}
			return nil
		}
		sf, err := openSegment(filepath.Join(dir, e.File), e, m.Config.Dim)
		if err != nil {
			return err
		}
		if fresh[e.File] {
			sf.markVerified()
		}
		reads.Add(1)
		s.segs[k] = segInfo{entry: e, file: sf}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for k, sg := range s.segs {
		s.docBase[k+1] = s.docBase[k] + sg.file.numDocs()
		s.chunkBase[k+1] = s.chunkBase[k] + sg.file.numChunks()
	}
	s.blobs = make(map[string]blobData, len(m.Blobs))
	for _, e := range m.Blobs {
		b, ok := haveBlobs[e]
		if !ok {
			var err error
			if b, err = loadBlob(filepath.Join(dir, e.File), e); err != nil {
				return nil, err
			}
		}
		s.blobs[e.Name] = b
	}
	return s, nil
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
