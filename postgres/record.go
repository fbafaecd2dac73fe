package postgres

import (
	"fmt"

	"github.com/fonte-rag/fonte"
)

// validateRecord checks r the way every store does (an ID, one vector of
// dimension dim per chunk with finite entries, increasing positions, one
// term list per chunk, chunks of this document) and what PostgreSQL
// needs besides: text that is valid UTF-8 without NUL bytes, which its
// text type cannot hold. Errors wrap fonte.ErrInvalidRecord and name the
// document and chunk.
func validateRecord(r fonte.Record, dim int) error {
	if err := r.Check(dim, true); err != nil {
		return err
	}
	id := r.Doc.ID
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: document %q: %s", fonte.ErrInvalidRecord, id, fmt.Sprintf(format, args...))
	}
	if !storable(id) {
		return fmt.Errorf("%w: document ID %q is not valid UTF-8 or holds a NUL byte, which PostgreSQL's text cannot store", fonte.ErrInvalidRecord, id)
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
