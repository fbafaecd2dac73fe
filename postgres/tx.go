package postgres

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fonte-rag/fonte"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/pgvector/pgvector-go"
)

// errTxDone is returned by a StoreTx used after its Update returned.
var errTxDone = errors.New("postgres: the transaction is over (its Update returned)")

// Update runs fn in one SQL transaction and commits what it put and
// deleted when fn returns nil; readers see the previous generation until
// then. Writers of the collection, in this process or another, take its
// advisory lock and run one after another. When fn returns an error, a
// write failed, or the commit fails, the transaction rolls back and
// nothing changes. A transaction that changes nothing commits nothing.
//
// A store opened with Rebuild writes its first transaction into a schema
// of its own and, in the commit, drops the collection's schema and
// renames that one in its place: the old index stays readable until then,
// and the new one may have another vector dimension.
func (s *Store) Update(ctx context.Context, fn func(tx fonte.StoreTx) error) error {
	err := s.update(ctx, fn)
	s.dropConnections(err)
	return err
}

// update is Update; a commit is never tried again, since one whose
// connection was lost during COMMIT may have been made.
func (s *Store) update(ctx context.Context, fn func(tx fonte.StoreTx) error) error {
	if s.closed.Load() {
		return errClosed
	}
	if s.opts.ReadOnly {
		return s.cfg.errorf([]error{fonte.ErrReadOnly}, "postgres %s, collection %s: update: %v", s.cfg.server, s.cfg.collection, fonte.ErrReadOnly)
	}
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return s.cfg.wrap(ctx, "starting a transaction", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	// A hot standby is found out before fn runs, so an index run sent to
	// one fails before it embeds anything; asked per transaction, since
	// a standby may be promoted while the store is open.
	if err := s.refuseStandby(ctx, tx, "update"); err != nil {
		return err
	}
	if err := s.lock(ctx, tx); err != nil {
		return err
	}
	var stored fonte.IndexSettings
	var gen int64
	err = tx.QueryRow(ctx, "SELECT generation, analyzer, chunker, embedder, dim FROM "+s.table("meta")).
		Scan(&gen, &stored.Analyzer, &stored.Chunker, &stored.Embedder, &stored.Dim)
	if err != nil {
		return s.cfg.wrap(ctx, "reading the collection's settings", err)
	}
	settings, rebuild, schema := s.opts.Settings, s.rebuild.Load(), s.schema
	switch {
	case rebuild:
		schema = stagingName(s.cfg.collection)
		if _, err := tx.Exec(ctx, "DROP SCHEMA IF EXISTS "+quote(schema)+" CASCADE"); err != nil {
			return s.cfg.wrap(ctx, "clearing the rebuild schema", err)
		}
		if err := s.migrate(ctx, tx, schema, settings.Dim); err != nil {
			return err
		}
		// The rebuilt schema gets full-text search's column before any
		// row (adding it later would rewrite the table), when the
		// collection has it or this store searches with it.
		if _, fts, err := s.lexicalIndexes(ctx, tx, s.schema); err != nil {
			return s.cfg.wrap(ctx, "rebuilding", err)
		} else if fts || !s.bm25 {
			if err := addFTS(ctx, tx, schema); err != nil {
				return s.cfg.wrap(ctx, "rebuilding the full-text index", err)
			}
		}
	case stored.IsZero() && settings.IsZero():
		return s.cfg.errorf([]error{fonte.ErrInvalidSettings},
			"postgres %s, collection %s: the collection holds no index yet, and the store was opened without settings to create one with: %v",
			s.cfg.server, s.cfg.collection, fonte.ErrInvalidSettings)
	case stored.IsZero():
		if err := s.alignDim(ctx, tx, schema, settings.Dim); err != nil {
			return err
		}
	case settings.IsZero():
		settings = stored
	case settings != stored:
		return s.cfg.errorf([]error{fonte.ErrSettingsMismatch},
			"postgres %s, collection %s: %v: %s; to rebuild it with the new settings, run `fonte index --rebuild` (StoreOptions.Rebuild)",
			s.cfg.server, s.cfg.collection, fonte.ErrSettingsMismatch, strings.Join(stored.Diff(settings), "; "))
	}

	t := &storeTx{s: s, tx: tx, schema: schema, dim: settings.Dim, baseGen: gen, newGen: gen + 1, rebuild: rebuild,
		put: map[string]bool{}, gone: map[string]bool{}}
	err = fn(t)
	t.mu.Lock()
	t.done = true
	failed := t.err
	t.mu.Unlock()
	if err != nil {
		return err
	}
	if failed != nil {
		return failed
	}
	if err := ctx.Err(); err != nil {
		return s.cfg.wrap(ctx, "update cancelled", err)
	}
	if len(t.put) == 0 && len(t.gone) == 0 && !rebuild && !stored.IsZero() {
		return nil
	}
	if err := t.commit(ctx, settings); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return s.cfg.wrap(ctx, "committing", err)
	}
	if rebuild {
		s.rebuild.Store(false)
	}
	return nil
}

