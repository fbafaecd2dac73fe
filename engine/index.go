package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"math"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/chunk"
	"github.com/fonte-rag/fonte/ingest"
	"github.com/fonte-rag/fonte/internal/yield"
)

// Refused is a file the index run could not use, with the reason.
type Refused struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
	// Field names what in the file is at fault when its access labels
	// cannot be read ("access", "front matter"): such a refusal fails
	// `fonte index` and an upload, since the file would otherwise be public.
	Field string `json:"field,omitempty"`
}

// refusalReason is what a refusal says in a report: its reason and
// detail, and for access labels the underlying error too (the front
// matter's parse error says where to look).
func refusalReason(r *ingest.Refusal) string {
	reason := string(r.Reason)
	if r.Detail != "" {
		reason += ": " + r.Detail
	}
	switch {
	case r.Reason == ingest.ReasonAccess && r.Err != nil:
		reason += ": " + r.Err.Error()
	case r.Detail == "" && r.Err != nil:
		// A file the walk could not open or read has no detail but the
		// system's reason; the refusal's line names the file already.
		var pe *fs.PathError
		if errors.As(r.Err, &pe) {
			reason += ": " + pe.Err.Error()
		} else {
			reason += ": " + r.Err.Error()
		}
	}
	return reason
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
	// Flagged lists the passages of the documents indexed in this run
	// that read as instructions to a model (see package guard): they are
	// indexed, recorded in the document's metadata under
	// ingest.GuardMeta, and fenced and marked when given to a model.
	Flagged []Flag `json:"flagged,omitempty"`
	// Files says what the run did with each file of the folder, in walk
	// order (`fonte index --report`).
	Files []FileReport `json:"-"`
}

// Flag is one flagged passage of an indexed document.
type Flag struct {
	Path  string `json:"path"`  // the document id
	Chunk int    `json:"chunk"` // the chunk's position in the document; -1 for text dropped before chunking
	Kind  string `json:"kind"`  // a guard.Kind
	Text  string `json:"text"`  // the matched text, shortened
}

