package disk

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"maps"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Tx is a write transaction: the changes an Update function makes, applied
// all together when it returns nil. Its methods are safe for concurrent
// use, so documents embedded in parallel can be put from several
// goroutines.
type Tx struct {
	store *Store
	base  *Snapshot

	mu    sync.Mutex
	puts  map[string]*docData
	dels  map[string]bool // base documents deleted
	blobs map[string][]byte
	done  bool

	// Spilling (spill.go): puts written out before the commit.
	gen      uint64 // the generation the commit will write
	pending  int64  // estimated bytes of puts
	nextSeg  int    // the number of the next segment file
	spilled  []spilledSeg
	spillIDs map[string]int // spilled document -> its segment in spilled
	stale    map[int]bool   // spilled segments holding superseded documents
	created  []string       // files written so far, removed if the commit fails
	written  int            // chunks in the segments written so far
	keep     []*segFile     // segments whose rows the commit still reads
}

// Base is the generation the transaction started from: compare content
// hashes against it to skip unchanged documents, and look up cached
// vectors with its VectorForText.
func (tx *Tx) Base() *Snapshot { return tx.base }

// Put adds a document, or replaces the one with the same Doc.ID. It checks
// that there is one vector per chunk, each of the index's dimension and
// finite, and that chunks are in increasing Position order; errors wrap
// ErrInvalidRecord and name the document and chunk. Put copies r.
func (tx *Tx) Put(r Record) error {
	d, err := newDocData(r, tx.store.cfg.Dim)
	if err != nil {
		return err
	}
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if tx.done {
		return ErrTxDone
	}
	tx.forget(d.doc.ID)
	if old := tx.puts[d.doc.ID]; old != nil {
		tx.pending -= old.estimate(tx.store.cfg.Dim)
	}
	tx.puts[d.doc.ID] = d
	tx.pending += d.estimate(tx.store.cfg.Dim)
	if tx.pending >= tx.store.opts.txMemory() {
		return tx.spill()
	}
	return nil
}

// Delete removes a document and reports whether it was there (in the base
// or put earlier in the transaction).
func (tx *Tx) Delete(docID string) bool {
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if tx.done {
		return false
	}
	d, put := tx.puts[docID]
	if put {
		tx.pending -= d.estimate(tx.store.cfg.Dim)
	}
	delete(tx.puts, docID)
	if tx.forget(docID) {
		put = true
	}
	_, _, inBase := tx.base.find(docID)
	was := put || inBase && !tx.dels[docID]
	if inBase {
		tx.dels[docID] = true
	}
	return was
}

// SetBlob stores data under name with the commit, replacing any blob of
// that name; nil data deletes it. SetBlob copies data.
func (tx *Tx) SetBlob(name string, data []byte) {
	if data != nil {
		data = append(make([]byte, 0, len(data)), data...)
	}
	tx.SetBlobOwned(name, data)
}

// SetBlobOwned is SetBlob without the copy, for a large encoded index the
// caller made for the purpose: data must not change until the
// transaction ends.
func (tx *Tx) SetBlobOwned(name string, data []byte) {
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if tx.done {
		return
	}
	tx.blobs[name] = data
}

