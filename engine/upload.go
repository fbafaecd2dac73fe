package engine

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/ingest"
)

// Upload is one file given to Add: the document id it is indexed under
// (a slash-separated relative path, as a folder's files are named) and
// its bytes.
type Upload struct {
	ID      string
	Data    []byte
	Updated time.Time // zero: the time of the upload
}

// UploadSource is the Source of an uploaded document. Index runs over a
// folder leave such documents alone (they are not the folder's), unless
// the folder holds a file of the same id, which then replaces it.
const UploadSource = "upload"

// CleanUploadID checks and normalises an uploaded file's id: a relative
// slash path without "..", empty or hidden parts (a hidden file is never
// indexed from a folder either).
func CleanUploadID(id string) (string, error) {
	id = strings.ReplaceAll(id, `\`, "/")
	if id == "" || strings.HasPrefix(id, "/") || strings.ContainsRune(id, 0) {
		return "", fmt.Errorf("file name %q: want a relative path", id)
	}
	for _, part := range strings.Split(id, "/") {
		if part == "" || part == "." || part == ".." || strings.HasPrefix(part, ".") {
			return "", fmt.Errorf("file name %q: empty, dot, '..' or hidden parts are not allowed", id)
		}
	}
	return path.Clean(id), nil
}

// Add ingests uploaded files and indexes the ones that pass, with every
// document already indexed kept, in one atomic commit: either all the
// accepted files become searchable together or, on failure, none. Files
// that fail to parse or to pass the quality check are refused with their
// reason (Refused) and do not stop the others; an upload of a document
// id already indexed replaces it (unchanged bytes are left alone). A file
// whose access labels cannot be read refuses the whole upload with a
// *LabelError, before anything is committed: indexed without them it
// would be public, and the uploader fixes it and sends the files again.
// Folder rules (Settings.Access) label uploads by their id as they label
// a folder's files.
//
// The upload is one run of Settings.Limits: all its files together are
// charged as they are parsed and chunked, file by file, and the first
// limit crossed ends it with an *ingest.LimitError, nothing committed. So does ctx
// ending (a client that went away): parsing, chunking and embedding stop
// at the next file, part or batch.
func (e *Engine) Add(ctx context.Context, files []Upload, progress func(Progress)) (*IndexReport, error) {
	start := time.Now()
	rep := &IndexReport{}
	defer func() { rep.Duration = time.Since(start) }()
	type parsed struct {
		id     string
		p      *ingest.Parsed
		chunks []fonte.Chunk
	}
	var ok []parsed
	labelErr := &LabelError{}
	now := time.Now()
	budget := ingest.NewBudget(ctx, e.settings.Limits)
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		id, err := CleanUploadID(f.ID)
		if err != nil {
			rep.Refused = append(rep.Refused, Refused{Path: f.ID, Reason: err.Error()})
			continue
		}
		if ingest.ParserFor(id) == nil {
			rep.Refused = append(rep.Refused, Refused{Path: id, Reason: fmt.Sprintf("unsupported: no parser for extension %q", path.Ext(id))})
			continue
		}
		p, err := ingest.ParseWithin(budget, id, f.Data)
		if err != nil && ingest.Stops(err) {
			return nil, err
		}
		var r *ingest.Refusal
		if err == nil {
			r = e.frontMatterRefusal(id, p)
		} else if !errors.As(err, &r) {
			return nil, err
		}
		if r != nil {
			rep.Refused = append(rep.Refused, Refused{Path: id, Reason: refusalReason(r), Field: r.Field})
			if r.Reason == ingest.ReasonAccess {
				labelErr.Refused = append(labelErr.Refused, rep.Refused[len(rep.Refused)-1])
			}
			continue
		}
		p.Doc.ID, p.Doc.Source = id, UploadSource
		p.Doc.Updated = f.Updated
		if p.Doc.Updated.IsZero() {
			p.Doc.Updated = now
		}
		p.Doc.Tags = e.withAccess(id, p.Doc.Tags)
		// Chunked here, file by file, so that a run over its chunk limit
		// stops before the next file is even parsed.
		chunks := e.chunk(p)
		if len(chunks) == 0 {
			rep.Refused = append(rep.Refused, Refused{Path: id, Reason: "empty: no text to chunk"})
			continue
		}
		if err := budget.AddChunks(id, len(chunks)); err != nil {
			return nil, err
		}
		ok = append(ok, parsed{id, p, chunks})
	}
	if len(labelErr.Refused) > 0 {
		return nil, labelErr
	}
	if len(ok) == 0 {
		// Nothing to commit: the report still tells the collection as it
		// stands, not a generation 0 that it never was at.
		st, err := e.store.Status(ctx)
		if err != nil {
			return nil, err
		}
		rep.Chunks, rep.Generation = st.Chunks, st.Generation
		return rep, nil
	}
	return e.update(ctx, rep, func(r *run) error {
		for id := range r.base {
			r.seen[id] = true // an upload adds; it never removes
		}
		for i, f := range ok {
			if err := ctx.Err(); err != nil {
				return err
			}
			if progress != nil {
				progress(Progress{Files: i + 1, Total: len(ok), ChunksEmbedded: rep.ChunksEmbedded, Path: f.id})
			}
			if r.unchanged(f.p.Doc) {
				continue
			}
			if err := r.add(pendingDoc{doc: f.p.Doc, format: f.p.Format, chunks: f.chunks, flags: ingest.FlagChunks(f.p, f.chunks), ocr: f.p.OCR}); err != nil {
				return err
			}
		}
		return nil
	})
}