// storeTx is a write transaction. Its rows go in under generation newGen
// as Put runs; the rows of the documents it replaces or deletes stay
// (generation baseGen and older) until commit removes them, so Base and
// Vectors keep reading the base generation.
type storeTx struct {
	s       *Store
	tx      pgx.Tx
	schema  string // the collection's, or the rebuild's own
	dim     int
	baseGen int64
	newGen  int64
	rebuild bool // the base is empty

	mu   sync.Mutex // pgx.Tx is not safe for concurrent use
	put  map[string]bool
	gone map[string]bool // base documents whose rows the commit removes
	done bool
	err  error // the first failed statement: PostgreSQL aborted the transaction
}

var _ fonte.StoreTx = (*storeTx)(nil)

func (t *storeTx) table(name string) string { return quote(t.schema) + "." + name }

// begin locks t for a statement; the returned error says why it cannot
// run one.
func (t *storeTx) begin() error {
	t.mu.Lock()
	switch {
	case t.done:
		t.mu.Unlock()
		return errTxDone
	case t.err != nil:
		err := t.err
		t.mu.Unlock()
		return err
	}
	return nil
}

// fail records a failed statement: every later call returns it, and so
// does Update, whatever fn does with it.
func (t *storeTx) fail(ctx context.Context, op string, err error) error {
	if err == nil {
		return nil
	}
	t.err = t.s.cfg.wrap(ctx, op, err)
	return t.err
}

// Base describes the documents the transaction started from: none in a
// rebuild.
func (t *storeTx) Base(ctx context.Context) ([]fonte.DocInfo, error) {
	if err := t.begin(); err != nil {
		return nil, err
	}
	defer t.mu.Unlock()
	if t.rebuild {
		return nil, nil
	}
	docs, err := t.s.documents(ctx, t.tx, t.schema, t.baseGen)
	return docs, t.fail(ctx, "listing the base documents", err)
}

// Vectors returns, for each text hash, a vector the base generation holds
// for a chunk embedded from that text, or nil.
func (t *storeTx) Vectors(ctx context.Context, textHashes []string) ([][]float32, error) {
	out := make([][]float32, len(textHashes))
	if err := t.begin(); err != nil {
		return nil, err
	}
	defer t.mu.Unlock()
	if t.rebuild {
		return out, nil
	}
	want := make([]string, 0, len(textHashes))
	for _, h := range textHashes {
		if h != "" && storable(h) {
			want = append(want, h)
		}
	}
	if len(want) == 0 {
		return out, nil
	}
	rows, err := t.tx.Query(ctx, "SELECT DISTINCT ON (text_hash) text_hash, embedding FROM "+t.table("chunks")+
		" WHERE text_hash = ANY($1::text[]) AND gen <= $2", want, t.baseGen)
	if err != nil {
		return nil, t.fail(ctx, "looking up cached vectors", err)
	}
	found := map[string][]float32{}
	for rows.Next() {
		var h string
		var v pgvector.Vector
		if err := rows.Scan(&h, &v); err != nil {
			rows.Close()
			return nil, t.fail(ctx, "looking up cached vectors", err)
		}
		found[h] = v.Slice()
	}
	if err := rows.Err(); err != nil {
		return nil, t.fail(ctx, "looking up cached vectors", err)
	}
	for i, h := range textHashes {
		out[i] = found[h]
	}
	return out, nil
}

