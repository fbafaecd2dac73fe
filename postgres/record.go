package postgres

import (
	"fmt"
	"math"

	"github.com/fonte-rag/fonte"
)

// validateRecord checks r the way every store does (an ID, one vector of
// dimension dim per chunk with finite entries, increasing positions, one
// term list per chunk, chunks of this document) and what PostgreSQL
// needs besides: text that is valid UTF-8 without NUL bytes, which its
// text type cannot hold. Errors wrap fonte.ErrInvalidRecord and name the
// document and chunk.
func validateRecord(r fonte.Record, dim int) error {
	id := r.Doc.ID
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: document %q: %s", fonte.ErrInvalidRecord, id, fmt.Sprintf(format, args...))
	}
	if id == "" {
		return fmt.Errorf("%w: a document needs an ID", fonte.ErrInvalidRecord)
	}
	if !storable(id) {
		return fmt.Errorf("%w: document ID %q is not valid UTF-8 or holds a NUL byte, which PostgreSQL's text cannot store", fonte.ErrInvalidRecord, id)
	}
	n := len(r.Chunks)
	switch {
	case len(r.Vectors) != n:
		return bad("%d chunks but %d vectors", n, len(r.Vectors))
	case r.TextHashes != nil && len(r.TextHashes) != n:
		return bad("%d chunks but %d text hashes", n, len(r.TextHashes))
	case len(r.Terms) != n:
		return bad("%d chunks but %d term lists; the postgres store indexes each chunk's Terms", n, len(r.Terms))
	}
	for _, f := range [...]struct{ name, v string }{
		{"title", r.Doc.Title}, {"source", r.Doc.Source}, {"language", r.Doc.Language}, {"sha256", r.Doc.SHA256}, {"text", r.Doc.Text},
	} {
		if !storable(f.v) {
			return bad("its %s is not valid UTF-8 or holds a NUL byte, which PostgreSQL's text cannot store", f.name)
		}
	}
	for _, t := range r.Doc.Tags {
		if !storable(t) {
			return bad("tag %q is not valid UTF-8 or holds a NUL byte", t)
		}
	}
	for k, v := range r.Meta {
		if !storable(k) || !storable(v) {
			return bad("metadata %q is not valid UTF-8 or holds a NUL byte", k)
		}
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
		ok := storable(c.ID) && storable(c.Title) && storable(c.Text)
		for _, h := range c.Headings {
			ok = ok && storable(h)
		}
		if r.TextHashes != nil {
			ok = ok && storable(r.TextHashes[i])
		}
		if !ok {
			return bad("chunk %d (%q) has text that is not valid UTF-8 or holds a NUL byte", i, c.ID)
		}
		for _, t := range r.Terms[i] {
			if !storable(t) {
				return bad("chunk %d (%q) has the term %q, which is not valid UTF-8 or holds a NUL byte", i, c.ID, t)
			}
		}
	}
	return nil
}
