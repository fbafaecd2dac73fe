package fonte

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"
)

// Store is where an index lives: the embedded folder (package disk),
// PostgreSQL with pgvector (package postgres) or Redis's Query Engine
// (package redis). It keeps documents with their chunks, vectors and
// lexical terms, commits changes atomically, and runs the two retrieval
// legs (lexical and vector top-k, with filters) inside the engine that
// holds the data; fonte fuses the legs and computes relevance itself, so
// every store answers a question the same way.
//
// Implementations are safe for concurrent use. Every method but Close
// takes a context and returns errors that name the store.
type Store interface {
	// Settings returns what the index was built with; the zero value for
	// a store that holds no index yet.
	Settings(ctx context.Context) (IndexSettings, error)
	// Status describes the store and its latest commit.
	Status(ctx context.Context) (StoreStatus, error)
	// Update runs fn in a write transaction and commits what it put and
	// deleted atomically when fn returns nil: readers see all of it or
	// none of it. When fn returns an error, or the commit fails, nothing
	// changes. A store opened with StoreOptions.Rebuild starts its first
	// transaction from an empty index, and that commit replaces the old
	// one whole. The commit records the settings the store was opened
	// with; a store holding an index built with other settings refuses
	// with an error wrapping ErrSettingsMismatch (unless rebuilding).
	Update(ctx context.Context, fn func(tx StoreTx) error) error
	// Documents describes every document, sorted by ID.
	Documents(ctx context.Context) ([]DocInfo, error)
	// Document returns one document whole, with its chunks, text hashes
	// and vectors (Terms may be nil); an error wrapping ErrNotFound when
	// the store does not hold it.
	Document(ctx context.Context, id string) (Record, error)
	// LexicalTopK returns the K chunks with the highest BM25 score for
	// the query's terms among those q.Filter accepts, best first, ties by
	// document ID then position. See LexicalQuery for the score.
	LexicalTopK(ctx context.Context, q LexicalQuery) ([]ScoredChunk, error)
	// VectorTopK returns the K chunks whose vectors have the highest
	// cosine similarity with q.Vector among those q.Filter accepts, best
	// first, ties by document ID then position. Stores may search
	// approximately (HNSW) above a size; Status says how.
	VectorTopK(ctx context.Context, q VectorQuery) ([]ScoredChunk, error)
	// TermStats returns the corpus statistics BM25 needs for terms: the
	// number of chunks, their total length in terms, and each term's
	// document frequency (chunks containing it), counting only the chunks
	// of documents a reader under access may read (its Restricted and
	// Labels; prefixes and tags narrow a search, not its statistics), so
	// that what a reader may not read moves none of its scores.
	TermStats(ctx context.Context, terms []string, access Filter) (TermStats, error)
	// Purge removes every byte that deleted or replaced documents left in
	// the store (older generations, dead tuples, orphaned keys), so a
	// deletion reaches the storage itself.
	Purge(ctx context.Context) error
	// Close releases the store's connections, locks and files.
	Close() error
}

// LanguageTermStats is a Store whose term statistics can count the
// chunks of documents in some languages only. The coverage check weighs
// a question's words by their frequency in the text of the question's
// language when the reader may read text of others too: a stem one
// language shares with another ("can", the Italian "cane" stemmed, and
// the English "can") is not a common word of the question for it. Every
// store of fonte implements it; over a store without it the coverage
// check counts every language.
type LanguageTermStats interface {
	// TermStatsIn is TermStats whose document frequencies count only
	// the chunks of documents whose Language is one of langs ("" for
	// documents whose language was not told) among those a reader under
	// access may read: a term is then a word of those languages, which
	// text of another does not hold. Chunks and TotalTerms count every
	// chunk the reader may read, as TermStats does. Empty langs count
	// every language.
	TermStatsIn(ctx context.Context, terms []string, access Filter, langs []string) (TermStats, error)
}

