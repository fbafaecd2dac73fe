// Package engine wires fonte's stages into the jobs a user runs: index a
// folder into the embedded store, search it, ask it questions, delete from
// it and evaluate it. The CLI and the HTTP server are thin layers over an
// Engine; a Go program can embed one directly.
package engine

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/analysis"
	"github.com/fonte-rag/fonte/answer"
	"github.com/fonte-rag/fonte/chunk"
	"github.com/fonte-rag/fonte/disk"
	"github.com/fonte-rag/fonte/embed"
	"github.com/fonte-rag/fonte/ingest"
	"github.com/fonte-rag/fonte/internal/admit"
	"github.com/fonte-rag/fonte/internal/redact"
	"github.com/fonte-rag/fonte/retrieve"
)

// DefaultIndexDir is where the index lives when no folder is given: in the
// working directory, hidden, like .git.
const DefaultIndexDir = ".fonte"

// Settings define an index (chunker, embedder, analysis: recorded in the
// store, which refuses to mix them) and the defaults of its queries.
type Settings struct {
	// Store names where the index lives: a folder (DefaultIndexDir when
	// empty), a postgres:// or a redis:// URL (see OpenStore).
	Store string
	// IndexDir is the older name of a folder Store, used when Store is
	// empty.
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
	// Memory is the memory budget of indexing in bytes (DefaultMemory
	// when zero). The embedded store's transaction writes documents out
	// as segment files once it holds a thirty-second of it (txMemory), so
	// a run's data is never held whole. While a write runs, the process's
	// garbage collector soft limit (debug.SetMemoryLimit) is lowered to
	// this budget unless the caller set a lower one, and restored when the
	// last write ends (heaplimit.go).
	Memory int64
	// Retrieval defaults.
	Mode          retrieve.Mode
	K             int
	LexicalWeight float64
	DenseWeight   float64
	// Proximity re-scores the lexical leg's candidates by how near the
	// question's words lie in each (retrieve.Request.Proximity).
	Proximity bool
	// Floor and Budget are answer.Config's; zero Floor means
	// answer.DefaultFloor, a negative one disables abstaining.
	Floor  float64
	Budget int
	// Floors override Floor per language ("it", "en"): relevance is a
	// share of the question's evidence measured with each language's
	// analysis, and its scale differs between languages, so each may be
	// calibrated on its own questions (`fonte eval` suggests one per
	// language). A question takes its own language's floor, or, when it
	// is too short to tell, that of the best-matching document.
	Floors map[string]float64
	// Include and Exclude are globs for `Index` (see ingest.WalkOptions).
	Include, Exclude []string
	// FollowSymlinks makes `Index` follow symbolic links whose target lies
	// outside the indexed folder (see ingest.WalkOptions); without it they
	// are refused.
	FollowSymlinks bool
	// Access gives documents access labels by folder: a document whose ID
	// starts with a key (in any case; see NormalizeAccess) gets that key's
	// labels, besides those of its own front matter (`access: [hr]`). Only
	// readers allowed one of a document's labels see it
	// (fonte.Filter.Restricted). `Index` fails on a rule that matches no
	// file of the folder.
	Access map[string][]string
	// InheritedAccess are folder rules shared by several collections (a
	// server's config file gives them to every collection without its
	// own): applied as Access is, but a folder need not have a file under
	// each.
	InheritedAccess map[string][]string

	// Limits bound the work of each run, an Add with all its files or an
	// Index run over a folder (ingest.Limits: expanded bytes, pages,
	// chunks); a run over one is refused whole with an
	// *ingest.LimitError. The zero value sets none; the fonte command
	// sets ingest.DefaultLimits.
	Limits ingest.Limits
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
	if s.Store == "" {
		s.Store = s.IndexDir
	}
	if s.Store == "" {
		s.Store = DefaultIndexDir
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
	// meaning, so its leg counts half. On the dev questions of examples/
	// and the 18F handbook, equal weights let n-gram noise push BM25's
	// first hit down (18F hit@1 0.458 against 0.625 for BM25 alone) while
	// half weight keeps most of BM25's precision (0.583) and the dense
	// leg's recall (examples/ recall@100 0.926 against BM25's 0.796):
	// fonte eval --split dev --no-generation --retriever hybrid
	// --dense-weight 0.5 (or 1) --lexical-weight 1, and --retriever bm25.
	if s.LexicalWeight == 0 && s.DenseWeight == 0 {
		s.LexicalWeight, s.DenseWeight = 1, 1
		if builtin {
			s.DenseWeight = 0.5
		}
	}
	// The default retriever: BM25 alone with the built-in embedder, which
	// knows spelling, not meaning, and hybrid with an embedding model.
	// Over the dev questions of our eight sets BM25 alone leads the n-gram
	// leg fused with it (mean nDCG@10 0.800 against 0.782, hybrid winning
	// on the two seed sets), and it is the cheaper retriever, so it is the
	// default; DESIGN.md has the table and TestDefaultRetriever fails
	// when another retriever overtakes it.
	if s.Mode == "" {
		s.Mode = retrieve.Hybrid
		if builtin {
			s.Mode = retrieve.BM25
		}
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
	store    fonte.Store
	local    *disk.Store // the same store when it is the embedded one
	an       retrieve.Analyzers

	mu  sync.Mutex
	cur *view
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
	// Existing opens an index that must exist, for a write that makes no
	// chunks or vectors (Delete): with the settings it records, whatever
	// chunker and embedder the configuration names, and ErrNoIndex where
	// there is none rather than a new, empty index.
	Existing bool
}

// ErrNoIndex is returned when a read-only open finds no index.
var ErrNoIndex = errors.New("no index")

// Open opens (creating when writable) the index in the store s.Store
// names (a folder, postgres://… or redis://…).
func Open(ctx context.Context, s Settings, o OpenOptions) (*Engine, error) {
	s.defaults()
	chunker, err := s.chunkerName()
	if err != nil {
		return nil, err
	}
	if s.Access, err = NormalizeAccess(s.Access); err != nil {
		return nil, err
	}
	if s.InheritedAccess, err = NormalizeAccess(s.InheritedAccess); err != nil {
		return nil, err
	}
	an := retrieve.DefaultAnalyzers()
	open := func(o fonte.StoreOptions) (*Engine, error) {
		st, err := OpenStore(ctx, s.Store, o, StoreTuning{Analyzers: an, Dense: s.DenseIndex, TxMemory: txMemory(s.Memory)})
		if err != nil {
			return nil, err
		}
		e := &Engine{settings: s, store: st, an: an}
		e.local, _ = st.(*disk.Store)
		return e, nil
	}
	if o.Existing {
		// Before the embedder is asked anything: a write that embeds
		// nothing does not need its server up.
		old, got, err := openExisting(ctx, s.Store, open)
		if err != nil {
			return nil, err
		}
		old.Close()
		return open(fonte.StoreOptions{Settings: got})
	}
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
	cfg := fonte.IndexSettings{Analyzer: an.Name(), Chunker: chunker, Embedder: s.Embedder.Model(), Dim: dim}
	if o.ReadOnly {
		// Searching needs an index that exists and was embedded by the
		// model queries will be embedded with; its chunker does not matter.
		e, got, err := openExisting(ctx, s.Store, open)
		if err != nil {
			return nil, err
		}
		if got.Embedder != cfg.Embedder {
			e.Close()
			return nil, fmt.Errorf("%w: %s was built with embedder %q, but this query would use %q; "+
				"query with the same embedder settings, or rebuild with `fonte index --rebuild DIR`",
				fonte.ErrSettingsMismatch, e.Location(), got.Embedder, cfg.Embedder)
		}
		return e, nil
	}
	// The analysis is recorded but not binding: nothing stored depends on
	// it (the lexical index is derived from the chunks' text and carries
	// the analysis in its fingerprint), so an index built by an older
	// fonte keeps its chunks and vectors and gets its lexical index
	// rebuilt, rather than being re-embedded from scratch. Stores whose
	// lexical leg runs in the database keep terms made by the recorded
	// analysis, so there it is binding.
	if !o.Rebuild && IsFolder(s.Store) {
		if old, err := open(fonte.StoreOptions{ReadOnly: true}); err == nil {
			if got, err := old.store.Settings(ctx); err == nil && !got.IsZero() && got.Analyzer != cfg.Analyzer {
				cfg.Analyzer = got.Analyzer
			}
			old.Close()
		}
	}
	return open(fonte.StoreOptions{Settings: cfg, Rebuild: o.Rebuild})
}

// openExisting opens the index at location read-only with its recorded
// settings, or fails with ErrNoIndex where there is none (a folder
// without a manifest, a store without settings), creating nothing.
func openExisting(ctx context.Context, location string, open func(fonte.StoreOptions) (*Engine, error)) (*Engine, fonte.IndexSettings, error) {
	if IsFolder(location) {
		if _, err := os.Stat(filepath.Join(location, "manifest")); err != nil {
			return nil, fonte.IndexSettings{}, fmt.Errorf("%w in %s: run `fonte index DIR` first", ErrNoIndex, location)
		}
	}
	e, err := open(fonte.StoreOptions{ReadOnly: true})
	if err != nil {
		return nil, fonte.IndexSettings{}, err
	}
	got, err := e.store.Settings(ctx)
	if err != nil {
		e.Close()
		return nil, fonte.IndexSettings{}, err
	}
	if got.IsZero() {
		e.Close()
		return nil, fonte.IndexSettings{}, fmt.Errorf("%w in %s: run `fonte index DIR --store %s` first", ErrNoIndex, e.Location(), e.Location())
	}
	return e, got, nil
}

// Settings returns the engine's settings with defaults filled in.
func (e *Engine) Settings() Settings { return e.settings }

// Store is the store the engine works on.
func (e *Engine) Store() fonte.Store { return e.store }

// Location names the store: its folder, or its URL without a password.
func (e *Engine) Location() string {
	if e.local != nil {
		return filepath.Clean(e.local.Dir()) // a path, which callers also use to find it
	}
	return redact.Secrets(e.settings.Store)
}

// Close releases the store.
func (e *Engine) Close() error { return e.store.Close() }

// view is one generation of the store, ready to search: the embedded
// store's in-memory index, or the legs of a store that runs them itself.
type view struct {
	gen     uint64
	docs    map[string]fonte.Document // a remote store's, without their text, by id
	snap    *disk.Snapshot            // the embedded store's generation, which looks them up
	chunks  int
	chunker string
	local   *retrieve.Index
	remote  *retrieve.StoreSearch
}

// docsOf returns the documents the hits cite, without their text, by id.
func (v *view) docsOf(hits ...[]fonte.Hit) map[string]fonte.Document {
	if v.snap == nil {
		return v.docs
	}
	out := map[string]fonte.Document{}
	for _, list := range hits {
		for _, h := range list {
			id := h.Chunk.DocID
			if _, ok := out[id]; ok {
				continue
			}
			if d, ok := v.snap.Document(id); ok {
				out[id] = d
			}
		}
	}
	return out
}

// docIDs lists every document's ID, sorted.
func (v *view) docIDs() []string {
	if v.snap == nil {
		return slices.Sorted(maps.Keys(v.docs))
	}
	infos := v.snap.Docs()
	ids := make([]string, len(infos))
	for i, d := range infos {
		ids[i] = d.ID
	}
	return ids
}

// hasDense reports whether the view has a dense leg.
func (v *view) hasDense() bool {
	if v.local != nil {
		return v.local.HasDense()
	}
	return v.remote.Dim > 0 && v.chunks > 0
}

func (v *view) search(ctx context.Context, req retrieve.Request) ([]fonte.Hit, error) {
	if v.local != nil {
		// The embedded index's search is processor work from end to end:
		// it waits for its turn (internal/admit) rather than share the
		// processors with more searches than there are. A remote store's
		// search mostly waits on the network, and does not.
		done, err := admit.Search(ctx)
		if err != nil {
			return nil, err
		}
		defer done()
		return v.local.Search(req)
	}
	return v.remote.Search(ctx, req)
}

// view returns the latest generation ready to search, built once per
// generation.
func (e *Engine) view(ctx context.Context) (*view, error) {
	if e.local != nil {
		lv, err := e.local.View()
		if err != nil {
			return nil, err
		}
		e.mu.Lock()
		defer e.mu.Unlock()
		if e.cur != nil && e.cur.local == lv.Index {
			return e.cur, nil
		}
		e.cur = &view{gen: lv.Snap.Generation(), snap: lv.Snap, chunks: lv.Index.Len(), chunker: lv.Snap.Config().Chunker, local: lv.Index}
		return e.cur, nil
	}
	st, err := e.store.Status(ctx)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	cur := e.cur
	e.mu.Unlock()
	if cur != nil && cur.gen == st.Generation {
		return cur, nil
	}
	infos, err := e.store.Documents(ctx)
	if err != nil {
		return nil, err
	}
	cfg, err := e.store.Settings(ctx)
	if err != nil {
		return nil, err
	}
	v := &view{gen: st.Generation, docs: make(map[string]fonte.Document, len(infos)), chunker: cfg.Chunker}
	langs := map[string]bool{}
	byDoc := make([]retrieve.DocLang, len(infos))
	for i, d := range infos {
		v.docs[d.ID] = d.Document()
		v.chunks += d.Chunks
		langs[d.Language] = true
		byDoc[i] = retrieve.DocLang{Lang: d.Language, Tags: d.Tags}
	}
	v.remote = &retrieve.StoreSearch{Store: e.store, An: e.an, Langs: slices.Sorted(maps.Keys(langs)), Docs: byDoc, Dim: cfg.Dim}
	e.mu.Lock()
	e.cur = v
	e.mu.Unlock()
	return v, nil
}

// chunksOf returns the chunks of one document, in order.
func (e *Engine) chunksOf(ctx context.Context, id string) ([]fonte.Chunk, error) {
	r, err := e.store.Document(ctx, id)
	if err != nil {
		return nil, err
	}
	return r.Chunks, nil
}
