package server

import (
	"net/http"
	"slices"
	"strings"

	"github.com/fonte-rag/fonte/engine"
)

// DocumentsResponse is what GET /v1/documents returns.
type DocumentsResponse struct {
	Documents []engine.DocStatus `json:"documents"`
}

// DeleteResponse is what DELETE /v1/documents/{id} returns.
type DeleteResponse struct {
	Deleted []string `json:"deleted"`
}

func (s *Server) handleDocuments(w http.ResponseWriter, r *http.Request) {
	st, err := s.engine.Status(r.Context())
	if err != nil {
		s.internal(w, r, err)
		return
	}
	docs := st.Docs
	if docs == nil {
		docs = []engine.DocStatus{}
	}
	writeJSON(w, http.StatusOK, DocumentsResponse{Documents: docs})
}

// handleDelete deletes one document by its exact id and purges the store,
// as `fonte delete` does. Glob characters in the id are escaped, so an id
// can never widen into a pattern.
func (s *Server) handleDelete(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if id == "" {
		writeProblem(w, *fieldProblem("id", "the document id is required"))
		return
	}
	deleted, err := s.engine.Delete(r.Context(), []string{escapeGlob(id)})
	if err != nil {
		s.internal(w, r, err)
		return
	}
	if !slices.Contains(deleted, id) {
		writeProblem(w, newProblem(http.StatusNotFound, "not-found", "no indexed document has id "+quoteHost(id), "id"))
		return
	}
	writeJSON(w, http.StatusOK, DeleteResponse{Deleted: deleted})
}

// escapeGlob makes id match only itself under path.Match's syntax.
func escapeGlob(id string) string {
	var b strings.Builder
	for _, c := range id {
		if strings.ContainsRune(`*?[]\`, c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func (s *Server) handleStatus(w http.ResponseWriter, r *http.Request) {
	st, err := s.engine.Status(r.Context())
	if err != nil {
		s.internal(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, st)
}

// Health is the body of /healthz and /readyz.
type Health struct {
	Status string `json:"status"`
}

// handleHealth says the process answers; it touches nothing else.
func (s *Server) handleHealth(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, Health{Status: "ok"})
}

// handleReady says the store answers: a status read succeeds.
func (s *Server) handleReady(w http.ResponseWriter, r *http.Request) {
	if _, err := s.engine.Status(r.Context()); err != nil {
		s.log.Error("readyz: the store does not answer", "err", err)
		writeProblem(w, newProblem(http.StatusServiceUnavailable, "not-ready", "the store does not answer", ""))
		return
	}
	writeJSON(w, http.StatusOK, Health{Status: "ready"})
}