// Put adds a document, or replaces the one with the same ID, writing its
// rows in one round trip. Records are checked first (see
// validateRecord); a refused record changes nothing and the transaction
// goes on.
func (t *storeTx) Put(ctx context.Context, r fonte.Record) error {
	if err := validateRecord(r, t.dim); err != nil {
		return err
	}
	meta, err := encodeMeta(r.Meta)
	if err != nil {
		return fmt.Errorf("%w: document %q: metadata: %v", fonte.ErrInvalidRecord, r.Doc.ID, err)
	}
	id, d := r.Doc.ID, r.Doc
	b := &pgx.Batch{}
	if err := t.begin(); err != nil {
		return err
	}
	defer t.mu.Unlock()
	if t.put[id] {
		t.queueRemoveNew(b, id)
	}
	micros := d.Updated.Truncate(1000) // timestamptz keeps microseconds
	b.Queue(`INSERT INTO `+t.table("documents")+` (doc_id, gen, title, source, language, sha256, updated, updated_nanos, body, bytes, tags, meta, chunks)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::text[], $12::jsonb, $13)`,
		id, t.newGen, d.Title, d.Source, d.Language, d.SHA256, micros, int(d.Updated.Sub(micros)), d.Text, len(d.Text),
		orEmpty(d.Tags), meta, len(r.Chunks))
	insertChunk := `INSERT INTO ` + t.table("chunks") + ` (doc_id, gen, position, chunk_id, title, headings, body, start_byte, end_byte, page,
	language, tags, text_hash, terms, nterms, lex, embedding, access)
VALUES ($1, $2, $3, $4, $5, $6::text[], $7, $8, $9, $10, $11, $12::text[], $13, $14::text[], $15, $16, $17, $18::text[])`
	class := accessClass(d.Tags)
	for i, c := range r.Chunks {
		hash := ""
		if r.TextHashes != nil {
			hash = r.TextHashes[i]
		}
		terms := r.Terms[i]
		b.Queue(insertChunk, id, t.newGen, c.Position, c.ID, c.Title, orEmpty(c.Headings), c.Text, c.Start, c.End, c.Page,
			d.Language, orEmpty(d.Tags), hash, orEmpty(terms), len(terms), lexText(terms), pgvector.NewVector(r.Vectors[i]), class)
	}
	if err := t.tx.SendBatch(ctx, b).Close(); err != nil {
		return t.fail(ctx, "writing document "+id, err)
	}
	t.put[id] = true
	return nil
}

// queueRemoveNew removes the rows an earlier Put of this transaction
// wrote for document id.
func (t *storeTx) queueRemoveNew(b *pgx.Batch, id string) {
	b.Queue("DELETE FROM "+t.table("chunks")+" WHERE doc_id = $1 AND gen = $2", id, t.newGen)
	b.Queue("DELETE FROM "+t.table("documents")+" WHERE doc_id = $1 AND gen = $2", id, t.newGen)
}

// Delete removes a document and reports whether it was there (in the base
// or put earlier in the transaction).
func (t *storeTx) Delete(ctx context.Context, docID string) (bool, error) {
	if err := t.begin(); err != nil {
		return false, err
	}
	defer t.mu.Unlock()
	if !storable(docID) {
		return false, nil
	}
	was := t.put[docID]
	if was {
		b := &pgx.Batch{}
		t.queueRemoveNew(b, docID)
		if err := t.tx.SendBatch(ctx, b).Close(); err != nil {
			return false, t.fail(ctx, "deleting document "+docID, err)
		}
		delete(t.put, docID)
	}
	if t.rebuild || t.gone[docID] {
		return was, nil
	}
	var inBase bool
	err := t.tx.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM "+t.table("documents")+" WHERE doc_id = $1 AND gen <= $2)",
		docID, t.baseGen).Scan(&inBase)
	if err != nil {
		return false, t.fail(ctx, "deleting document "+docID, err)
	}
	if inBase {
		t.gone[docID] = true
	}
	return was || inBase, nil
}

