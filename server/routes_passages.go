package server

import (
	"errors"
	"net/http"
	"strings"

	"github.com/fonte-rag/fonte"
)

// PassageResponse is what GET /v1/passages/{chunk} returns: the passage as
// the index holds it now, and whether the document it came from changed
// since the version a client's citation names.
type PassageResponse struct {
	Chunk     string   `json:"chunk"`
	Doc       string   `json:"doc"`
	DocSHA256 string   `json:"doc_sha256"` // the document's content hash now
	Headings  []string `json:"headings"`
	Page      int      `json:"page"`
	Start     int      `json:"start"`
	End       int      `json:"end"`
	Text      string   `json:"text"`
	// Stale is true when the request named a document hash
	// (?doc_sha256=) other than the current one: the document was
	// re-indexed with other content since the citation was made, so the
	// quoted span may no longer say the same.
	Stale bool `json:"stale"`
}

// handlePassage looks a cited passage up by its chunk id. A chunk id is
// "<document id>#<position>"; a document or passage the index no longer
// holds is a 404 problem.
func (s *Server) handlePassage(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	cut := strings.LastIndexByte(id, '#')
	if cut <= 0 {
		writeProblem(w, *fieldProblem("id", "a passage id is a chunk id, \"<document id>#<position>\", as citations carry it"))
		return
	}
	c, ok := s.collection(w, r)
	if !ok {
		return
	}
	// What a token may not read is not there for it, and is never loaded.
	rec, err := c.Engine.ReadableDocument(r.Context(), id[:cut], grantOf(r).filter())
	if errors.Is(err, fonte.ErrNotFound) {
		writeProblem(w, newProblem(http.StatusNotFound, "not-found", "no indexed document has id "+quoteHost(id[:cut]), "id"))
		return
	}
	if err != nil {
		s.internal(w, r, err)
		return
	}
	for _, c := range rec.Chunks {
		if c.ID != id {
			continue
		}
		want := r.URL.Query().Get("doc_sha256")
		headings := c.Headings
		if headings == nil {
			headings = []string{}
		}
		writeJSON(w, http.StatusOK, PassageResponse{Chunk: c.ID, Doc: rec.Doc.ID, DocSHA256: rec.Doc.SHA256, Headings: headings,
			Page: c.Page, Start: c.Start, End: c.End, Text: c.Text, Stale: want != "" && want != rec.Doc.SHA256})
		auditRead(r, collectionName(r), id, rec.Doc.ID)
		return
	}
	writeProblem(w, newProblem(http.StatusNotFound, "not-found", "the document no longer has passage "+quoteHost(id), "id"))
}
