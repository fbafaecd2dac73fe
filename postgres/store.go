// Package postgres is fonte's PostgreSQL store: documents, chunks, vectors
// and lexical terms in a schema per collection, written by atomic SQL
// transactions, searched inside the database by pgvector (cosine
// distance, exact below a size and HNSW above it) and by pg_textsearch's
// BM25 over fonte's own terms, or PostgreSQL's full-text search where
// pg_textsearch is not installed.
//
// A store is named by a URL: postgres://user:password@host:port/db?
// followed by pgx's own parameters (sslmode, pool_max_conns, …) and
// fonte's:
//
//	collection=NAME            the collection, [a-z0-9_]{1,40} (default "default")
//	hnsw_m=16                  HNSW links per node
//	hnsw_ef_construction=200   HNSW build-time candidate list
//	exact_below=10000          chunks below which the dense leg scans exactly
//	lexical=auto               auto, pg_textsearch (required) or fts
//
// # Lexical scores
//
// With pg_textsearch (an index with text_config 'simple', k1 0.9 and b
// 0.4 over the lex column, see lexToken) the index finds the candidates,
// 2K of them (at least K+10), and the store scores each again with
// fonte's BM25 from the counts every commit keeps (meta and term_df), in
// the same expression and order as package lexical: the scores are the
// embedded store's. pg_textsearch's own
// scores differ from fonte's (TestPgTextsearchScores pins how):
//
//   - it computes in float4 (about 1e-6 relative);
//   - it keeps each chunk's length in one byte (Lucene's SmallFloat):
//     exact up to 39 terms, rounded down by up to about 6% above, which
//     moved scores by up to 1.7% on the test corpus; in its memtable
//     (recent inserts) it picks the top k by exact lengths but reports
//     scores with rounded ones;
//   - its corpus statistics count the chunks an update replaced or a
//     delete removed until its index is rebuilt, which Purge does;
//   - a tsvector keeps 256 positions per term and positions up to 16383:
//     a term repeated more than 256 times in a chunk, or a chunk of more
//     than 16383 terms, counts short.
//
// These only choose the candidates: a chunk whose exact score is in the
// top K but that pg_textsearch ranks below the 2K-th is missed.
// TermStats is exact whichever leg runs.
//
// Without pg_textsearch (or with lexical=fts) the leg is PostgreSQL's
// full-text search: chunks holding any query term, ranked by ts_rank_cd
// over a stored tsvector of the lex column with a GIN index. That is not
// BM25 (no idf, no length saturation) and ranks worse (SciFact nDCG@10
// 0.3336); Status says which leg runs.
package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/fonte-rag/fonte"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pgvector/pgvector-go"
	pgxvec "github.com/pgvector/pgvector-go/pgx"
)

var (
	_ fonte.Store             = (*Store)(nil)
	_ fonte.LanguageTermStats = (*Store)(nil)
)

// maxVectorDim is the largest dimension pgvector's vector type stores.
const maxVectorDim = 16000

// defaultConnectTimeout bounds connecting when the URL sets no
// connect_timeout, so a server that does not answer fails the call
// instead of hanging on the operating system's time-out.
const defaultConnectTimeout = 10 * time.Second

// Store is a collection in a PostgreSQL database. It is safe for
// concurrent use; writers in other processes are serialised by an
// advisory lock per collection.
type Store struct {
	cfg    config
	opts   fonte.StoreOptions
	pool   *pgxpool.Pool
	schema string // fonte_<collection>

	// namedStatements is true when the pool prepares each statement under
	// a name (see plannedForParameters).
	namedStatements bool
	// bm25 is true when the lexical leg runs on pg_textsearch, false for
	// PostgreSQL's full-text search; lexicalNote says why when it fell
	// back.
	bm25        bool
	lexicalNote string
	ftsExpr     string // the tsvector full-text search reads
	// iterative is true when pgvector has iterative index scans (0.8+),
	// which keep filtered HNSW searches returning K results.
	iterative bool
	// classes is true when the schema keeps access classes (version 2):
	// a read-only store opened on a version 1 schema, which it may not
	// migrate, serves restricted readers by scans instead.
	classes bool

	rebuild atomic.Bool // the next Update starts from an empty index
	closed  atomic.Bool
}

