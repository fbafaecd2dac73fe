package postgres

import (
	"context"
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/fonte-rag/fonte"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// A collection lives in a schema of its own, fonte_<name>, so one
// collection never sees another's rows. Its tables:
//
//   - schema_migrations: one row per schema version applied.
//   - meta: one row with the settings the index was built with, the
//     generation and commit time, and the counts BM25 needs (documents,
//     chunks, total terms), kept by every commit.
//   - documents: one row per document with its text and metadata.
//   - chunks: one row per chunk with its text, heading path, span, the
//     document's language and tags (copied so both legs filter without a
//     join), the hash of its embedded text, its lexical terms (terms, and
//     lex: the same terms encoded for PostgreSQL's text-search parser)
//     and its vector.
//   - term_df: the number of chunks holding each term, kept by every
//     commit, so TermStats is exact and costs one index probe per term.
//   - class_stats and class_df (version 2): the same counts per access
//     class, the sorted set of access tags a chunk's document carries
//     (chunks.access, '{}' for none), so a restricted reader's
//     statistics are sums over the classes it may read (see access.go).
//
// Rows carry the generation that wrote them (gen): a transaction writes
// its documents under the next generation and removes the rows of the
// documents it replaced or deleted only when it commits, so StoreTx.Base
// and StoreTx.Vectors read the base generation throughout.

// migrations are the schema versions in order; migrations[i] brings a
// schema to version i+1. %[1]s is the quoted schema name, %[2]s the type
// of the vector column. Never edit one that has shipped: add the next.
var migrations = []struct {
	description string
	sql         string
}{
	{"documents, chunks with vectors and terms, document frequencies, meta", `
CREATE TABLE %[1]s.meta (
	id          boolean PRIMARY KEY DEFAULT true CHECK (id),
	generation  bigint NOT NULL DEFAULT 0,
	committed   timestamptz,
	analyzer    text NOT NULL DEFAULT '',
	chunker     text NOT NULL DEFAULT '',
	embedder    text NOT NULL DEFAULT '',
	dim         integer NOT NULL DEFAULT 0,
	documents   bigint NOT NULL DEFAULT 0,
	chunks      bigint NOT NULL DEFAULT 0,
	total_terms bigint NOT NULL DEFAULT 0
);
INSERT INTO %[1]s.meta DEFAULT VALUES;
CREATE TABLE %[1]s.documents (
	doc_id        text COLLATE "C" NOT NULL,
	gen           bigint NOT NULL,
	title         text NOT NULL,
	source        text NOT NULL,
	language      text NOT NULL,
	sha256        text NOT NULL,
	updated       timestamptz NOT NULL,
	updated_nanos integer NOT NULL,
	body          text NOT NULL,
	bytes         bigint NOT NULL,
	tags          text[] NOT NULL,
	meta          jsonb NOT NULL,
	chunks        integer NOT NULL,
	PRIMARY KEY (doc_id, gen)
);
CREATE TABLE %[1]s.chunks (
	doc_id     text COLLATE "C" NOT NULL,
	gen        bigint NOT NULL,
	position   bigint NOT NULL,
	chunk_id   text NOT NULL,
	title      text NOT NULL,
	headings   text[] NOT NULL,
	body       text NOT NULL,
	start_byte bigint NOT NULL,
	end_byte   bigint NOT NULL,
	page       bigint NOT NULL,
	language   text NOT NULL,
	tags       text[] NOT NULL,
	text_hash  text NOT NULL,
	terms      text[] NOT NULL,
	nterms     integer NOT NULL,
	lex        text NOT NULL,
	embedding  %[2]s NOT NULL,
	PRIMARY KEY (doc_id, gen, position)
);
CREATE INDEX chunks_text_hash ON %[1]s.chunks (text_hash);
CREATE INDEX chunks_tags ON %[1]s.chunks USING gin (tags);
CREATE TABLE %[1]s.term_df (
	term text COLLATE "C" PRIMARY KEY,
	df   integer NOT NULL
);
`},
	// The prefix 'access:' is fonte.AccessTagPrefix as it shipped; a tag
	// that is the prefix alone carries no label.
	{"access classes: chunks.access, per-class counts and document frequencies, indexes on access and terms", `
ALTER TABLE %[1]s.chunks ADD COLUMN access text[] NOT NULL DEFAULT '{}';
UPDATE %[1]s.chunks SET access = ARRAY(SELECT DISTINCT t COLLATE "C" FROM unnest(tags) AS u(t)
	WHERE starts_with(t, 'access:') AND t <> 'access:' ORDER BY 1)
WHERE EXISTS (SELECT 1 FROM unnest(tags) AS u(t) WHERE starts_with(t, 'access:') AND t <> 'access:');
CREATE INDEX chunks_access ON %[1]s.chunks USING gin (access);
CREATE INDEX chunks_terms ON %[1]s.chunks USING gin (terms);
CREATE TABLE %[1]s.class_stats (
	access      text[] PRIMARY KEY,
	chunks      bigint NOT NULL,
	total_terms bigint NOT NULL
);
INSERT INTO %[1]s.class_stats SELECT access, count(*), coalesce(sum(nterms), 0) FROM %[1]s.chunks GROUP BY access;
CREATE TABLE %[1]s.class_df (
	term   text COLLATE "C" NOT NULL,
	access text[] NOT NULL,
	df     integer NOT NULL,
	PRIMARY KEY (term, access)
);
INSERT INTO %[1]s.class_df SELECT u.term, c.access, count(*)
FROM %[1]s.chunks c CROSS JOIN LATERAL (SELECT DISTINCT unnest(c.terms)) AS u(term) GROUP BY u.term, c.access;
`},
}

// latestVersion is the schema version this package writes and reads.
var latestVersion = len(migrations)

// Index names inside a collection's schema.
const (
	bm25Index = "chunks_lex_bm25"
	ftsIndex  = "chunks_lex_fts"
	ftsColumn = "lex_tsv" // full-text search's stored tsvector
	hnswIndex = "chunks_embedding_hnsw"
)

// schemaName is the schema of a collection.
func schemaName(collection string) string { return "fonte_" + collection }

// stagingName is where a rebuild writes before it replaces the
// collection's schema; '$' cannot occur in a collection name, so it never
// collides with another collection's schema.
func stagingName(collection string) string { return "fonte_" + collection + "$rebuild" }

// quote quotes an identifier for SQL.
func quote(name string) string { return pgx.Identifier{name}.Sanitize() }

// lockKey is the advisory lock that serialises a collection's writers
// (migrations, commits, rebuilds) across processes.
func lockKey(collection string) int64 {
	h := fnv.New64a()
	h.Write([]byte("fonte.postgres/" + collection))
	return int64(h.Sum64())
}

// vectorType is the column type for dimension dim; 0 (not known yet)
// leaves the column without a dimension until the first commit sets it.
func vectorType(dim int) string {
	if dim <= 0 {
		return "vector"
	}
	return fmt.Sprintf("vector(%d)", dim)
}

// migrate brings schema to latestVersion inside tx (which holds the
// collection's lock), creating it when absent. A schema written by a
// newer fonte is refused with fonte.ErrStoreVersion.
func (s *Store) migrate(ctx context.Context, tx pgx.Tx, schema string, dim int) error {
	q := quote(schema)
	if _, err := tx.Exec(ctx, "CREATE SCHEMA IF NOT EXISTS "+q); err != nil {
		return s.cfg.wrap(ctx, "creating schema "+schema, err)
	}
	_, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS `+q+`.schema_migrations (
	version     integer PRIMARY KEY,
	applied     timestamptz NOT NULL DEFAULT now(),
	description text NOT NULL
)`)
	if err != nil {
		return s.cfg.wrap(ctx, "creating the migration table", err)
	}
	version, err := s.schemaVersion(ctx, tx, schema)
	if err != nil {
		return err
	}
	for v := version; v < len(migrations); v++ {
		m := migrations[v]
		if _, err := tx.Exec(ctx, fmt.Sprintf(m.sql, q, vectorType(dim))); err != nil {
			return s.cfg.wrap(ctx, fmt.Sprintf("migrating schema %s to version %d", schema, v+1), err)
		}
		_, err := tx.Exec(ctx, "INSERT INTO "+q+".schema_migrations (version, description) VALUES ($1, $2)", v+1, m.description)
		if err != nil {
			return s.cfg.wrap(ctx, "recording a migration", err)
		}
	}
	return nil
}

// schemaVersion reads the version of schema and refuses a newer one.
func (s *Store) schemaVersion(ctx context.Context, q querier, schema string) (int, error) {
	var version int
	err := q.QueryRow(ctx, "SELECT coalesce(max(version), 0) FROM "+quote(schema)+".schema_migrations").Scan(&version)
	if err != nil {
		return 0, s.cfg.wrap(ctx, "reading the schema version", err)
	}
	if version > latestVersion {
		return 0, s.cfg.errorf([]error{fonte.ErrStoreVersion},
			"postgres %s: collection %s has schema version %d, and this fonte knows versions up to %d: %v; upgrade fonte to use it",
			s.cfg.server, s.cfg.collection, version, latestVersion, fonte.ErrStoreVersion)
	}
	return version, nil
}

// dimAligned reports whether schema's vector column can take vectors of
// dimension dim: it has that dimension, or the collection holds an index
// already (whose settings Update checks).
func (s *Store) dimAligned(ctx context.Context, q querier, schema string, dim int) (bool, error) {
	var stored int
	var typ string
	err := q.QueryRow(ctx, `SELECT m.dim, format_type(a.atttypid, a.atttypmod) FROM `+quote(schema)+`.meta m, pg_attribute a
WHERE a.attrelid = $1::regclass AND a.attname = 'embedding'`, quote(schema)+".chunks").Scan(&stored, &typ)
	if err != nil {
		return false, s.cfg.wrap(ctx, "reading the vector column's type", err)
	}
	return stored != 0 || strings.HasSuffix(typ, vectorType(dim)), nil
}

// alignDim gives the vector column dimension dim while the collection
// holds no index yet (created by an Open that did not know the
// dimension, or by a writer with another one that never committed).
func (s *Store) alignDim(ctx context.Context, tx pgx.Tx, schema string, dim int) error {
	ok, err := s.dimAligned(ctx, tx, schema, dim)
	if err != nil || ok {
		return err
	}
	q := quote(schema)
	if _, err := tx.Exec(ctx, "DROP INDEX IF EXISTS "+q+"."+hnswIndex); err != nil {
		return s.cfg.wrap(ctx, "dropping the HNSW index", err)
	}
	_, err = tx.Exec(ctx, fmt.Sprintf("ALTER TABLE %s.chunks ALTER COLUMN embedding TYPE %s", q, vectorType(dim)))
	return s.cfg.wrap(ctx, "setting the vector dimension", err)
}

// querier is what both a pool and a transaction offer.
type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}
