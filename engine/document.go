package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/fonte-rag/fonte"
)

// Document returns one indexed document with its chunks in order, so a
// caller holding a hit can read the passages around it. The error wraps
// fonte.ErrNotFound when the index does not hold id.
func (e *Engine) Document(ctx context.Context, id string) (fonte.Record, error) {
	return e.store.Document(ctx, id)
}

// ReadableDocument is Document for a reader that access restricts: a
// document it may not read is fonte.ErrNotFound, as a missing one is. The
// decision is made from the document's tags before its text and chunks
// are loaded, so a hidden document costs what a missing one does and its
// size cannot be timed.
func (e *Engine) ReadableDocument(ctx context.Context, id string, access fonte.Filter) (fonte.Record, error) {
	notFound := fmt.Errorf("document %q: %w", id, fonte.ErrNotFound)
	if access.Restricted {
		info, ok, err := e.docInfo(ctx, id)
		if err != nil {
			return fonte.Record{}, err
		}
		if !ok || !access.Readable(info.Tags) {
			return fonte.Record{}, notFound
		}
	}
	r, err := e.store.Document(ctx, id)
	if err == nil && !access.Readable(r.Doc.Tags) {
		// Re-labelled between the check and the load.
		return fonte.Record{}, notFound
	}
	return r, err
}

// docInfo describes document id without loading it: from the embedded
// store's snapshot, else from the store's list of documents (sorted by
// id), which costs the same whether id is there or not.
func (e *Engine) docInfo(ctx context.Context, id string) (fonte.DocInfo, bool, error) {
	if e.local != nil {
		snap, err := e.local.Snapshot()
		if err != nil {
			return fonte.DocInfo{}, false, err
		}
		info, ok := snap.Info(id)
		return info, ok, nil
	}
	docs, err := e.store.Documents(ctx)
	if err != nil {
		return fonte.DocInfo{}, false, err
	}
	i, ok := slices.BinarySearchFunc(docs, id, func(d fonte.DocInfo, id string) int { return strings.Compare(d.ID, id) })
	if !ok {
		return fonte.DocInfo{}, false, nil
	}
	return docs[i], true, nil
}