// Open connects to the database at url (postgres:// or postgresql://) and
// opens the collection its collection parameter names, creating the
// schema or migrating it to this version unless o.ReadOnly. A collection
// whose schema a newer fonte wrote is refused with an error wrapping
// fonte.ErrStoreVersion; a server that cannot be reached, with one
// wrapping fonte.ErrUnavailable that names host:port. Settings are
// checked by Update, which refuses an index built with others.
func Open(ctx context.Context, url string, o fonte.StoreOptions) (*Store, error) {
	cfg, err := parseURL(url)
	if err != nil {
		return nil, err
	}
	if o.ReadOnly && o.Rebuild {
		return nil, fmt.Errorf("postgres: StoreOptions.ReadOnly and StoreOptions.Rebuild exclude each other")
	}
	if !o.Settings.IsZero() || o.Rebuild {
		if err := validateSettings(o.Settings); err != nil {
			return nil, err
		}
	}
	pcfg, err := pgxpool.ParseConfig(cfg.connString)
	if err != nil {
		return nil, cfg.errorf(nil, "postgres: the store URL is not valid: %v", err)
	}
	if pcfg.ConnConfig.ConnectTimeout == 0 {
		pcfg.ConnConfig.ConnectTimeout = defaultConnectTimeout
	}
	pcfg.AfterConnect = registerVector
	if err := cfg.chooseProtocol(ctx, pcfg); err != nil {
		return nil, err
	}
	pool, err := pgxpool.NewWithConfig(ctx, pcfg)
	if err != nil {
		return nil, cfg.wrap(ctx, "connecting", err)
	}
	s := &Store{cfg: cfg, opts: o, pool: pool, schema: schemaName(cfg.collection),
		namedStatements: pcfg.ConnConfig.DefaultQueryExecMode == pgx.QueryExecModeCacheStatement}
	s.rebuild.Store(o.Rebuild)
	if err := s.init(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return s, nil
}

// validateSettings checks settings a new index could be created with.
func validateSettings(st fonte.IndexSettings) error {
	if err := st.Validate(); err != nil {
		return err
	}
	if st.Dim > maxVectorDim {
		return fmt.Errorf("%w: the vector dimension is %d; pgvector's vector type stores at most %d", fonte.ErrInvalidSettings, st.Dim, maxVectorDim)
	}
	return nil
}

// registerVector teaches a new connection pgvector's binary format once
// the extension exists; before that, vectors travel as text.
func registerVector(ctx context.Context, conn *pgx.Conn) error {
	var oid *uint32
	if err := conn.QueryRow(ctx, "SELECT to_regtype('vector')::oid").Scan(&oid); err != nil {
		return err
	}
	if oid == nil {
		return nil
	}
	return pgxvec.RegisterTypes(ctx, conn)
}

// init checks the extensions and brings the collection's schema up.
func (s *Store) init(ctx context.Context) error {
	write := !s.opts.ReadOnly
	version, err := s.extension(ctx, "vector", write)
	if err != nil {
		return err
	}
	if version == "" {
		return s.cfg.errorf(nil, "postgres %s: the pgvector extension (vector) is not installed in this database; install pgvector and run CREATE EXTENSION vector", s.cfg.server)
	}
	s.iterative = versionAtLeast(version, 0, 8)
	// Opening an existing, current collection takes no lock and runs no
	// DDL, so it never waits for a writer; only a missing schema, an older
	// version or a vector column without the settings' dimension call for
	// the writer lock.
	var exists bool
	err = s.pool.QueryRow(ctx, "SELECT to_regclass($1) IS NOT NULL AND to_regclass($2) IS NOT NULL",
		s.table("schema_migrations"), s.table("meta")).Scan(&exists)
	if err != nil {
		return s.cfg.wrap(ctx, "looking up the collection", err)
	}
	if !exists && s.opts.ReadOnly {
		return s.cfg.errorf([]error{fonte.ErrNotFound}, "postgres %s: there is no collection %s (schema %s): %v; run `fonte index` to build one",
			s.cfg.server, s.cfg.collection, s.schema, fonte.ErrNotFound)
	}
	current := false
	if exists {
		v, err := s.schemaVersion(ctx, s.pool, s.schema)
		if err != nil {
			return err
		}
		current = v == latestVersion
		s.classes = v >= classesVersion
	}
	aligned := true
	if current && !s.opts.Settings.IsZero() && !s.opts.Rebuild {
		if aligned, err = s.dimAligned(ctx, s.pool, s.schema, s.opts.Settings.Dim); err != nil {
			return err
		}
	}
	if !s.opts.ReadOnly && (!current || !aligned) {
		if err := s.bringUp(ctx); err != nil {
			return err
		}
		s.classes = true
	}
	return s.initLexical(ctx)
}

// bringUp creates or migrates the collection's schema under its writer
// lock. A store that looked the schema up before it waited for the lock
// may still hold "absent" in its session's catalog cache after the writer
// that held the lock created it: PostgreSQL reads the catalog's changes
// when a transaction starts or a table is locked, not when an advisory
// lock is granted. Its CREATE … IF NOT EXISTS then fails with
// unique_violation (SQLSTATE 23505, seen with four stores opening one new
// collection at once); a new transaction sees the schema, so bringUp
// tries again, and the migrations find nothing left to do.
func (s *Store) bringUp(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		err = s.inTx(ctx, "opening the collection", func(tx pgx.Tx) error {
			if err := s.lock(ctx, tx); err != nil {
				return err
			}
			if err := s.migrate(ctx, tx, s.schema, s.opts.Settings.Dim); err != nil {
				return err
			}
			if s.opts.Settings.IsZero() || s.opts.Rebuild {
				return nil
			}
			return s.alignDim(ctx, tx, s.schema, s.opts.Settings.Dim)
		})
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) || pgErr.Code != "23505" {
			return err
		}
	}
	return err
}

