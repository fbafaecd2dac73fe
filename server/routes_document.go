package server

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/fonte-rag/fonte"
)

// DocumentResponse is what GET /v1/documents/{id} returns: one document
// whole, with its chunks in order, for a reader's document view. Access
// labels are left out of its tags.
type DocumentResponse struct {
	ID       string          `json:"id"`
	Title    string          `json:"title"`
	Language string          `json:"language"`
	Source   string          `json:"source"`
	Updated  time.Time       `json:"updated"`
	SHA256   string          `json:"sha256"`
	Tags     []string        `json:"tags"`
	Text     string          `json:"text"`
	Chunks   []DocumentChunk `json:"chunks"`
}

// DocumentChunk is one chunk of a DocumentResponse; Start and End are
// byte offsets into the document's text.
type DocumentChunk struct {
	Chunk    string   `json:"chunk"`
	Position int      `json:"position"`
	Headings []string `json:"headings"`
	Page     int      `json:"page"`
	Start    int      `json:"start"`
	End      int      `json:"end"`
	Text     string   `json:"text"`
}

// handleDocument returns one document by its exact id. A document the
// caller may not read is the same 404 as one that does not exist, so a
// token learns nothing about documents beyond its labels.
func (s *Server) handleDocument(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if id == "" {
		writeProblem(w, *fieldProblem("id", "the document id is required"))
		return
	}
	c, ok := s.collection(w, r)
	if !ok {
		return
	}
	// What a token may not read is not there for it, and is never loaded.
	rec, err := c.Engine.ReadableDocument(r.Context(), id, grantOf(r).filter())
	if errors.Is(err, fonte.ErrNotFound) {
		writeProblem(w, newProblem(http.StatusNotFound, "not-found", "no indexed document has id "+quoteHost(id), "id"))
		return
	}
	if err != nil {
		s.internal(w, r, err)
		return
	}
	d := rec.Doc
	out := DocumentResponse{ID: d.ID, Title: d.Title, Language: d.Language, Source: d.Source, Updated: d.Updated,
		SHA256: d.SHA256, Tags: []string{}, Text: d.Text, Chunks: make([]DocumentChunk, 0, len(rec.Chunks))}
	for _, t := range d.Tags {
		if !strings.HasPrefix(t, fonte.AccessTagPrefix) {
			out.Tags = append(out.Tags, t)
		}
	}
	for _, ch := range rec.Chunks {
		headings := ch.Headings
		if headings == nil {
			headings = []string{}
		}
		out.Chunks = append(out.Chunks, DocumentChunk{Chunk: ch.ID, Position: ch.Position, Headings: headings,
			Page: ch.Page, Start: ch.Start, End: ch.End, Text: ch.Text})
	}
	writeJSON(w, http.StatusOK, out)
	auditRead(r, c.Name, id, d.ID)
}