// commit removes the base rows of the documents the transaction replaced
// or deleted, keeps the counts and document frequencies, records the
// generation and settings, and creates the indexes a size or a rebuild
// calls for. It runs in the transaction, before COMMIT.
func (t *storeTx) commit(ctx context.Context, settings fonte.IndexSettings) error {
	s := t.s
	set := maps.Clone(t.put)
	for id := range t.gone {
		set[id] = true
	}
	replaced := slices.Sorted(maps.Keys(set))
	puts := slices.Sorted(maps.Keys(t.put))
	meta, chunks, df, docs := t.table("meta"), t.table("chunks"), t.table("term_df"), t.table("documents")
	cstats, cdf := t.table("class_stats"), t.table("class_df")
	// distinctTerms lists each chunk's distinct terms, one row each: a
	// term's document frequency counts chunks, not occurrences.
	const distinctTerms = " c CROSS JOIN LATERAL (SELECT DISTINCT unnest(c.terms)) AS u(term) "
	b := &pgx.Batch{}
	if len(replaced) > 0 && !t.rebuild {
		b.Queue(`UPDATE `+meta+` SET
	documents = documents - (SELECT count(*) FROM `+docs+` WHERE doc_id = ANY($1::text[]) AND gen < $2),
	chunks = chunks - x.n, total_terms = total_terms - x.terms
FROM (SELECT count(*) AS n, coalesce(sum(nterms), 0) AS terms FROM `+chunks+` WHERE doc_id = ANY($1::text[]) AND gen < $2) AS x`,
			replaced, t.newGen)
		b.Queue(`UPDATE `+df+` AS d SET df = d.df - x.n
FROM (SELECT u.term, count(*) AS n FROM `+chunks+distinctTerms+`WHERE c.doc_id = ANY($1::text[]) AND c.gen < $2 GROUP BY u.term) AS x
WHERE d.term = x.term`, replaced, t.newGen)
		// Only the terms these chunks hold can have reached 0: no scan of
		// the whole table.
		b.Queue(`DELETE FROM `+df+` WHERE df <= 0 AND term = ANY (ARRAY(
	SELECT DISTINCT unnest(terms) FROM `+chunks+` WHERE doc_id = ANY($1::text[]) AND gen < $2))`, replaced, t.newGen)
		// The same per access class.
		b.Queue(`UPDATE `+cstats+` AS s SET chunks = s.chunks - x.n, total_terms = s.total_terms - x.terms
FROM (SELECT access, count(*) AS n, coalesce(sum(nterms), 0) AS terms FROM `+chunks+`
	WHERE doc_id = ANY($1::text[]) AND gen < $2 GROUP BY access) AS x
WHERE s.access = x.access`, replaced, t.newGen)
		b.Queue(`UPDATE `+cdf+` AS d SET df = d.df - x.n
FROM (SELECT u.term, c.access, count(*) AS n FROM `+chunks+distinctTerms+`WHERE c.doc_id = ANY($1::text[]) AND c.gen < $2
	GROUP BY u.term, c.access) AS x
WHERE d.term = x.term AND d.access = x.access`, replaced, t.newGen)
		b.Queue(`DELETE FROM `+cdf+` WHERE df <= 0 AND term = ANY (ARRAY(
	SELECT DISTINCT unnest(terms) FROM `+chunks+` WHERE doc_id = ANY($1::text[]) AND gen < $2))`, replaced, t.newGen)
		b.Queue(`DELETE FROM ` + cstats + ` WHERE chunks <= 0`)
		b.Queue("DELETE FROM "+chunks+" WHERE doc_id = ANY($1::text[]) AND gen < $2", replaced, t.newGen)
		b.Queue("DELETE FROM "+docs+" WHERE doc_id = ANY($1::text[]) AND gen < $2", replaced, t.newGen)
	}
	if len(puts) > 0 {
		b.Queue(`INSERT INTO `+df+` (term, df)
SELECT u.term, count(*) FROM `+chunks+distinctTerms+`WHERE c.doc_id = ANY($1::text[]) AND c.gen = $2 GROUP BY u.term
ON CONFLICT (term) DO UPDATE SET df = `+df+`.df + EXCLUDED.df`, puts, t.newGen)
		b.Queue(`INSERT INTO `+cstats+` AS s (access, chunks, total_terms)
SELECT access, count(*), coalesce(sum(nterms), 0) FROM `+chunks+` WHERE doc_id = ANY($1::text[]) AND gen = $2 GROUP BY access
ON CONFLICT (access) DO UPDATE SET chunks = s.chunks + EXCLUDED.chunks, total_terms = s.total_terms + EXCLUDED.total_terms`, puts, t.newGen)
		b.Queue(`INSERT INTO `+cdf+` AS d (term, access, df)
SELECT u.term, c.access, count(*) FROM `+chunks+distinctTerms+`WHERE c.doc_id = ANY($1::text[]) AND c.gen = $2 GROUP BY u.term, c.access
ON CONFLICT (term, access) DO UPDATE SET df = d.df + EXCLUDED.df`, puts, t.newGen)
	}
	var total, added int64
	b.Queue(`UPDATE `+meta+` SET
	documents = documents + (SELECT count(*) FROM `+docs+` WHERE doc_id = ANY($1::text[]) AND gen = $2),
	chunks = chunks + x.n, total_terms = total_terms + x.terms,
	generation = $2, committed = clock_timestamp(),
	analyzer = $3, chunker = $4, embedder = $5, dim = $6
FROM (SELECT count(*) AS n, coalesce(sum(nterms), 0) AS terms FROM `+chunks+` WHERE doc_id = ANY($1::text[]) AND gen = $2) AS x
RETURNING chunks, x.n`, puts, t.newGen, settings.Analyzer, settings.Chunker, settings.Embedder, settings.Dim).
		QueryRow(func(row pgx.Row) error { return row.Scan(&total, &added) })
	if err := t.tx.SendBatch(ctx, b).Close(); err != nil {
		return s.cfg.wrap(ctx, "committing", err)
	}
	// The planner chooses between the HNSW index, the other indexes and a
	// scan by the tables' statistics; when a commit writes a tenth of the
	// chunks or more, refresh them now rather than wait for autovacuum
	// (which some servers, PGlite among them, do not run).
	if added*10 >= total && added > 0 {
		if _, err := t.tx.Exec(ctx, "ANALYZE "+chunks+", "+docs); err != nil {
			return s.cfg.wrap(ctx, "committing (analyzing)", err)
		}
	}
	if t.rebuild {
		return t.replaceSchema(ctx, total)
	}
	return s.wrapCommit(ctx, s.ensureHNSW(ctx, t.tx, t.schema, total, settings.Dim))
}

