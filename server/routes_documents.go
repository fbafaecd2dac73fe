package server

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"time"

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

// readableStatus is the collection's status as the caller g may see it:
// documents it may not read are left out of the list and the counts, and
// a caller without admin scope sees neither where the store is nor its
// generation and commit time (a commit it cannot see would move them).
func readableStatus(ctx context.Context, c *Collection, g grant) (*engine.Status, error) {
	st, err := c.Engine.Status(ctx)
	if err != nil {
		return nil, err
	}
	if st.Docs == nil {
		st.Docs = []engine.DocStatus{}
	}
	access := g.filter()
	if !access.Restricted {
		return st, nil
	}
	st.Labels = nil // admins only
	// A replica's lag moves with commits the reader may not see, as the
	// generation does.
	st.Dir, st.Generation, st.Committed, st.Replica = "", 0, time.Time{}, nil
	infos, err := c.Engine.Store().Documents(ctx)
	if err != nil {
		return nil, err
	}
	readable := map[string]bool{}
	for _, d := range infos {
		if access.Readable(d.Tags) {
			readable[d.ID] = true
		}
	}
	docs := st.Docs[:0:0]
	st.Chunks = 0
	for _, d := range st.Docs {
		if readable[d.ID] {
			docs = append(docs, d)
			st.Chunks += d.Chunks
		}
	}
	st.Docs, st.Documents = docs, len(docs)
	return st, nil
}

func (s *Server) handleDocuments(w http.ResponseWriter, r *http.Request) {
	c, ok := s.collection(w, r)
	if !ok {
		return
	}
	st, err := readableStatus(r.Context(), c, grantOf(r))
	if err != nil {
		s.internal(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, DocumentsResponse{Documents: st.Docs})
	auditListed(r, c.Name, st.Docs)
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
	c, ok := s.collection(w, r)
	if !ok {
		return
	}
	done := s.beginWrite(c)
	deleted, err := c.Engine.Delete(r.Context(), []string{escapeGlob(id)})
	done()
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

// beginWrite takes the collection's writer turn and counts the write in
// flight until the returned func is called.
func (s *Server) beginWrite(c *Collection) func() {
	s.writes.Add(1)
	c.write.Lock()
	return func() {
		c.write.Unlock()
		s.writes.Done()
	}
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

// StatusResponse is what GET /v1/status returns: the index's status and,
// when the collection's folder is watched, the last re-index run.
type StatusResponse struct {
	*engine.Status
	Collection string `json:"collection"`
	Watch      any    `json:"watch,omitempty"`
}

func (s *Server) handleStatus(w http.ResponseWriter, r *http.Request) {
	c, ok := s.collection(w, r)
	if !ok {
		return
	}
	st, err := readableStatus(r.Context(), c, grantOf(r))
	if err != nil {
		s.internal(w, r, err)
		return
	}
	resp := StatusResponse{Status: st, Collection: c.Name}
	s.reg.mu.Lock()
	watch := c.watch
	s.reg.mu.Unlock()
	// The watcher's run names the folder and every document it indexed,
	// hidden ones included: an operator's view.
	if watch != nil && grantOf(r).scope == ScopeAdmin {
		resp.Watch = watch()
	}
	writeJSON(w, http.StatusOK, resp)
}

// Health is the body of /healthz and /readyz.
type Health struct {
	Status string `json:"status"`
}

// handleHealth says the process answers; it touches nothing else.
func (s *Server) handleHealth(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, Health{Status: "ok"})
}

// handleReady says the stores answer: a status read of every open
// collection succeeds.
func (s *Server) handleReady(w http.ResponseWriter, r *http.Request) {
	for _, c := range s.reg.opened() {
		if _, err := c.Engine.Status(r.Context()); err != nil {
			s.log.Error("readyz: a store does not answer", "collection", c.Name, "err", err)
			writeProblem(w, newProblem(http.StatusServiceUnavailable, "not-ready", "the store of collection "+c.Name+" does not answer", ""))
			return
		}
	}
	writeJSON(w, http.StatusOK, Health{Status: "ready"})
}