// StoreTx is a write transaction of a Store (see Store.Update). Its
// methods are safe for concurrent use.
type StoreTx interface {
	// Base describes the documents the transaction started from, sorted
	// by ID: none in a rebuild.
	Base(ctx context.Context) ([]DocInfo, error)
	// Vectors returns, for each text hash, a vector the base generation
	// holds for a chunk with that embedded text, or nil: the embedding
	// cache that keeps an incremental run from embedding again what it
	// already embedded. The vectors are shared: read them only.
	Vectors(ctx context.Context, textHashes []string) ([][]float32, error)
	// Put adds a document, or replaces the one with the same Doc.ID. It
	// checks that there is one vector per chunk, of the index's
	// dimension and finite, that chunks are in increasing Position order
	// and, for stores that index Terms, one term list per chunk; errors
	// wrap ErrInvalidRecord and name the document and chunk.
	Put(ctx context.Context, r Record) error
	// Delete removes a document and reports whether it was there.
	Delete(ctx context.Context, docID string) (bool, error)
}

// IndexSettings is what an index was built with. A store records them
// with its first commit and refuses to mix chunks analysed, cut or
// embedded differently.
type IndexSettings struct {
	Analyzer string `json:"analyzer"` // e.g. "fonte-analysis/v2 en+it"
	Chunker  string `json:"chunker"`  // e.g. "structure/v1 size=220 overlap=40"
	Embedder string `json:"embedder"` // the embedding model id
	Dim      int    `json:"dim"`      // the length of every vector
}

// IsZero reports whether s is the zero value, which opening a store reads
// as "accept whatever the store records".
func (s IndexSettings) IsZero() bool { return s == IndexSettings{} }

// Diff lists the fields that differ between s (stored) and requested,
// one "field: stored X, requested Y" line each.
func (s IndexSettings) Diff(requested IndexSettings) []string {
	var out []string
	add := func(field, stored, req string) {
		if stored != req {
			out = append(out, fmt.Sprintf("%s: stored %s, requested %s", field, stored, req))
		}
	}
	add("analyzer", fmt.Sprintf("%q", s.Analyzer), fmt.Sprintf("%q", requested.Analyzer))
	add("chunker", fmt.Sprintf("%q", s.Chunker), fmt.Sprintf("%q", requested.Chunker))
	add("embedder", fmt.Sprintf("%q", s.Embedder), fmt.Sprintf("%q", requested.Embedder))
	add("dim", fmt.Sprint(s.Dim), fmt.Sprint(requested.Dim))
	return out
}

// MaxDim bounds the vector dimension every store accepts.
const MaxDim = 1 << 16

// Validate checks the settings a new index is created with.
func (s IndexSettings) Validate() error {
	if s.Dim < 1 || s.Dim > MaxDim {
		return fmt.Errorf("%w: the vector dimension is %d; an index needs one between 1 and %d", ErrInvalidSettings, s.Dim, MaxDim)
	}
	return nil
}

// StoreOptions are how a store is opened, whatever its kind.
type StoreOptions struct {
	// Settings are what this process will index and query with. The zero
	// value accepts whatever the store records (for reading).
	Settings IndexSettings
	// Rebuild accepts a store built with other settings: the first
	// Update starts from an empty index and its commit replaces the old
	// one (readers keep the old one until then).
	Rebuild bool
	// ReadOnly opens for searching: Update and Purge return ErrReadOnly.
	ReadOnly bool
}

// Record is one document as a store keeps it.
type Record struct {
	Doc    Document
	Chunks []Chunk // in increasing Position order
	// TextHashes is parallel to Chunks: the hash (hex SHA-256) of the
	// text each chunk was embedded from, the key of StoreTx.Vectors.
	TextHashes []string
	// Vectors holds one vector of IndexSettings.Dim entries per chunk.
	Vectors [][]float32
	// Terms is parallel to Chunks: each chunk's lexical terms, fonte's
	// analysis of its enriched text in the document's language. Stores
	// whose lexical leg runs in the database index them; the embedded
	// store recomputes them with the same analysis and does not keep them.
	Terms [][]string
	// Meta is free per-document metadata, e.g. the source format.
	Meta map[string]string
}

// DocInfo describes one stored document without its text.
type DocInfo struct {
	ID       string
	Title    string
	Source   string
	Language string
	SHA256   string
	Updated  time.Time
	Tags     []string
	Bytes    int // length of the document's text
	Chunks   int
	Meta     map[string]string
}