// Write runs fn in a transaction and commits its changes as a new
// generation when fn returns nil. One writer at a time: the Updates of one
// Store run one after another, and Update waits for a writer in another
// Store or process up to Options.LockTimeout (then ErrLocked). When fn
// returns an error, or ctx ends before the commit, nothing changes and the
// error is returned. A transaction that changes nothing commits nothing.
//
// An error from the commit itself names the file that failed and means
// the previous generation is still the current one, except for errors
// wrapping ErrNotDurable (see there).
func (s *Store) Write(ctx context.Context, fn func(tx *Tx) error) error {
	if s.opts.ReadOnly {
		return ErrReadOnly
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("disk: update of %s cancelled: %w", s.dir, err)
	}
	select {
	case s.writer <- struct{}{}:
	case <-ctx.Done():
		return fmt.Errorf("disk: waiting to write %s: %w", s.dir, ctx.Err())
	}
	defer func() { <-s.writer }()
	if s.isClosed() {
		return ErrClosed
	}
	if err := s.acquire(ctx); err != nil {
		return err
	}
	defer s.release()

	raw, m, err := s.readManifest()
	if err != nil {
		return err
	}
	var base *Snapshot
	switch {
	case s.rebuild:
		base = emptySnapshot(m, s.cfg)
	case m.Config != s.cfg:
		return &MismatchError{Dir: s.dir, Stored: m.Config, Requested: s.cfg}
	default:
		s.loadMu.Lock()
		base, err = s.loadLatest(raw, m)
		s.loadMu.Unlock()
		if err != nil {
			return err
		}
		// A commit copies the vectors of the segments it rewrites: they
		// must be checked before they are copied into new files.
		if err := base.Verify(); err != nil {
			return damaged(s.dir, err)
		}
	}
	// Files no generation references were left by a writer that crashed
	// or failed; they would only collide with this commit's names.
	s.removeUnreferenced(keepSet(m.files(), m.Retained))

	tx := &Tx{store: s, base: base, puts: map[string]*docData{}, dels: map[string]bool{}, blobs: map[string][]byte{},
		gen: m.Generation + 1, spillIDs: map[string]int{}, stale: map[int]bool{}}
	err = fn(tx)
	base.dropTextHashes() // the write's embedding cache; the base outlives it
	tx.mu.Lock()
	tx.done = true
	tx.mu.Unlock()
	if err == nil {
		if err = ctx.Err(); err != nil {
			err = fmt.Errorf("disk: update of %s cancelled: %w", s.dir, err)
		}
	}
	if err == nil {
		err = s.commit(ctx, tx, m)
	} else {
		tx.removeSpilled()
	}
	runtime.KeepAlive(tx.keep)
	return err
}

