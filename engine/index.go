package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/chunk"
	"github.com/fonte-rag/fonte/disk"
	"github.com/fonte-rag/fonte/ingest"
)

// Refused is a file the index run could not use, with the reason.
type Refused struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// IndexReport is what an Index run did.
type IndexReport struct {
	Indexed        []string      `json:"-"` // new or changed documents
	Unchanged      int           `json:"unchanged"`
	Removed        []string      `json:"-"` // documents gone from the folder
	Refused        []Refused     `json:"refused"`
	Skipped        int           `json:"skipped"` // files of unsupported types
	Chunks         int           `json:"chunks"`  // chunks in the index after the run
	ChunksEmbedded int           `json:"chunks_embedded"`
	Duration       time.Duration `json:"-"`
	Generation     uint64        `json:"generation"`
}

// Progress reports an index run as it goes.
type Progress struct {
	Files, Total   int // files handled so far, and in all
	ChunksEmbedded int
	Path           string
}

// embedBatch is how many chunk texts go to the embedder at once: large
// enough to amortise a request to a model server, small enough that
// progress moves and memory stays flat.
const embedBatch = 64

// Index brings the index up to date with the folder root: new and changed
// files are parsed, chunked and embedded (reusing the embedding of any
// chunk text already in the index), unchanged files are left alone, files
// that disappeared lose their chunks. The run commits atomically: if it
// fails or is interrupted, the previous index is untouched.
func (e *Engine) Index(ctx context.Context, root string, progress func(Progress)) (*IndexReport, error) {
	start := time.Now()
	rep := &IndexReport{}
	defer func() { rep.Duration = time.Since(start) }()
	var entries []ingest.Entry
	err := ingest.Walk(root, ingest.WalkOptions{Include: e.settings.Include, Exclude: e.settings.Exclude}, func(en ingest.Entry) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		entries = append(entries, en)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", root, err)
	}
	return e.update(ctx, rep, func(r *run) error {
		done := 0
		report := func(p string) {
			done++
			if progress != nil {
				progress(Progress{Files: done, Total: len(entries), ChunksEmbedded: rep.ChunksEmbedded, Path: p})
			}
		}
		for _, en := range entries {
			if err := ctx.Err(); err != nil {
				return err
			}
			switch {
			case en.Skipped != "":
				rep.Skipped++
				report(en.Path)
				continue
			case en.Refusal != nil:
				reason := fmt.Sprintf("%s: %s", en.Refusal.Reason, en.Refusal.Detail)
				if _, ok := r.base.Info(en.Path); ok {
					r.seen[en.Path] = true // keep the last good version rather than lose it
					reason += " (the previously indexed version is kept)"
				}
				rep.Refused = append(rep.Refused, Refused{Path: en.Path, Reason: reason})
				report(en.Path)
				continue
			}
			p := en.Parsed
			if r.unchanged(p.Doc) {
				report(en.Path)
				continue
			}
			chunks := e.chunk(p)
			if len(chunks) == 0 {
				rep.Refused = append(rep.Refused, Refused{Path: en.Path, Reason: "empty: no text to chunk"})
				report(en.Path)
				continue
			}
			if err := r.add(pendingDoc{doc: p.Doc, format: p.Format, chunks: chunks}); err != nil {
				return err
			}
			report(en.Path)
		}
		return nil
	})
}

// run is one index run inside a store transaction: documents are
// embedded and put in batches, and whatever the run did not see is
// removed when it finishes.
type run struct {
	e       *Engine
	ctx     context.Context
	tx      *disk.Tx
	base    *disk.Snapshot
	rep     *IndexReport
	seen    map[string]bool
	pending []pendingDoc
}

// unchanged marks doc as seen and reports whether the index already holds
// it with the same content hash (so it is neither re-chunked nor
// re-embedded).
func (r *run) unchanged(doc fonte.Document) bool {
	r.seen[doc.ID] = true
	if old, ok := r.base.Info(doc.ID); ok && old.SHA256 == doc.SHA256 {
		r.rep.Unchanged++
		return true
	}
	return false
}

func (r *run) add(d pendingDoc) error {
	r.pending = append(r.pending, d)
	if len(r.pending) < embedBatch {
		return nil
	}
	err := r.e.flush(r.ctx, r.tx, r.base, r.pending, r.rep)
	r.pending = r.pending[:0]
	return err
}