// extension returns the installed version of the extension name, creating
// it first when create is set; "" when it is not installed (and could not
// be created).
func (s *Store) extension(ctx context.Context, name string, create bool) (string, error) {
	get := func() (string, error) {
		var v string
		err := s.pool.QueryRow(ctx, "SELECT coalesce((SELECT extversion FROM pg_extension WHERE extname = $1), '')", name).Scan(&v)
		return v, s.cfg.wrap(ctx, "looking up extension "+name, err)
	}
	v, err := get()
	if err != nil || v != "" || !create {
		return v, err
	}
	if _, err := s.pool.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS "+quote(name)); err != nil {
		if unavailable(err) {
			return "", s.cfg.wrap(ctx, "creating extension "+name, err)
		}
		// Not installed, no privilege, or another session created it
		// meanwhile: look again.
		return get()
	}
	return get()
}

// versionAtLeast reports whether an extension version "X.Y[.Z]" is at
// least major.minor.
func versionAtLeast(v string, major, minor int) bool {
	var a, b int
	if _, err := fmt.Sscanf(v, "%d.%d", &a, &b); err != nil {
		return false
	}
	return a > major || a == major && b >= minor
}

// refuseStandby returns an error wrapping fonte.ErrReadOnly, naming the
// server, when it is a hot standby (in recovery), where op cannot write.
func (s *Store) refuseStandby(ctx context.Context, q querier, op string) error {
	var standby bool
	if err := q.QueryRow(ctx, "SELECT pg_is_in_recovery()").Scan(&standby); err != nil {
		return s.cfg.wrap(ctx, op, err)
	}
	if standby {
		return s.cfg.readOnlyError(op, "it is a hot standby (in recovery)", nil)
	}
	return nil
}

// lock takes the collection's writer lock for the rest of tx.
func (s *Store) lock(ctx context.Context, tx pgx.Tx) error {
	_, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", lockKey(s.cfg.collection))
	return s.cfg.wrap(ctx, "waiting for the collection's writer lock", err)
}

// inTx runs fn in a read-committed transaction and commits it when fn
// returns nil.
func (s *Store) inTx(ctx context.Context, op string, fn func(tx pgx.Tx) error) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return s.cfg.wrap(ctx, op, err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	if err := fn(tx); err != nil {
		return s.cfg.wrap(ctx, op, err)
	}
	return s.cfg.wrap(ctx, op, tx.Commit(ctx))
}