// StoreStatus describes a store and its latest commit.
type StoreStatus struct {
	Backend    string    `json:"backend"`    // "disk", "postgres", "redis" or "redis-cluster"
	Location   string    `json:"location"`   // the folder, or the URL without its password
	Generation uint64    `json:"generation"` // increases with every commit
	Committed  time.Time `json:"committed"`  // when the latest commit was made
	Documents  int       `json:"documents"`
	Chunks     int       `json:"chunks"`
	// Lexical and Dense say how the legs are computed, e.g.
	// "pg_textsearch BM25" or "HNSW (m=16, ef_construction=200)".
	Lexical string `json:"lexical"`
	Dense   string `json:"dense"`
	// Replica is set when the store is a read-only replica of another
	// server (a PostgreSQL hot standby): how far behind it serves.
	Replica *ReplicaStatus `json:"replica,omitempty"`
}

// ReplicaStatus says how far a replica's data is behind its primary's:
// it serves the last generation it has replayed, which is the primary's
// or an earlier one, never part of one.
type ReplicaStatus struct {
	// LagSeconds is how long ago the primary committed the last
	// transaction the replica has replayed, when changes it has received
	// wait to be replayed; 0 when it has replayed all it received.
	LagSeconds float64 `json:"lag_seconds"`
	// LagBytes is the write-ahead log the replica has received but not
	// replayed yet (what it has not received is not counted).
	LagBytes int64 `json:"lag_bytes"`
	// Paused is true when replay was paused on the replica.
	Paused bool `json:"paused,omitempty"`
	// Replayed is when the primary committed the last transaction the
	// replica replayed; zero when it has replayed none since it started.
	Replayed time.Time `json:"replayed,omitzero"`
}

// Filter restricts a search to chunks whose document ID starts with one
// of Prefixes (when any are given) and whose document carries every tag
// in Tags; with Restricted, also to documents the reader may see (see
// Readable). Stores apply it inside both legs, before the top-k cut, so
// what one reader may not see never shifts what another sees.
type Filter struct {
	Prefixes []string `json:"prefixes,omitempty"`
	Tags     []string `json:"tags,omitempty"`
	// Restricted limits the search to documents without access labels and
	// to those carrying one of Labels.
	Restricted bool     `json:"restricted,omitempty"`
	Labels     []string `json:"labels,omitempty"`
}

// AccessTagPrefix marks a document tag as an access label: a document
// tagged "access:hr" is readable only by readers allowed label "hr".
const AccessTagPrefix = "access:"

// AccessTag is the tag that carries access label l.
func AccessTag(l string) string { return AccessTagPrefix + l }

// Empty reports whether the filter accepts everything.
func (f Filter) Empty() bool { return len(f.Prefixes) == 0 && len(f.Tags) == 0 && !f.Restricted }

// Readable reports whether a document carrying tags may be read under
// the filter's access restriction: always when unrestricted; otherwise
// when it has no access label or one of f.Labels.
func (f Filter) Readable(tags []string) bool {
	if !f.Restricted {
		return true
	}
	labelled := false
	for _, t := range tags {
		if len(t) > len(AccessTagPrefix) && t[:len(AccessTagPrefix)] == AccessTagPrefix {
			labelled = true
			for _, l := range f.Labels {
				if t[len(AccessTagPrefix):] == l {
					return true
				}
			}
		}
	}
	return !labelled
}

