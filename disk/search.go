package disk

import (
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"time"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/retrieve"
)

// View is one generation ready to search: the snapshot and its search
// index (built in memory, or read from the derived blobs of a large
// store). The snapshot gives the documents the hits cite
// (Snapshot.Document).
type View struct {
	Snap  *Snapshot
	Index *retrieve.Index

	lexical *builtLexical // the lexical index this view built, until it is persisted
}

// chunkSource serves a snapshot's chunks to retrieve, decoding each when
// it is asked for.
type chunkSource struct{ s *Snapshot }

func (c chunkSource) Len() int                { return c.s.NumChunks() }
func (c chunkSource) Chunk(i int) fonte.Chunk { return c.s.Chunk(i) }
func (c chunkSource) Lang(i int) string       { return c.s.Lang(i) }
func (c chunkSource) Tags(i int) []string     { return c.s.Tags(i) }
func (c chunkSource) Languages() []string     { return c.s.Languages() }

// FirstOfDoc reports whether chunk i is its document's first, reading
// no record: what retrieve's partition of the chunks by access labels
// asks of every chunk.
func (c chunkSource) FirstOfDoc(i int) bool {
	k, local := c.s.segOf(i)
	dir := &c.s.segs[k].file.dir
	return int(dir.docChunk[dir.docOfChunk(local)]) == local
}

// AccessTags returns chunk i's document's access tags (nil for none),
// decoding its record's head in place: the partition reads them for
// every document, and Tags's copy of the whole record would be garbage.
func (c chunkSource) AccessTags(i int) []string {
	k, local := c.s.segOf(i)
	sf := c.s.segs[k].file
	r := metaReader{b: sf.meta[sf.dir.docOff[sf.dir.docOfChunk(local)]:]}
	return readDocAccessTags(&r, fonte.AccessTagPrefix)
}

func (c chunkSource) DocID(i int) string {
	k, local := c.s.segOf(i)
	dir := &c.s.segs[k].file.dir
	return string(dir.id(dir.docOfChunk(local)))
}

// view caches the latest View; guarded by viewMu.
type viewCache struct {
	cur *View
}

func (s *Store) analyzers() retrieve.Analyzers {
	if s.opts.Analyzers.Default == nil {
		return retrieve.DefaultAnalyzers()
	}
	return s.opts.Analyzers
}

// View returns the latest generation with its search index, building the
// index once per generation (handing the previous one's graph over, so an
// HNSW graph is updated in place rather than rebuilt).
//
// Readers never build and never wait for a build, except the first view
// of a Store: when a newer generation is committed (by this Store's
// writer or another process), View serves the previous view and starts
// one background build of the new one, which later calls get. A writer
// that wants its commit visible to the reads that follow calls
// ViewLatest once after the commit (the engine does), which builds it.
func (s *Store) View() (*View, error) {
	return s.view(false)
}

// ViewLatest is View, waiting for the latest generation's index rather
// than serving the previous one while it is built.
func (s *Store) ViewLatest() (*View, error) {
	return s.view(true)
}

func (s *Store) view(wait bool) (*View, error) {
	snap, err := s.Snapshot()
	if err != nil {
		return nil, err
	}
	cur := s.currentView()
	if cur.of(snap) {
		return cur, nil
	}
	if cur != nil && !wait {
		// A query must not pay for a build (a million chunks' indexes
		// take seconds to minutes to bring up to date): it is served the
		// previous generation meanwhile.
		s.buildInBackground()
		return cur, nil
	}
	s.buildMu.Lock()
	defer s.buildMu.Unlock()
	if cur = s.currentView(); cur.of(snap) {
		return cur, nil // built while this caller waited
	}
	c := retrieve.Corpus{Source: chunkSource{snap}, Owner: snap, Dim: snap.Dim()}
	if snap.NumChunks() > 0 {
		c.Rows, c.Parts = snap.Rows(), snap.FlatParts()
	}
	var prev *retrieve.Index
	if cur != nil {
		prev = cur.Index
	}
	// Building over prev's graph re-points its rows at snap's: pin snap
	// until the next build, so that a build that fails halfway leaves the
	// graph (still searched through prev) no rows that could be unmapped.
	s.rowsOwner = snap
	o := s.derivedOptions(snap, prev)
	o.Workers = buildWorkers(cur != nil)
	if cur != nil {
		// Readers are served meanwhile: keep the collector off their backs.
		defer relaxGC()()
	}
	var lex *builtLexical
	if o.BM25 == nil && !s.opts.ReadOnly && snap.NumChunks() >= PersistMinChunks {
		// A writer (one that will persist it) builds a large lexical index
		// within its memory budget; in memory, the postings of a million
		// chunks took gigabytes.
		if lex, err = s.buildLexical(snap, o.Workers, cur); err != nil {
			slog.Warn("building the lexical index in memory instead", "dir", s.dir, "err", err)
			lex = nil
		} else {
			o.BM25 = lex.m
		}
	}
	start := time.Now()
	idx, err := retrieve.NewWith(c, s.analyzers(), o)
	if err != nil {
		return nil, fmt.Errorf("disk: indexing %s: %w", s.dir, err)
	}
	if lex == nil {
		// A reader's view of a newer generation, or a writer's of a store
		// too small for buildLexical (which carries them itself).
		s.carryBlockMaxima(idx.BM25(), snap.Generation(), cur)
	}
	if lex != nil {
		// The rest of a writer's build (the graph brought up to date): with
		// the lexical build's line, where a large write's time goes.
		slog.Debug("search index built", "dir", s.dir, "generation", snap.Generation(), "seconds", time.Since(start).Seconds())
	}
	v := &View{Snap: snap, Index: idx, lexical: lex}
	s.viewMu.Lock()
	if s.views.cur == nil || s.views.cur.Snap.Generation() < snap.Generation() || s.views.cur.Snap.storeID != snap.storeID {
		s.views.cur = v
	}
	s.viewMu.Unlock()
	return v, nil
}

// buildWorkers is how many goroutines a view build runs on. While an
// earlier view serves queries (a writer's commit, a newer generation seen
// by a reader) the build leaves one processor to the readers: with every
// processor busy building, a query waits in the scheduler's queue behind
// the build's goroutines, and on two cores that made queries of hundreds
// of milliseconds. The first view of a Store, which queries wait for,
// uses them all.
func buildWorkers(serving bool) int {
	n := runtime.GOMAXPROCS(0)
	if serving {
		return max(1, n-1)
	}
	return n
}

// buildInBackground starts a build of the latest generation's view unless
// one is running.
func (s *Store) buildInBackground() {
	if !s.bgBuild.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer s.bgBuild.Store(false)
		if _, err := s.view(true); err != nil && !errors.Is(err, ErrClosed) {
			slog.Warn("building the search index of a new generation", "dir", s.dir, "err", err)
		}
	}()
}

// of reports whether v is the view of snap's generation.
func (v *View) of(snap *Snapshot) bool {
	return v != nil && v.Snap.storeID == snap.storeID && v.Snap.Generation() == snap.Generation()
}

// currentView is the last view built.
func (s *Store) currentView() *View {
	s.viewMu.Lock()
	defer s.viewMu.Unlock()
	return s.views.cur
}