// snapshot runs fn in a read-only repeatable-read transaction, so that
// its queries see one commit.
func (s *Store) snapshot(ctx context.Context, op string, fn func(tx pgx.Tx) error) error {
	if s.closed.Load() {
		return errClosed
	}
	tx, err := s.beginSnapshot(ctx)
	if err != nil {
		return s.cfg.wrap(ctx, op, err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	if err := fn(tx); err != nil {
		return s.cfg.wrap(ctx, op, err)
	}
	return s.cfg.wrap(ctx, op, tx.Commit(ctx))
}

// beginSnapshot begins a read-only repeatable-read transaction whose
// snapshot is taken once the collection's tables are locked for reading.
// A rebuild's commit drops the tables and renames the rebuilt ones in
// their place: a snapshot taken before that commit, whose first query
// waited for it, would resolve the names to the rebuilt tables and see
// none of their rows (an empty index). LOCK does not take the snapshot,
// so the lock waits for such a commit, and the first query's snapshot
// sees it.
func (s *Store) beginSnapshot(ctx context.Context) (pgx.Tx, error) {
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, err
	}
	_, err = tx.Exec(ctx, "LOCK TABLE "+s.table("meta")+", "+s.table("documents")+", "+s.table("chunks")+" IN ACCESS SHARE MODE")
	if err != nil {
		tx.Rollback(context.WithoutCancel(ctx))
		return nil, err
	}
	return tx, nil
}

// table is the qualified name of one of the collection's tables.
func (s *Store) table(name string) string { return quote(s.schema) + "." + name }

// Settings returns the settings the collection's index was built with,
// the zero value when it holds no index yet.
func (s *Store) Settings(ctx context.Context) (fonte.IndexSettings, error) {
	return readAgain(ctx, s, func() (fonte.IndexSettings, error) { return s.settingsOnce(ctx) })
}

// settingsOnce is one try of Settings.
func (s *Store) settingsOnce(ctx context.Context) (fonte.IndexSettings, error) {
	if s.closed.Load() {
		return fonte.IndexSettings{}, errClosed
	}
	var st fonte.IndexSettings
	err := s.pool.QueryRow(ctx, "SELECT analyzer, chunker, embedder, dim FROM "+s.table("meta")).
		Scan(&st.Analyzer, &st.Chunker, &st.Embedder, &st.Dim)
	if err != nil {
		return fonte.IndexSettings{}, s.cfg.wrap(ctx, "reading the settings", err)
	}
	return st, nil
}

// Status describes the collection and its latest commit; Lexical and
// Dense say how the legs run (pg_textsearch or full-text search; exact or
// HNSW with the index's own parameters). On a hot standby, Replica says
// how far behind the primary it is; the generation is the last one it
// replayed, whole.
func (s *Store) Status(ctx context.Context) (fonte.StoreStatus, error) {
	return readAgain(ctx, s, func() (fonte.StoreStatus, error) { return s.statusOnce(ctx) })
}

// statusOnce is one try of Status.
func (s *Store) statusOnce(ctx context.Context) (fonte.StoreStatus, error) {
	if s.closed.Load() {
		return fonte.StoreStatus{}, errClosed
	}
	st := fonte.StoreStatus{Backend: "postgres", Location: s.cfg.location}
	var committed *time.Time
	var gen, docs, chunks int64
	var dim int
	var hnswOpts, bm25Opts *string
	var replica replicaRow
	err := s.pool.QueryRow(ctx, `SELECT m.generation, m.committed, m.documents, m.chunks, m.dim,
	(SELECT array_to_string(c.reloptions, ', ') FROM pg_class c WHERE c.oid = to_regclass($1)),
	(SELECT array_to_string(c.reloptions, ', ') FROM pg_class c WHERE c.oid = to_regclass($2)),
	`+replicaColumns+`
FROM `+s.table("meta")+" m", s.table(hnswIndex), s.table(bm25Index)).
		Scan(append([]any{&gen, &committed, &docs, &chunks, &dim, &hnswOpts, &bm25Opts}, replica.dest()...)...)
	if err != nil {
		return fonte.StoreStatus{}, s.cfg.wrap(ctx, "reading the status", err)
	}
	st.Generation, st.Documents, st.Chunks = uint64(gen), int(docs), int(chunks)
	st.Replica = replica.status()
	if committed != nil {
		st.Committed = *committed
	}
	switch {
	case s.bm25 && bm25Opts != nil:
		st.Lexical = "pg_textsearch BM25 (" + *bm25Opts + "; candidates scored again with fonte's BM25)"
	case s.bm25:
		st.Lexical = "pg_textsearch BM25 (candidates scored again with fonte's BM25)"
	default:
		st.Lexical = "PostgreSQL full-text search (ts_rank_cd), not BM25"
		if s.lexicalNote != "" {
			st.Lexical += ": " + s.lexicalNote
		}
	}
	switch {
	case hnswOpts != nil:
		st.Dense = "HNSW (" + *hnswOpts + ")"
	case dim > maxHNSWDim:
		st.Dense = fmt.Sprintf("exact (pgvector's HNSW index takes at most %d dimensions, the index has %d)", maxHNSWDim, dim)
	default:
		st.Dense = fmt.Sprintf("exact (HNSW from %d chunks, m=%d, ef_construction=%d)", s.cfg.exactBelow, s.cfg.hnswM, s.cfg.efConstruction)
	}
	return st, nil
}

// Documents describes every document, sorted by ID.
func (s *Store) Documents(ctx context.Context) ([]fonte.DocInfo, error) {
	return readAgain(ctx, s, func() ([]fonte.DocInfo, error) { return s.documentsOnce(ctx) })
}

// documentsOnce is one try of Documents.
func (s *Store) documentsOnce(ctx context.Context) ([]fonte.DocInfo, error) {
	if s.closed.Load() {
		return nil, errClosed
	}
	docs, err := s.documents(ctx, s.pool, s.schema, -1)
	return docs, s.cfg.wrap(ctx, "listing documents", err)
}

// docInfoColumns are the documents columns scanDocInfo reads.
const docInfoColumns = "doc_id, title, source, language, sha256, updated, updated_nanos, tags, bytes, chunks, meta"

// documents lists the documents of schema, of generations up to maxGen
// (all when maxGen < 0), sorted by ID.
func (s *Store) documents(ctx context.Context, q querier, schema string, maxGen int64) ([]fonte.DocInfo, error) {
	rows, err := q.Query(ctx, "SELECT "+docInfoColumns+" FROM "+quote(schema)+".documents WHERE $1 < 0 OR gen <= $1 ORDER BY doc_id", maxGen)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []fonte.DocInfo
	for rows.Next() {
		d, err := scanDocInfo(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// scanDocInfo reads the docInfoColumns of one row.
func scanDocInfo(row pgx.Row) (fonte.DocInfo, error) {
	var d fonte.DocInfo
	var updated time.Time
	var nanos int
	var meta []byte
	var bytes int64
	err := row.Scan(&d.ID, &d.Title, &d.Source, &d.Language, &d.SHA256, &updated, &nanos, &d.Tags, &bytes, &d.Chunks, &meta)
	if err != nil {
		return d, err
	}
	d.Updated = updated.UTC().Add(time.Duration(nanos))
	d.Bytes = int(bytes)
	d.Tags = nilIfEmpty(d.Tags)
	d.Meta, err = decodeMeta(meta)
	return d, err
}

// Document returns one document whole: its text, chunks, text hashes,
// vectors and terms. An absent document gives an error wrapping
// fonte.ErrNotFound.
func (s *Store) Document(ctx context.Context, id string) (fonte.Record, error) {
	return readAgain(ctx, s, func() (fonte.Record, error) { return s.documentOnce(ctx, id) })
}

// documentOnce is one try of Document.
func (s *Store) documentOnce(ctx context.Context, id string) (fonte.Record, error) {
	var r fonte.Record
	err := s.snapshot(ctx, "reading document "+id, func(tx pgx.Tx) error {
		var err error
		r, err = s.readDocument(ctx, tx, id)
		return err
	})
	return r, err
}

// readDocument reads document id whole from the current generation.
func (s *Store) readDocument(ctx context.Context, q querier, id string) (fonte.Record, error) {
	var r fonte.Record
	var updated time.Time
	var nanos int
	var meta []byte
	err := q.QueryRow(ctx, `SELECT doc_id, title, source, language, sha256, updated, updated_nanos, body, tags, meta
FROM `+s.table("documents")+" WHERE doc_id = $1", id).
		Scan(&r.Doc.ID, &r.Doc.Title, &r.Doc.Source, &r.Doc.Language, &r.Doc.SHA256, &updated, &nanos, &r.Doc.Text, &r.Doc.Tags, &meta)
	if err == pgx.ErrNoRows {
		return r, s.cfg.errorf([]error{fonte.ErrNotFound}, "postgres %s, collection %s: document %q: %v", s.cfg.server, s.cfg.collection, id, fonte.ErrNotFound)
	}
	if err != nil {
		return r, err
	}
	r.Doc.Updated = updated.UTC().Add(time.Duration(nanos))
	r.Doc.Tags = nilIfEmpty(r.Doc.Tags)
	if r.Meta, err = decodeMeta(meta); err != nil {
		return r, err
	}
	rows, err := q.Query(ctx, "SELECT "+chunkColumns+", text_hash, terms, embedding FROM "+s.table("chunks")+
		" WHERE doc_id = $1 ORDER BY position", id)
	if err != nil {
		return r, err
	}
	defer rows.Close()
	for rows.Next() {
		var c fonte.Chunk
		var lang, hash string
		var terms []string
		var vec pgvector.Vector
		if err := rows.Scan(append(chunkDest(&c, &lang), &hash, &terms, &vec)...); err != nil {
			return r, err
		}
		r.Chunks = append(r.Chunks, c)
		r.TextHashes = append(r.TextHashes, hash)
		if terms == nil {
			terms = []string{}
		}
		r.Terms = append(r.Terms, terms)
		r.Vectors = append(r.Vectors, vec.Slice())
	}
	return r, rows.Err()
}

// chunkColumns are the columns chunkDest scans into a fonte.Chunk (and
// the document's language).
const chunkColumns = "doc_id, chunk_id, title, headings, body, start_byte, end_byte, page, position, language"

// chunkDest returns the scan destinations of chunkColumns.
func chunkDest(c *fonte.Chunk, lang *string) []any {
	return []any{&c.DocID, &c.ID, &c.Title, &c.Headings, &c.Text, &c.Start, &c.End, &c.Page, &c.Position, lang}
}

// encodeMeta is the JSON object a document's metadata is kept as.
func encodeMeta(m map[string]string) (string, error) {
	if m == nil {
		return "{}", nil
	}
	b, err := json.Marshal(m)
	return string(b), err
}

// decodeMeta reads encodeMeta's JSON; an empty object is nil.
func decodeMeta(b []byte) (map[string]string, error) {
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("decoding document metadata: %w", err)
	}
	if len(m) == 0 {
		return nil, nil
	}
	return m, nil
}

// nilIfEmpty returns nil for an empty slice, as the disk store does for
// records without tags.
func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

// Purge makes deletions reach the storage: VACUUM FULL rewrites the
// collection's tables and indexes into new files without the rows that
// deleted or replaced documents left (a plain VACUUM would only mark
// their space free, with the bytes still in it), and pg_textsearch's
// index is rebuilt with them, so its corpus statistics count live chunks
// only again. VACUUM FULL locks each table while it rewrites it: searches
// wait for it.
func (s *Store) Purge(ctx context.Context) error {
	if s.closed.Load() {
		return errClosed
	}
	if s.opts.ReadOnly {
		return s.cfg.errorf([]error{fonte.ErrReadOnly}, "postgres %s, collection %s: purge: %v", s.cfg.server, s.cfg.collection, fonte.ErrReadOnly)
	}
	if err := s.refuseStandby(ctx, s.pool, "purge"); err != nil {
		return err
	}
	// VACUUM cannot run inside a transaction (nor in a multi-statement
	// query): one statement each.
	for _, t := range []string{"chunks", "documents", "term_df", "class_stats", "class_df", "meta"} {
		if _, err := s.pool.Exec(ctx, "VACUUM (FULL, ANALYZE) "+s.table(t)); err != nil {
			return s.cfg.wrap(ctx, "vacuuming "+t, err)
		}
	}
	return nil
}

// Close releases the store's connections.
func (s *Store) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	s.pool.Close()
	return nil
}

// lexicalIndexes reports which lexical indexes schema has: pg_textsearch's
// and full-text search's (which comes with its tsvector column).
func (s *Store) lexicalIndexes(ctx context.Context, q querier, schema string) (bm25, fts bool, err error) {
	err = q.QueryRow(ctx, "SELECT to_regclass($1) IS NOT NULL, to_regclass($2) IS NOT NULL",
		quote(schema)+"."+bm25Index, quote(schema)+"."+ftsIndex).Scan(&bm25, &fts)
	return bm25, fts, err
}
