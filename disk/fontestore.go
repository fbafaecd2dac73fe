package disk

import (
	"context"
	"fmt"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/retrieve"
)

// The embedded store is fonte's first Store.
var (
	_ fonte.Store             = (*Store)(nil)
	_ fonte.LanguageTermStats = (*Store)(nil)
)

// Settings returns the configuration the folder's index records.
func (s *Store) Settings(ctx context.Context) (fonte.IndexSettings, error) {
	if s.isClosed() {
		return fonte.IndexSettings{}, ErrClosed
	}
	_, m, err := s.readManifest()
	if err != nil {
		return fonte.IndexSettings{}, err
	}
	return m.Config, nil
}

// Status describes the folder and its latest generation.
func (s *Store) Status(ctx context.Context) (fonte.StoreStatus, error) {
	snap, err := s.Snapshot()
	if err != nil {
		return fonte.StoreStatus{}, err
	}
	dense := "exact (in memory)"
	if s.opts.Dense == retrieve.DenseHNSW || s.opts.Dense == retrieve.DenseAuto && snap.NumChunks() >= retrieve.HNSWMinChunks {
		dense = "HNSW (in memory)"
	}
	return fonte.StoreStatus{Backend: "disk", Location: s.dir, Generation: snap.Generation(), Committed: snap.Committed(),
		Documents: snap.NumDocs(), Chunks: snap.NumChunks(), Lexical: "fonte BM25 (in memory)", Dense: dense}, nil
}

// Update runs fn in a write transaction (see Write) through the
// fonte.StoreTx interface.
func (s *Store) Update(ctx context.Context, fn func(tx fonte.StoreTx) error) error {
	return s.Write(ctx, func(tx *Tx) error { return fn(storeTx{tx}) })
}

// Documents describes every document of the latest generation.
func (s *Store) Documents(ctx context.Context) ([]fonte.DocInfo, error) {
	snap, err := s.Snapshot()
	if err != nil {
		return nil, err
	}
	return snap.Docs(), nil
}

// Document returns one document of the latest generation whole.
func (s *Store) Document(ctx context.Context, id string) (fonte.Record, error) {
	snap, err := s.Snapshot()
	if err != nil {
		return fonte.Record{}, err
	}
	r, ok := snap.Doc(id)
	if !ok {
		return fonte.Record{}, fmt.Errorf("disk: document %q in %s: %w", id, s.dir, fonte.ErrNotFound)
	}
	// Its text leaves the store: the file it came from is checked first.
	if err := s.VerifyDocuments(snap, id); err != nil {
		return fonte.Record{}, err
	}
	return r, nil
}

// LexicalTopK runs the lexical leg on the in-memory BM25 index.
func (s *Store) LexicalTopK(ctx context.Context, q fonte.LexicalQuery) ([]fonte.ScoredChunk, error) {
	v, err := s.View()
	if err != nil {
		return nil, err
	}
	return scoredChunks(v.Index, v.Index.LexicalTopK(q.Terms, q.K, q.Filter)), nil
}

// VectorTopK runs the dense leg on the in-memory vector index.
func (s *Store) VectorTopK(ctx context.Context, q fonte.VectorQuery) ([]fonte.ScoredChunk, error) {
	v, err := s.View()
	if err != nil {
		return nil, err
	}
	if v.Index.Len() == 0 {
		return nil, nil
	}
	if d := v.Snap.Dim(); len(q.Vector) != d {
		return nil, fmt.Errorf("disk: the query vector has %d dimensions, the index in %s has %d", len(q.Vector), s.dir, d)
	}
	return scoredChunks(v.Index, v.Index.VectorTopK(q.Vector, q.K, q.Filter)), nil
}

// TermStats reads the in-memory BM25 index's statistics over what a
// reader under access may read.
func (s *Store) TermStats(ctx context.Context, terms []string, access fonte.Filter) (fonte.TermStats, error) {
	v, err := s.View()
	if err != nil {
		return fonte.TermStats{}, err
	}
	return v.Index.TermStats(terms, access), nil
}

// TermStatsIn is TermStats with document frequencies that count the
// chunks of documents in one of langs only (see fonte.LanguageTermStats).
func (s *Store) TermStatsIn(ctx context.Context, terms []string, access fonte.Filter, langs []string) (fonte.TermStats, error) {
	v, err := s.View()
	if err != nil {
		return fonte.TermStats{}, err
	}
	return v.Index.TermStatsIn(terms, access, langs), nil
}

func scoredChunks(ix *retrieve.Index, rs []retrieve.Scored) []fonte.ScoredChunk {
	out := make([]fonte.ScoredChunk, len(rs))
	for i, r := range rs {
		out[i] = fonte.ScoredChunk{Chunk: ix.Chunk(r.Pos), Lang: ix.Lang(r.Pos), Score: r.Score}
	}
	return out
}

// storeTx is a Tx seen through fonte.StoreTx.
type storeTx struct{ tx *Tx }

func (t storeTx) Base(ctx context.Context) ([]fonte.DocInfo, error) { return t.tx.Base().Docs(), nil }

func (t storeTx) Vectors(ctx context.Context, hashes []string) ([][]float32, error) {
	out := make([][]float32, len(hashes))
	base := t.tx.Base()
	for i, h := range hashes {
		if v, ok := base.VectorForText(h); ok {
			out[i] = v
		}
	}
	return out, nil
}

func (t storeTx) Put(ctx context.Context, r fonte.Record) error { return t.tx.Put(r) }

// Delete also drops the derived indexes: the deleted document's terms
// must not outlive it in a stale lexical blob (the next commit or Purge
// writes fresh ones).
func (t storeTx) Delete(ctx context.Context, id string) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	if _, _, inBase := t.tx.Base().find(id); inBase {
		DropDerived(t.tx)
	}
	return t.tx.Delete(id), nil
}