// FlaggedChunks counts the distinct chunks of the report's flags (text
// dropped before chunking not counted).
func (r *IndexReport) FlaggedChunks() int {
	seen := map[string]bool{}
	for _, f := range r.Flagged {
		if f.Chunk >= 0 {
			seen[fmt.Sprintf("%s#%d", f.Path, f.Chunk)] = true
		}
	}
	return len(seen)
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
//
// The run is charged against Settings.Limits for the documents it
// indexes (new and changed ones; unchanged files cost it nothing), and is
// refused whole with an *ingest.LimitError past one.
func (e *Engine) Index(ctx context.Context, root string, progress func(Progress)) (*IndexReport, error) {
	start := time.Now()
	rep := &IndexReport{}
	defer func() { rep.Duration = time.Since(start) }()
	var entries []ingest.Entry
	// The walk parses every file, unchanged ones too, so it is only
	// stopped by ctx; the limits are charged below, once a file is known
	// to be new or changed.
	walk := ingest.WalkOptions{Include: e.settings.Include, Exclude: e.settings.Exclude, FollowSymlinks: e.settings.FollowSymlinks,
		Budget: ingest.NewBudget(ctx, ingest.Limits{})}
	budget := ingest.NewBudget(ctx, e.settings.Limits)
	err := ingest.Walk(root, walk, func(en ingest.Entry) error {
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
		// Uploaded documents are not the folder's: a run over it keeps
		// them (a file of the same id replaces one below).
		ids := make([]string, 0, len(entries))
		for id, d := range r.base {
			if d.Source == UploadSource {
				r.seen[id] = true
				ids = append(ids, id)
			}
		}
		for _, en := range entries {
			ids = append(ids, en.Path)
		}
		if err := refuseEmptiedFolder(root, entries, r.base); err != nil {
			return err
		}
		if err := e.checkRulesMatch(root, ids); err != nil {
			return err
		}
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
			if en.Refusal == nil && en.Parsed != nil {
				if refusal := e.frontMatterRefusal(en.Path, en.Parsed); refusal != nil {
					en.Refusal = refusal
				}
			}
			switch {
			case en.Skipped != "":
				rep.Skipped++
				rep.Files = append(rep.Files, fileReport(en.Path, "skipped", en.Skipped, nil, 0, nil))
				report(en.Path)
				continue
			case en.Refusal != nil:
				reason := refusalReason(en.Refusal)
				// A link that now leads outside the folder is refused on
				// purpose: its earlier copy must go, not stay.
				if en.Refusal.Reason != ingest.ReasonSymlink {
					if r.has(en.Path) {
						r.seen[en.Path] = true // keep the last good version rather than lose it
						reason += " (the previously indexed version is kept)"
					} else if n := r.keepUnder(en.Path); n == 1 {
						reason += " (the document indexed under it is kept)"
					} else if n > 1 {
						reason += fmt.Sprintf(" (the %d documents indexed under it are kept)", n)
					}
				}
				rep.Refused = append(rep.Refused, Refused{Path: en.Path, Reason: reason, Field: en.Refusal.Field})
				rep.Files = append(rep.Files, fileReport(en.Path, "refused", reason, nil, 0, nil))
				report(en.Path)
				continue
			}
			p := en.Parsed
			p.Doc.Tags = e.withAccess(p.Doc.ID, p.Doc.Tags)
			if r.unchanged(p.Doc) {
				old := r.base[p.Doc.ID]
				flags, _ := ingest.DecodeFlags(old.Meta[ingest.GuardMeta])
				rep.Files = append(rep.Files, fileReport(en.Path, "unchanged", "", p, old.Chunks, flags))
				report(en.Path)
				continue
			}
			if err := chargeParsed(budget, p); err != nil {
				return err
			}
			chunks := e.chunk(p)
			if len(chunks) == 0 {
				// unchanged marked it seen: an earlier version stays, as a
				// refused file's does, and answers go on citing it.
				reason := "empty: no text to chunk"
				if r.has(p.Doc.ID) {
					reason += " (the previously indexed version is kept)"
				}
				rep.Refused = append(rep.Refused, Refused{Path: en.Path, Reason: reason})
				rep.Files = append(rep.Files, fileReport(en.Path, "refused", reason, p, 0, nil))
				report(en.Path)
				continue
			}
			if err := budget.AddChunks(en.Path, len(chunks)); err != nil {
				return err
			}
			flags := ingest.FlagChunks(p, chunks)
			rep.Files = append(rep.Files, fileReport(en.Path, "indexed", "", p, len(chunks), flags))
			if err := r.add(pendingDoc{doc: p.Doc, format: p.Format, chunks: chunks, flags: flags, ocr: p.OCR}); err != nil {
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
	tx      fonte.StoreTx
	base    map[string]fonte.DocInfo
	rep     *IndexReport
	seen    map[string]bool
	pending []pendingDoc
	// y gives way to searches (internal/yield) every docsPerYield
	// documents the run looks at: at a million documents each pass over
	// them (the base's map, the unchanged checks, the removals) is
	// seconds of work beside live readers, and the write's start was one
	// of the three moments of its slowest queries (BENCHMARKS.md, "A
	// million chunks, session 32: the stall series").
	y *yield.Every
	// ids are the base's document ids, sorted, for keepUnder; built on
	// its first call, as most runs refuse no folder.
	ids []string
}

// docsPerYield is how many documents a run looks at between offers to
// give way to searches: a map lookup or insert each, some hundreds of
// microseconds in all.
const docsPerYield = 1024

// has reports whether the base generation holds document id.
func (r *run) has(id string) bool {
	_, ok := r.base[id]
	return ok
}

// keepUnder marks as seen the documents of the index under the folder
// dir, which the walk could not read (its permissions, a mount not there
// yet): like a file that cannot be read, it must not take what was
// indexed from it away. It returns how many there are.
//
// Every refused file not in the index comes here too, so the base's ids
// are sorted once and the folder's are found by a binary search, not by
// a pass over the base per refused file.
func (r *run) keepUnder(dir string) int {
	if r.ids == nil {
		r.ids = make([]string, 0, len(r.base))
		for id := range r.base {
			r.ids = append(r.ids, id)
		}
		slices.Sort(r.ids)
	}
	prefix := dir + "/"
	n := 0
	for i, _ := slices.BinarySearch(r.ids, prefix); i < len(r.ids) && strings.HasPrefix(r.ids[i], prefix); i++ {
		if id := r.ids[i]; !r.seen[id] {
			r.seen[id] = true
			n++
		}
	}
	return n
}

// unchanged marks doc as seen and reports whether the index already holds
// it with the same content hash (so it is neither re-chunked nor
// re-embedded).
func (r *run) unchanged(doc fonte.Document) bool {
	r.y.Step(1)
	r.seen[doc.ID] = true
	// Equal tags too: a changed access rule must reach the stored copy.
	if old, ok := r.base[doc.ID]; ok && old.SHA256 == doc.SHA256 && slices.Equal(old.Tags, doc.Tags) {
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
	err := r.e.flush(r, r.pending)
	r.pending = r.pending[:0]
	return err
}

// update runs fill in one transaction, then removes the documents it did
// not see and completes the report from the committed state.
func (e *Engine) update(ctx context.Context, rep *IndexReport, fill func(r *run) error) (*IndexReport, error) {
	start := time.Now()
	defer limitHeap(e.settings.Memory)()
	if e.local != nil {
		e.local.Preload()
	}
	err := e.store.Update(ctx, func(tx fonte.StoreTx) error {
		infos, err := tx.Base(ctx)
		if err != nil {
			return err
		}
		r := &run{e: e, ctx: ctx, tx: tx, base: make(map[string]fonte.DocInfo, len(infos)), rep: rep, seen: map[string]bool{},
			y: yield.NewEvery(docsPerYield)}
		for _, d := range infos {
			r.base[d.ID] = d
			r.y.Step(1)
		}
		slog.Debug("the write read its base", "documents", len(infos))
		if err := fill(r); err != nil {
			return err
		}
		if err := e.flush(r, r.pending); err != nil {
			return err
		}
		for _, d := range infos {
			r.y.Step(1)
			if !r.seen[d.ID] {
				if _, err := tx.Delete(ctx, d.ID); err != nil {
					return err
				}
				rep.Removed = append(rep.Removed, d.ID)
			}
		}
		slog.Debug("the write put its documents", "indexed", len(rep.Indexed), "removed", len(rep.Removed))
		return nil
	})
	if err != nil {
		return nil, err
	}
	slog.Debug("the write committed", "seconds", time.Since(start).Seconds())
	st, err := e.store.Status(ctx)
	if err != nil {
		return nil, err
	}
	rep.Chunks, rep.Generation = st.Chunks, st.Generation
	if e.local != nil {
		e.settle()
		slog.Debug("the write's view is built", "seconds", time.Since(start).Seconds())
		if err := e.local.PersistDerived(ctx, false); err != nil {
			slog.Warn("the index is committed, but its derived indexes were not saved; the next open rebuilds them", "err", err)
		}
		slog.Debug("the write persisted its derived indexes", "seconds", time.Since(start).Seconds())
	}
	// A file gone from the folder is a deletion: its text leaves every
	// byte of the store (the previous generation's files, dead rows), as
	// with Delete, not only the current generation.
	if len(rep.Removed) > 0 {
		if err := e.store.Purge(ctx); err != nil {
			return nil, fmt.Errorf("the run is committed and %d removed documents are gone from the index, but purging their leftover bytes failed: %w", len(rep.Removed), err)
		}
	}
	rep.Duration += time.Since(start)
	sort.Strings(rep.Indexed)
	return rep, nil
}

type pendingDoc struct {
	doc    fonte.Document
	format string
	chunks []fonte.Chunk
	// flags are the document's flagged passages (ingest.FlagChunks); nil
	// means not computed, and flush flags the chunks' text.
	flags []ingest.Flag
	ocr   []ingest.OCRPage // pages read by OCR, kept under ingest.OCRMeta
}

// flush embeds what the pending documents need and puts them in the
// run's transaction. Vectors are normalised to unit length, so the dot
// product the embedded store ranks by is the cosine similarity the
// database stores rank by.
func (e *Engine) flush(r *run, docs []pendingDoc) error {
	ctx := r.ctx
	type ref struct{ doc, chunk int }
	var all []string
	var allRefs []ref
	vecs := make([][][]float32, len(docs))
	hashes := make([][]string, len(docs))
	texts := make([][]string, len(docs))
	for i, d := range docs {
		vecs[i] = make([][]float32, len(d.chunks))
		hashes[i] = make([]string, len(d.chunks))
		texts[i] = make([]string, len(d.chunks))
		for j, c := range d.chunks {
			text := chunk.Enriched(c)
			sum := sha256.Sum256([]byte(text))
			hashes[i][j] = hex.EncodeToString(sum[:])
			texts[i][j] = text
			all = append(all, hashes[i][j])
			allRefs = append(allRefs, ref{i, j})
			r.y.Step(1)
		}
	}
	if len(all) == 0 {
		return nil
	}
	cached, err := r.tx.Vectors(ctx, all)
	if err != nil {
		return err
	}
	var missing []string
	var refs []ref
	for k, v := range cached {
		rf := allRefs[k]
		if v != nil {
			vecs[rf.doc][rf.chunk] = v
			continue
		}
		missing = append(missing, texts[rf.doc][rf.chunk])
		refs = append(refs, rf)
	}
	for lo := 0; lo < len(missing); lo += embedBatch {
		if err := ctx.Err(); err != nil {
			return err // the caller went away: a large document stops between batches
		}
		hi := min(lo+embedBatch, len(missing))
		out, err := e.settings.Embedder.Embed(ctx, missing[lo:hi])
		if err != nil {
			return fmt.Errorf("embedding with %s: %w", e.settings.Embedder.Model(), err)
		}
		if len(out) != hi-lo {
			return fmt.Errorf("embedding with %s: %d vectors for %d texts", e.settings.Embedder.Model(), len(out), hi-lo)
		}
		for k, v := range out {
			rf := refs[lo+k]
			vecs[rf.doc][rf.chunk] = normalised(v)
		}
		r.rep.ChunksEmbedded += hi - lo
		yield.ToSearches() // a batch's embeddings are milliseconds
	}
	for i, d := range docs {
		// A document's flagging (every guard rule over its chunks) and
		// put: tens of microseconds to a millisecond, and 20 ms and more
		// without a yield under load in the 1M traces (session 33).
		yield.ToSearches()
		doc := d.doc
		meta := map[string]string{}
		if d.format != "" {
			meta["format"] = d.format
		}
		flags := d.flags
		if flags == nil {
			flags = ingest.FlagChunks(nil, d.chunks)
		}
		if g := ingest.EncodeFlags(flags); g != "" {
			meta[ingest.GuardMeta] = g
		}
		if o := ingest.EncodeOCR(d.ocr); o != "" {
			meta[ingest.OCRMeta] = o
		}
		for _, f := range flags {
			r.rep.Flagged = append(r.rep.Flagged, Flag{Path: doc.ID, Chunk: f.Chunk, Kind: string(f.Kind), Text: f.Text})
		}
		if len(meta) == 0 {
			meta = nil
		}
		rec := fonte.Record{Doc: doc, Chunks: d.chunks, TextHashes: hashes[i], Vectors: vecs[i], Meta: meta}
		if e.local == nil {
			// The database runs the lexical leg over the terms fonte's
			// analysis made; the embedded store derives them itself.
			rec.Terms = make([][]string, len(d.chunks))
			for j, c := range d.chunks {
				rec.Terms[j] = e.an.Terms(c, doc.Language)
			}
		}
		if err := r.tx.Put(ctx, rec); err != nil {
			return fmt.Errorf("%s: %w", doc.ID, err)
		}
		r.rep.Indexed = append(r.rep.Indexed, doc.ID)
	}
	return nil
}

// normalised returns v scaled to unit length (v itself when it already
// is, or is zero).
func normalised(v []float32) []float32 {
	var ss float64
	for _, x := range v {
		ss += float64(x) * float64(x)
	}
	if ss == 0 || math.Abs(ss-1) < 1e-6 {
		return v
	}
	inv := 1 / math.Sqrt(ss)
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(float64(x) * inv)
	}
	return out
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
// ingest.Match glob) one of patterns, then purges the store, so their
// text, terms and vectors leave no bytes behind (older generations'
// files, dead rows, orphaned keys).
func (e *Engine) Delete(ctx context.Context, patterns []string) ([]string, error) {
	var deleted []string
	defer limitHeap(e.settings.Memory)()
	if e.local != nil {
		e.local.Preload()
	}
	err := e.store.Update(ctx, func(tx fonte.StoreTx) error {
		deleted = deleted[:0]
		infos, err := tx.Base(ctx)
		if err != nil {
			return err
		}
		for _, d := range infos {
			for _, p := range patterns {
				if d.ID == p || ingest.Match(p, d.ID) || (path.Clean(p) == d.ID) {
					ok, err := tx.Delete(ctx, d.ID)
					if err != nil {
						return err
					}
					if ok {
						deleted = append(deleted, d.ID)
					}
					break
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := e.store.Purge(ctx); err != nil {
		return deleted, err
	}
	e.settle()
	return deleted, nil
}

// settle builds the embedded store's search index of the generation just
// committed before the write returns, so the reads that follow it see
// the write (readers never wait for a build; they are served the previous
// generation while one runs).
func (e *Engine) settle() {
	if e.local == nil {
		return
	}
	if _, err := e.local.ViewLatest(); err != nil {
		slog.Warn("the index is committed, but its search index could not be built; the next search retries", "err", err)
	}
}

// refuseEmptiedFolder refuses a run over a folder that holds no file
// where the index holds documents read from it: an unmounted share or a
// mistyped path would otherwise remove, and purge, every one of them.
// Removing them all is a deletion the operator asks for by name (fonte
// delete '**').
func refuseEmptiedFolder(root string, entries []ingest.Entry, base map[string]fonte.DocInfo) error {
	if len(entries) > 0 {
		return nil
	}
	n := 0
	for _, d := range base {
		if d.Source != UploadSource {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	return fmt.Errorf("%s holds no file to index, and the index holds %d documents read from a folder: indexing it would remove them all (an unmounted share, an emptied or wrong folder?); nothing was changed. To remove them, run fonte delete '**'", root, n)
}