// commit writes the transaction's generation; the package documentation
// describes the steps and the merge policy.
func (s *Store) commit(ctx context.Context, tx *Tx, m *manifest) error {
	base, dim, target := tx.base, s.cfg.Dim, s.opts.segmentBytes()
	gone := func(id string) bool {
		_, spilled := tx.spillIDs[id]
		return tx.dels[id] || tx.puts[id] != nil || spilled
	}
	keepSpilled, rewrite, err := tx.spilledForCommit()
	if err != nil {
		tx.removeSpilled()
		return err
	}

	// Segments that lose a document are rewritten with their survivors;
	// the others are kept by reference.
	var reused []segInfo
	var out []*docData
	// survivors appends segment k's documents that the transaction did
	// not delete or replace.
	survivors := func(k int) error {
		sf := base.segs[k].file
		for j := range sf.numDocs() {
			if gone(view(sf.dir.id(j))) {
				continue
			}
			d, err := base.data(k, j)
			if err != nil {
				return err
			}
			out = append(out, d)
		}
		return nil
	}
	var reusedAt []int // reused[i] is base.segs[reusedAt[i]]
	for k, sg := range base.segs {
		if !losesDoc(sg.file, gone) {
			reused = append(reused, sg)
			reusedAt = append(reusedAt, k)
			continue
		}
		if err := survivors(k); err != nil {
			tx.removeSpilled()
			return err
		}
	}
	docsChanged := len(tx.puts) > 0 || len(tx.spilled) > 0 || len(reused) < len(base.segs)
	if !docsChanged && len(tx.blobs) == 0 && !s.rebuild {
		return nil
	}
	small := 0
	for _, sg := range reused {
		if sg.entry.Size < target/4 {
			small++
		}
	}
	// Only a commit that changes documents merges: one that only sets
	// blobs (the derived indexes, written for the generation before it)
	// keeps the segments, and so the chunk numbering, the blobs refer to.
	if small > maxSmallSegments && docsChanged {
		kept := reused[:0:0]
		for i, sg := range reused {
			if sg.entry.Size >= target/4 {
				kept = append(kept, sg)
				continue
			}
			if err := survivors(reusedAt[i]); err != nil {
				tx.removeSpilled()
				return err
			}
		}
		reused = kept
	}
	for _, d := range tx.puts {
		out = append(out, d)
	}
	out = append(out, rewrite...)
	slices.SortFunc(out, func(a, b *docData) int { return cmp.Compare(a.doc.ID, b.doc.ID) })

	gen := tx.gen
	next := &manifest{
		Format: formatVersion, Store: m.Store, Config: s.cfg, Generation: gen,
		Committed: time.Now().UTC(), Segments: []segmentEntry{},
	}
	// Until the manifest is renamed, a failure removes what this
	// transaction wrote, spilled segments included (best effort: the next
	// writer removes what is left).
	committed := false
	defer func() {
		if !committed {
			tx.removeSpilled()
		}
	}()

	for _, sg := range reused {
		next.Segments = append(next.Segments, sg.entry)
	}
	next.Segments = append(next.Segments, keepSpilled...)
	for _, group := range pack(out, dim, target) {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("disk: update of %s cancelled: %w", s.dir, err)
		}
		e, err := tx.writeSegment(group)
		if err != nil {
			return err
		}
		next.Segments = append(next.Segments, e)
	}

	blobs := maps.Clone(base.blobs)
	if blobs == nil {
		blobs = map[string]blobData{}
	}
	for k, name := range slices.Sorted(maps.Keys(tx.blobs)) {
		data := tx.blobs[name]
		if data == nil {
			delete(blobs, name)
			continue
		}
		e := blobEntry{Name: name, File: fmt.Sprintf("blob-%d-%d.fblob", gen, k)}
		tx.created = append(tx.created, e.File)
		err := s.writeFile("writing blob", s.path(e.File), func(w io.Writer) (err error) {
			e.Size, e.CRC32C, err = encodeBlob(w, data)
			return err
		})
		if err != nil {
			return err
		}
		blobs[name] = blobData{entry: e}
	}
	for _, name := range slices.Sorted(maps.Keys(blobs)) {
		next.Blobs = append(next.Blobs, blobs[name].entry)
	}

	live := keepSet(next.files())
	for _, f := range m.files() {
		if !live[f] {
			next.Retained = append(next.Retained, f)
		}
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("disk: update of %s cancelled: %w", s.dir, err)
	}
	// The new files' directory entries must be durable before a manifest
	// that names them can be.
	if err := s.fs.SyncDir(s.dir); err != nil {
		return wrapFile("syncing the folder", s.dir, err)
	}
	tx.created = append(tx.created, manifestTmp)
	raw, err := s.writeManifest(next)
	if err != nil {
		return err
	}
	committed = true

	// The generation is visible now; whatever happens next, report it as
	// current. Its new segments are mapped from the files just written
	// (the transaction's copies in memory are dropped), the others are
	// taken from the base.
	fresh := keepSet(tx.created)
	snap, aerr := loadSnapshot(s.dir, next, base, &atomic.Int64{}, fresh)
	if aerr == nil {
		s.install(snap, raw)
	}
	s.rebuild = false
	syncErr := s.fs.SyncDir(s.dir)
	// Keep the previous generation's files for readers that are loading
	// it; drop anything older.
	s.removeUnreferenced(keepSet(next.files(), m.files()))
	if syncErr != nil {
		return fmt.Errorf("%w: generation %d of %s is committed: %w", ErrNotDurable, gen, s.dir,
			wrapFile("syncing the folder", s.dir, syncErr))
	}
	if aerr != nil {
		return fmt.Errorf("disk: generation %d of %s is committed but could not be loaded: %w", gen, s.dir, aerr)
	}
	return nil
}

// losesDoc reports whether any document of sf is gone.
func losesDoc(sf *segFile, gone func(id string) bool) bool {
	for j := range sf.numDocs() {
		if gone(view(sf.dir.id(j))) {
			return true
		}
	}
	return false
}

// pack cuts docs, in order, into groups of about target encoded bytes; a
// document larger than target gets a group of its own.
func pack(docs []*docData, dim int, target int64) [][]*docData {
	var groups [][]*docData
	var cur []*docData
	var size int64
	for _, d := range docs {
		n := d.estimate(dim)
		if len(cur) > 0 && size+n > target {
			groups = append(groups, cur)
			cur, size = nil, 0
		}
		cur = append(cur, d)
		size += n
	}
	if len(cur) > 0 {
		groups = append(groups, cur)
	}
	return groups
}