// update runs fill in one transaction, then removes the documents it did
// not see and completes the report from the committed snapshot.
func (e *Engine) update(ctx context.Context, rep *IndexReport, fill func(r *run) error) (*IndexReport, error) {
	start := time.Now()
	e.loadPersisted()
	err := e.store.Update(ctx, func(tx *disk.Tx) error {
		r := &run{e: e, ctx: ctx, tx: tx, base: tx.Base(), rep: rep, seen: map[string]bool{}}
		if err := fill(r); err != nil {
			return err
		}
		if err := e.flush(ctx, tx, r.base, r.pending, rep); err != nil {
			return err
		}
		for _, d := range r.base.Docs() {
			if !r.seen[d.ID] {
				tx.Delete(d.ID)
				rep.Removed = append(rep.Removed, d.ID)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	snap, err := e.store.Snapshot()
	if err != nil {
		return nil, err
	}
	rep.Chunks, rep.Generation = snap.NumChunks(), snap.Generation()
	if err := e.persistDerived(ctx, false); err != nil {
		slog.Warn("the index is committed, but its derived indexes were not saved; the next open rebuilds them", "err", err)
	}
	rep.Duration += time.Since(start)
	sort.Strings(rep.Indexed)
	return rep, nil
}

type pendingDoc struct {
	doc    fonte.Document
	format string
	chunks []fonte.Chunk
}

// flush embeds what the pending documents need and puts them in tx.
func (e *Engine) flush(ctx context.Context, tx *disk.Tx, base *disk.Snapshot, docs []pendingDoc, rep *IndexReport) error {
	type ref struct{ doc, chunk int }
	var texts []string
	var refs []ref
	vecs := make([][][]float32, len(docs))
	hashes := make([][]string, len(docs))
	for i, d := range docs {
		vecs[i] = make([][]float32, len(d.chunks))
		hashes[i] = make([]string, len(d.chunks))
		for j, c := range d.chunks {
			text := chunk.Enriched(c)
			sum := sha256.Sum256([]byte(text))
			h := hex.EncodeToString(sum[:])
			hashes[i][j] = h
			if v, ok := base.VectorForText(h); ok {
				vecs[i][j] = v
				continue
			}
			texts = append(texts, text)
			refs = append(refs, ref{i, j})
		}
	}
	for lo := 0; lo < len(texts); lo += embedBatch {
		hi := min(lo+embedBatch, len(texts))
		out, err := e.settings.Embedder.Embed(ctx, texts[lo:hi])
		if err != nil {
			return fmt.Errorf("embedding with %s: %w", e.settings.Embedder.Model(), err)
		}
		if len(out) != hi-lo {
			return fmt.Errorf("embedding with %s: %d vectors for %d texts", e.settings.Embedder.Model(), len(out), hi-lo)
		}
		for k, v := range out {
			r := refs[lo+k]
			vecs[r.doc][r.chunk] = v
		}
		rep.ChunksEmbedded += hi - lo
	}
	for i, d := range docs {
		doc := d.doc
		var meta map[string]string
		if d.format != "" {
			meta = map[string]string{"format": d.format}
		}
		err := tx.Put(disk.Record{Doc: doc, Chunks: d.chunks, TextHashes: hashes[i], Vectors: vecs[i], Meta: meta})
		if err != nil {
			return fmt.Errorf("%s: %w", doc.ID, err)
		}
		rep.Indexed = append(rep.Indexed, doc.ID)
	}
	return nil
}

// chunk cuts a parsed document with the configured chunker. A top
// heading that repeats the document title is dropped from heading paths:
// the title is in every chunk's enriched text already, and repeating it
// would double its weight and clutter citations.
func (e *Engine) chunk(p *ingest.Parsed) []fonte.Chunk {
	s := e.settings
	if s.Chunker == "window" {
		return chunk.Window{Size: s.ChunkSize, Overlap: s.Overlap}.Chunk(p.Doc)
	}
	cs := e.structure(p)
	for i := range cs {
		if h := cs[i].Headings; len(h) > 0 && strings.EqualFold(strings.TrimSpace(h[0]), strings.TrimSpace(p.Doc.Title)) {
			cs[i].Headings = h[1:]
		}
	}
	return cs
}

func (e *Engine) structure(p *ingest.Parsed) []fonte.Chunk {
	s := e.settings
	blocks := make([]chunk.Block, len(p.Blocks))
	for i, b := range p.Blocks {
		blocks[i] = chunk.Block{Kind: chunk.BlockKind(b.Kind), Level: b.Level, Text: b.Text, Headings: b.Headings,
			Start: b.Start, End: b.End, Page: b.Page}
	}
	st := chunk.Structure{MaxWords: s.ChunkSize, OverlapWords: s.Overlap, MinWords: min(chunk.DefaultStructure().MinWords, s.ChunkSize/4)}
	return st.Split(p.Doc, blocks)
}

// chunkText chunks a document that has no parsed structure: its text's
// blank-line-separated paragraphs become the blocks.
func (e *Engine) chunkText(d fonte.Document) []fonte.Chunk {
	p := &ingest.Parsed{Doc: d}
	off := 0
	for _, para := range strings.Split(d.Text, "\n\n") {
		if t := strings.TrimSpace(para); t != "" {
			s := off + strings.Index(para, t)
			p.Blocks = append(p.Blocks, ingest.Block{Kind: ingest.KindParagraph, Text: t, Start: s, End: s + len(t)})
		}
		off += len(para) + 2
	}
	return e.chunk(p)
}

// Delete removes the documents whose id equals or matches (as an
// ingest.Match glob) one of patterns, then purges every file of older
// generations, so their text, postings and vectors leave no bytes behind.
func (e *Engine) Delete(ctx context.Context, patterns []string) ([]string, error) {
	var deleted []string
	e.loadPersisted()
	err := e.store.Update(ctx, func(tx *disk.Tx) error {
		for _, d := range tx.Base().Docs() {
			for _, p := range patterns {
				if d.ID == p || ingest.Match(p, d.ID) || (path.Clean(p) == d.ID) {
					if tx.Delete(d.ID) {
						deleted = append(deleted, d.ID)
					}
					break
				}
			}
		}
		if len(deleted) > 0 {
			dropDerived(tx)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(deleted) > 0 {
		if err := e.persistDerived(ctx, true); err != nil {
			return deleted, err
		}
	}
	if err := e.store.Purge(); err != nil {
		return deleted, err
	}
	return deleted, nil
}
