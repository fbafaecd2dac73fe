// Package engine wires fonte's stages into the jobs a user runs: index a
// folder into the embedded store, search it, ask it questions, delete from
// it and evaluate it. The CLI and the HTTP server are thin layers over an
// Engine; a Go program can embed one directly.
package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/analysis"
	"github.com/fonte-rag/fonte/answer"
	"github.com/fonte-rag/fonte/chunk"
	"github.com/fonte-rag/fonte/disk"
	"github.com/fonte-rag/fonte/embed"
	"github.com/fonte-rag/fonte/retrieve"
)

// DefaultIndexDir is where the index lives when no folder is given: in the
// working directory, hidden, like .git.
const DefaultIndexDir = ".fonte"

// Settings define an index (chunker, embedder, analysis: recorded in the
// store, which refuses to mix them) and the defaults of its queries.
type Settings struct {
	// IndexDir is the store folder (DefaultIndexDir when empty).
	IndexDir string
	// Chunker is "structure" (default: by heading path, sentence splits,
	// tables whole) or "window" (plain word windows).
	Chunker string
	// ChunkSize and Overlap are in words (defaults: chunk.DefaultStructure).
	ChunkSize, Overlap int
	// Embedder embeds chunks and queries; nil means DefaultEmbedder.
	Embedder fonte.Embedder
	// Generator writes answers; nil means the extractive answerer.
	Generator fonte.Generator
	// Reranker, when set, reorders the fused candidates before the floor.
	Reranker fonte.Reranker
	// DenseIndex chooses the dense leg's index: exact below
	// retrieve.HNSWMinChunks chunks and HNSW from there on by default.
	DenseIndex retrieve.DenseKind
	// Retrieval defaults.
	Mode          retrieve.Mode
	K             int
	LexicalWeight float64
	DenseWeight   float64
	// Floor and Budget are answer.Config's; zero Floor means
	// answer.DefaultFloor, a negative one disables abstaining.
	Floor  float64
	Budget int
	// Include and Exclude are globs for `Index` (see ingest.WalkOptions).
	Include, Exclude []string
}

// DefaultEmbedder is the dense leg fonte runs when no model server is
// configured: hashed character 3–5-grams in 512 dimensions. It needs no
// download and gives each chunk a vector that depends on its own text only,
// so indexing stays incremental; it adds typo- and inflection-tolerant
// matching to BM25 rather than real semantics.
func DefaultEmbedder() fonte.Embedder {
	e, err := embed.NewCharNGram(analysis.CharWB(3, 5), "char_wb-3-5", 512)
	if err != nil {
		panic(err) // constant arguments: cannot fail
	}
	return e
}

func (s *Settings) defaults() {
	if s.IndexDir == "" {
		s.IndexDir = DefaultIndexDir
	}
	if s.Chunker == "" {
		s.Chunker = "structure"
	}
	d := chunk.DefaultStructure()
	if s.ChunkSize == 0 {
		s.ChunkSize = d.MaxWords
	}
	if s.Overlap == 0 && s.ChunkSize == d.MaxWords {
		s.Overlap = d.OverlapWords
	}
	if s.Embedder == nil {
		s.Embedder = DefaultEmbedder()
	}
	builtin := s.Embedder.Model() == DefaultEmbedder().Model()
	// Leg weights: a real embedding model is an equal partner of BM25
	// (unweighted RRF); the built-in n-gram embedder knows spelling, not
	// meaning, so its leg counts half. On both of fonte's question sets
	// (examples/ and the 18F handbook) equal weights let n-gram noise push
	// BM25's first hit down (18F hit@1 0.47 vs 0.63 for BM25 alone) while
	// half weight keeps BM25's precision (0.60) and the dense leg's recall
	// (recall@100 0.95 vs 0.76 on examples/).
	if s.LexicalWeight == 0 && s.DenseWeight == 0 {
		s.LexicalWeight, s.DenseWeight = 1, 1
		if builtin {
			s.DenseWeight = 0.5
		}
	}
	if s.Mode == "" {
		s.Mode = retrieve.Hybrid
	}
	if s.K == 0 {
		s.K = 10
	}
	if s.Floor == 0 {
		s.Floor = answer.DefaultFloor
	}
	if s.Budget == 0 {
		s.Budget = answer.DefaultBudget
	}
}

// chunkerName describes the chunker for the store's record.
func (s Settings) chunkerName() (string, error) {
	switch s.Chunker {
	case "structure":
		st := chunk.Structure{MaxWords: s.ChunkSize, OverlapWords: s.Overlap, MinWords: min(chunk.DefaultStructure().MinWords, s.ChunkSize/4)}
		if err := st.Validate(); err != nil {
			return "", err
		}
		return st.String(), nil
	case "window":
		w, err := chunk.NewWindow(s.ChunkSize, s.Overlap)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("window/v1 size=%d overlap=%d", w.Size, w.Overlap), nil
	}
	return "", fmt.Errorf("chunker %q: want structure or window", s.Chunker)
}

