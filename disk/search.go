package disk

import (
	"fmt"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/retrieve"
)

// View is one generation ready to search: the snapshot, its search index
// (built in memory, or decoded from the derived blobs of a large store)
// and its documents without their text, by id.
type View struct {
	Snap  *Snapshot
	Index *retrieve.Index
	Docs  map[string]fonte.Document
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
func (s *Store) View() (*View, error) {
	snap, err := s.Snapshot()
	if err != nil {
		return nil, err
	}
	s.viewMu.Lock()
	defer s.viewMu.Unlock()
	if v := s.views.cur; v != nil && v.Snap.Generation() == snap.Generation() {
		return v, nil
	}
	n := snap.NumChunks()
	c := retrieve.Corpus{Chunks: make([]fonte.Chunk, n), Langs: make([]string, n), Tags: make([][]string, n),
		Vectors: snap.Vectors(), Dim: snap.Dim()}
	docs := make(map[string]fonte.Document, snap.NumDocs())
	for _, d := range snap.Docs() {
		docs[d.ID] = d.Document()
		lo, hi, _ := snap.ChunkRange(d.ID)
		for i := lo; i < hi; i++ {
			c.Chunks[i] = snap.Chunk(i)
			c.Langs[i] = d.Language
			c.Tags[i] = d.Tags
		}
	}
	if n == 0 {
		c.Vectors = nil
	}
	var prev *retrieve.Index
	if s.views.cur != nil {
		prev = s.views.cur.Index
	}
	idx, err := retrieve.NewWith(c, s.analyzers(), s.derivedOptions(snap, prev))
	if err != nil {
		return nil, fmt.Errorf("disk: indexing %s: %w", s.dir, err)
	}
	v := &View{Snap: snap, Index: idx, Docs: docs}
	s.views.cur = v
	return v, nil
}