// Accepts reports whether a chunk of document docID carrying tags passes.
func (f Filter) Accepts(docID string, tags []string) bool {
	if !f.Readable(tags) {
		return false
	}
	if len(f.Prefixes) > 0 {
		ok := false
		for _, p := range f.Prefixes {
			if len(docID) >= len(p) && docID[:len(p)] == p {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	for _, t := range f.Tags {
		found := false
		for _, have := range tags {
			if have == t {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// BM25 parameters every store's lexical leg scores with: k1 = 0.9,
// b = 0.4 (Anserini's defaults, see retrieve.BM25Params).
const (
	BM25K1 = 0.9
	BM25B  = 0.4
)

// LexicalQuery is one lexical leg's request. A chunk's score is Okapi
// BM25 over the chunks' Terms: the sum over Terms (a repeated term counts
// each time) of idf · f · (k1 + 1) / (f + k1 · (1 − b + b · len / avglen)),
// f the term's count in the chunk, len the chunk's number of terms,
// avglen the mean over all chunks, idf = ln(1 + (N − df + 0.5) / (df + 0.5)),
// with BM25K1 and BM25B. N, avglen and df count the chunks of the
// documents Filter's access restriction lets the reader read (all of
// them when unrestricted), as TermStats does. Only chunks with a score
// above 0 are returned.
type LexicalQuery struct {
	Terms  []string
	K      int
	Filter Filter
}

// VectorQuery is one dense leg's request.
type VectorQuery struct {
	Vector []float32
	K      int
	Filter Filter
}

// ScoredChunk is one chunk a leg returned, with its document's language
// (the analysis its terms were made with) and the leg's score.
type ScoredChunk struct {
	Chunk Chunk
	Lang  string
	Score float64
}

// TermStats are the corpus statistics of Store.TermStats.
type TermStats struct {
	Chunks     int   // chunks in the index
	TotalTerms int64 // sum of every chunk's number of terms
	DF         []int // per requested term, the chunks containing it
}

// AvgLen is the mean number of terms per chunk, 0 for an empty index.
func (t TermStats) AvgLen() float64 {
	if t.Chunks == 0 {
		return 0
	}
	return float64(t.TotalTerms) / float64(t.Chunks)
}

// Errors every store wraps, so callers test with errors.Is whatever the
// backend.
var (
	// ErrSettingsMismatch means the store holds an index built with other
	// IndexSettings; rebuild it (StoreOptions.Rebuild) or use its settings.
	ErrSettingsMismatch = errors.New("index built with a different configuration")
	// ErrInvalidSettings means the settings cannot create an index.
	ErrInvalidSettings = errors.New("invalid index settings")
	// ErrInvalidRecord is wrapped by every error StoreTx.Put returns for
	// a record it refuses.
	ErrInvalidRecord = errors.New("invalid record")
	// ErrNotFound means the store holds no such document.
	ErrNotFound = errors.New("not found")
	// ErrReadOnly is returned by writes to a store opened read-only.
	ErrReadOnly = errors.New("store opened read-only")
	// ErrStoreVersion means the store was written by a newer fonte (a
	// newer schema or format than this binary knows).
	ErrStoreVersion = errors.New("store written by a newer fonte")
	// ErrUnavailable wraps errors reaching a store's server (refused
	// connection, time-out, lost connection).
	ErrUnavailable = errors.New("store unavailable")
)

// Check validates r the way every store's Put does: a document ID; one
// vector of dim finite entries per chunk; a text hash per chunk when any
// are given; chunks of this document in increasing Position order; and,
// when terms is set (stores whose lexical leg runs in the database), one
// term list per chunk. Errors wrap ErrInvalidRecord and name the document
// and chunk.
func (r Record) Check(dim int, terms bool) error {
	id := r.Doc.ID
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: document %q: %s", ErrInvalidRecord, id, fmt.Sprintf(format, args...))
	}
	if id == "" {
		return fmt.Errorf("%w: a document needs an ID", ErrInvalidRecord)
	}
	n := len(r.Chunks)
	switch {
	case len(r.Vectors) != n:
		return bad("%d chunks but %d vectors", n, len(r.Vectors))
	case r.TextHashes != nil && len(r.TextHashes) != n:
		return bad("%d chunks but %d text hashes", n, len(r.TextHashes))
	case terms && len(r.Terms) != n:
		return bad("%d chunks but %d term lists (this store indexes each chunk's Terms)", n, len(r.Terms))
	}
	for i, c := range r.Chunks {
		switch {
		case c.DocID != "" && c.DocID != id:
			return bad("chunk %d (%q) belongs to document %q", i, c.ID, c.DocID)
		case i > 0 && c.Position <= r.Chunks[i-1].Position:
			return bad("chunk %d (%q) has Position %d after %d; chunks must be in increasing Position order", i, c.ID, c.Position, r.Chunks[i-1].Position)
		case len(r.Vectors[i]) != dim:
			return bad("chunk %d (%q) has a vector of %d entries, the index stores dimension %d", i, c.ID, len(r.Vectors[i]), dim)
		}
		for j, x := range r.Vectors[i] {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return bad("chunk %d (%q) has the non-finite value %v at vector entry %d", i, c.ID, x, j)
			}
		}
	}
	return nil
}

// Document returns the document d describes, without its text.
func (d DocInfo) Document() Document {
	return Document{ID: d.ID, Title: d.Title, Source: d.Source, Language: d.Language, SHA256: d.SHA256, Updated: d.Updated, Tags: d.Tags}
}
