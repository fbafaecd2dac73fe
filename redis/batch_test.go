package redis

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/fonte-rag/fonte"
)

// batches is a collection that every commit rewrites whole: batch b has
// docsIn(b) documents of chunksPer chunks, each chunk's text "batch-b"
// and its terms "everywhere" and "batch-b", so any answer tells which
// commit it saw, and whether it saw all of that commit.
type batches struct{ docs, chunksPer int }

// docsIn is the number of documents of batch b: odd batches have fewer,
// so their commits delete some.
func (c batches) docsIn(b int) int { return c.docs - 4*(b%2) }

// records are batch b's documents.
func (c batches) records(b int) []fonte.Record {
	var out []fonte.Record
	for d := range c.docsIn(b) {
		rec := genDoc(fmt.Sprintf("doc-%02d", d), c.chunksPer, 8, uint64(1000*b+d))
		rec.Meta["batch"] = strconv.Itoa(b)
		for i := range rec.Chunks {
			rec.Chunks[i].Text = fmt.Sprintf("batch-%d", b)
			rec.Terms[i] = append(rec.Terms[i], "everywhere", fmt.Sprintf("batch-%d", b))
		}
		out = append(out, rec)
	}
	return out
}

// commit replaces the collection with batch b in one Update.
func (c batches) commit(ctx context.Context, s *Store, b int) error {
	return c.commitThen(ctx, s, b, nil)
}

// commitThen is commit, calling beforeSwitch (when not nil) once every
// document is put and deleted, before the Update commits.
func (c batches) commitThen(ctx context.Context, s *Store, b int, beforeSwitch func()) error {
	return s.Update(ctx, func(tx fonte.StoreTx) error {
		if err := c.write(ctx, tx, b); err != nil {
			return err
		}
		if beforeSwitch != nil {
			beforeSwitch()
		}
		return nil
	})
}

// commitNext reads which batch the transaction starts from and commits
// the one after it: two writers that both started from the same
// generation would commit the same batch, and one update would be lost.
func (c batches) commitNext(ctx context.Context, s *Store) (next int, err error) {
	err = s.Update(ctx, func(tx fonte.StoreTx) error {
		base, err := tx.Base(ctx)
		if err != nil {
			return err
		}
		next = 0
		for _, d := range base {
			b, err := strconv.Atoi(d.Meta["batch"])
			if err != nil {
				return fmt.Errorf("document %s: batch %q", d.ID, d.Meta["batch"])
			}
			next = max(next, b+1)
		}
		return c.write(ctx, tx, next)
	})
	return next, err
}

// write puts batch b and deletes the documents it does not have.
func (c batches) write(ctx context.Context, tx fonte.StoreTx, b int) error {
	for _, r := range c.records(b) {
		if err := tx.Put(ctx, r); err != nil {
			return err
		}
	}
	for d := c.docsIn(b); d < c.docs; d++ {
		if _, err := tx.Delete(ctx, fmt.Sprintf("doc-%02d", d)); err != nil {
			return err
		}
	}
	return nil
}

// batchOf names the batch every hit belongs to, and fails when the hits
// mix batches or miss some of the batch's chunks.
func (c batches) batchOf(hits []fonte.ScoredChunk) (int, error) {
	if len(hits) == 0 {
		return 0, fmt.Errorf("no hits")
	}
	for _, h := range hits {
		if h.Chunk.Text != hits[0].Chunk.Text {
			return 0, fmt.Errorf("hits mix %q and %q", hits[0].Chunk.Text, h.Chunk.Text)
		}
	}
	b, err := strconv.Atoi(strings.TrimPrefix(hits[0].Chunk.Text, "batch-"))
	if err != nil {
		return 0, fmt.Errorf("hit text %q", hits[0].Chunk.Text)
	}
	if want := c.docsIn(b) * c.chunksPer; len(hits) != want {
		return b, fmt.Errorf("%d chunks of batch %d, want %d", len(hits), b, want)
	}
	return b, nil
}

// termsUpTo are the terms TermStats is asked about: "everywhere", then
// each batch's term up to batch last.
func termsUpTo(last int) []string {
	terms := []string{"everywhere"}
	for b := range last + 1 {
		terms = append(terms, fmt.Sprintf("batch-%d", b))
	}
	return terms
}

// statsBatch names the one batch TermStats counts, and fails when its
// counts mix batches or miss chunks.
func (c batches) statsBatch(ts fonte.TermStats) (int, error) {
	found, batch := 0, -1
	for b, df := range ts.DF[1:] {
		if df == 0 {
			continue
		}
		found++
		batch = b
		if df != c.docsIn(b)*c.chunksPer || ts.Chunks != df {
			return b, fmt.Errorf("batch %d's term in %d chunks of %d, want %d (%v)", b, df, ts.Chunks, c.docsIn(b)*c.chunksPer, ts.DF)
		}
	}
	if found != 1 || ts.DF[0] != ts.Chunks {
		return batch, fmt.Errorf("term statistics mix generations: %+v", ts)
	}
	return batch, nil
}

// everyLeg runs the lexical leg, the dense leg and TermStats once on s
// and returns the batch each saw (all three must agree with the
// generation they read, each on its own).
func (c batches) everyLeg(ctx context.Context, s *Store, last int) (lex, dense, stats int, err error) {
	hits, err := s.LexicalTopK(ctx, fonte.LexicalQuery{Terms: []string{"everywhere"}, K: 1000})
	if err != nil {
		return 0, 0, 0, err
	}
	if lex, err = c.batchOf(hits); err != nil {
		return 0, 0, 0, fmt.Errorf("LexicalTopK: %w", err)
	}
	hits, err = s.VectorTopK(ctx, fonte.VectorQuery{Vector: []float32{1, 0, 0, 0, 0, 0, 0, 0}, K: 1000})
	if err != nil {
		return 0, 0, 0, err
	}
	if dense, err = c.batchOf(hits); err != nil {
		return 0, 0, 0, fmt.Errorf("VectorTopK: %w", err)
	}
	ts, err := s.TermStats(ctx, termsUpTo(last), fonte.Filter{})
	if err != nil {
		return 0, 0, 0, err
	}
	if stats, err = c.statsBatch(ts); err != nil {
		return 0, 0, 0, fmt.Errorf("TermStats: %w", err)
	}
	return lex, dense, stats, nil
}