// replaceSchema finishes a rebuild: the rebuilt schema gets its
// pg_textsearch and HNSW indexes (built once over all rows, faster than
// row by row), then takes the collection's name.
func (t *storeTx) replaceSchema(ctx context.Context, total int64) error {
	s := t.s
	bm25, _, err := s.lexicalIndexes(ctx, t.tx, s.schema)
	if err != nil {
		return s.cfg.wrap(ctx, "rebuilding", err)
	}
	if bm25 || s.bm25 {
		if _, err := t.tx.Exec(ctx, bm25IndexSQL(t.schema)); err != nil {
			return s.cfg.wrap(ctx, "rebuilding the pg_textsearch index", err)
		}
	}
	if err := s.ensureHNSW(ctx, t.tx, t.schema, total, t.dim); err != nil {
		return s.wrapCommit(ctx, err)
	}
	// Readers lock meta, documents and chunks in that order (see
	// beginSnapshot); DROP SCHEMA … CASCADE takes its locks in an order of
	// its own, which can cross a reader's and deadlock (seen in CI: the
	// server aborts the rebuild). Locking them first in the readers' order
	// makes the drop wait for the readers instead. The unrestricted
	// lexical leg's single statement locks chunks before meta, though, so
	// the lock can still meet a reader in a deadlock; the server then
	// fails this statement, and it is tried again from a savepoint (which
	// lets go of what it had locked) rather than failing the rebuild.
	if err := s.lockOld(ctx, t.tx); err != nil {
		return s.cfg.wrap(ctx, "locking the old index", err)
	}
	if _, err := t.tx.Exec(ctx, "DROP SCHEMA "+quote(s.schema)+" CASCADE"); err != nil {
		return s.cfg.wrap(ctx, "dropping the old index", err)
	}
	_, err = t.tx.Exec(ctx, "ALTER SCHEMA "+quote(t.schema)+" RENAME TO "+quote(s.schema))
	return s.cfg.wrap(ctx, "putting the rebuilt index in place", err)
}

// lockOld locks the collection's tables for a rebuild's drop, trying
// again after a deadlock (SQLSTATE 40P01) a few times.
func (s *Store) lockOld(ctx context.Context, tx pgx.Tx) error {
	lock := "LOCK TABLE " + s.table("meta") + ", " + s.table("documents") + ", " + s.table("chunks") + ", " +
		s.table("term_df") + ", " + s.table("class_stats") + ", " + s.table("class_df") + " IN ACCESS EXCLUSIVE MODE"
	const attempts = 5
	for attempt := 1; ; attempt++ {
		if _, err := tx.Exec(ctx, "SAVEPOINT fonte_lock_old"); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, lock)
		var pgErr *pgconn.PgError
		if err == nil || !errors.As(err, &pgErr) || pgErr.Code != "40P01" || attempt == attempts {
			return err
		}
		if _, err := tx.Exec(ctx, "ROLLBACK TO SAVEPOINT fonte_lock_old"); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(attempt) * 10 * time.Millisecond):
		}
	}
}

// wrapCommit names an error of the commit's index step.
func (s *Store) wrapCommit(ctx context.Context, err error) error {
	return s.cfg.wrap(ctx, "committing (building the HNSW index)", err)
}

// orEmpty returns an empty slice for nil, so array columns get '{}', not
// NULL.
func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