// Engine is one open index.
type Engine struct {
	settings Settings
	store    *disk.Store
	an       retrieve.Analyzers

	mu   sync.Mutex
	snap *disk.Snapshot
	idx  *retrieve.Index
	docs map[string]fonte.Document // text-less documents of snap, by id
}

// OpenOptions control how the store is opened.
type OpenOptions struct {
	// ReadOnly opens an existing index for searching, accepting whatever
	// chunker and embedder it records... as long as the configured
	// embedder's model matches (queries must be embedded alike).
	ReadOnly bool
	// Rebuild replaces an index built with other settings on the next
	// Index run.
	Rebuild bool
}

// ErrNoIndex is returned when a read-only open finds no index.
var ErrNoIndex = errors.New("no index")

// Open opens (creating when writable) the index in s.IndexDir.
func Open(ctx context.Context, s Settings, o OpenOptions) (*Engine, error) {
	s.defaults()
	chunker, err := s.chunkerName()
	if err != nil {
		return nil, err
	}
	an := retrieve.DefaultAnalyzers()
	dim := s.Embedder.Dimension()
	if dim == 0 {
		// Remote embedders learn their dimension from the first answer.
		if p, ok := s.Embedder.(interface {
			Probe(context.Context) (int, error)
		}); ok {
			if dim, err = p.Probe(ctx); err != nil {
				return nil, fmt.Errorf("asking %s for its dimension: %w", s.Embedder.Model(), err)
			}
		}
	}
	cfg := disk.Config{Analyzer: an.Name(), Chunker: chunker, Embedder: s.Embedder.Model(), Dim: dim}
	if o.ReadOnly {
		// Searching needs an index that exists and was embedded by the
		// model queries will be embedded with; its chunker does not matter.
		if _, err := os.Stat(filepath.Join(s.IndexDir, "manifest")); err != nil {
			return nil, fmt.Errorf("%w in %s: run `fonte index DIR` first", ErrNoIndex, s.IndexDir)
		}
		st, err := disk.Open(s.IndexDir, disk.Config{}, disk.Options{ReadOnly: true})
		if err != nil {
			return nil, err
		}
		if got := st.Config(); got.Embedder != cfg.Embedder {
			st.Close()
			return nil, fmt.Errorf("%w: %s was built with embedder %q, but this query would use %q; "+
				"query with the same embedder settings, or rebuild with `fonte index --rebuild DIR`",
				disk.ErrConfigMismatch, s.IndexDir, got.Embedder, cfg.Embedder)
		}
		return &Engine{settings: s, store: st, an: an}, nil
	}
	// The analysis is recorded but not binding: nothing stored depends on
	// it (the lexical index is derived from the chunks' text and carries
	// the analysis in its fingerprint), so an index built by an older
	// fonte keeps its chunks and vectors and gets its lexical index
	// rebuilt, rather than being re-embedded from scratch.
	if !o.Rebuild {
		if old, err := disk.Open(s.IndexDir, disk.Config{}, disk.Options{ReadOnly: true}); err == nil {
			if got := old.Config(); !got.IsZero() && got.Analyzer != cfg.Analyzer {
				cfg.Analyzer = got.Analyzer
			}
			old.Close()
		}
	}
	st, err := disk.Open(s.IndexDir, cfg, disk.Options{Rebuild: o.Rebuild})
	if err != nil {
		return nil, err
	}
	return &Engine{settings: s, store: st, an: an}, nil
}

// Settings returns the engine's settings with defaults filled in.
func (e *Engine) Settings() Settings { return e.settings }

// Dir is the index folder.
func (e *Engine) Dir() string { return filepath.Clean(e.settings.IndexDir) }

// Close releases the store.
func (e *Engine) Close() error { return e.store.Close() }

// view returns the latest snapshot with its search index, building the
// index once per generation.
func (e *Engine) view() (*disk.Snapshot, *retrieve.Index, map[string]fonte.Document, error) {
	snap, err := e.store.Snapshot()
	if err != nil {
		return nil, nil, nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.snap != nil && e.snap.Generation() == snap.Generation() && e.idx != nil {
		return e.snap, e.idx, e.docs, nil
	}
	n := snap.NumChunks()
	c := retrieve.Corpus{Chunks: make([]fonte.Chunk, n), Langs: make([]string, n), Tags: make([][]string, n),
		Vectors: snap.Vectors(), Dim: snap.Dim()}
	docs := make(map[string]fonte.Document, snap.NumDocs())
	for _, d := range snap.Docs() {
		docs[d.ID] = fonte.Document{ID: d.ID, Title: d.Title, Source: d.Source, Language: d.Language, SHA256: d.SHA256, Updated: d.Updated, Tags: d.Tags}
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
	idx, err := retrieve.NewWith(c, e.an, e.derivedOptions(snap, e.idx))
	if err != nil {
		return nil, nil, nil, err
	}
	e.snap, e.idx, e.docs = snap, idx, docs
	return snap, idx, docs, nil
}
