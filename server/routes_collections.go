package server

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/fonte-rag/fonte/internal/redact"
)

// CollectionsResponse is what GET /v1/collections returns: the
// collections the caller's token may use.
type CollectionsResponse struct {
	Collections []CollectionInfo `json:"collections"`
	// Formats are the file formats an upload may hold, the same for
	// every collection.
	Formats []Format `json:"formats"`
}

func (s *Server) handleCollections(w http.ResponseWriter, r *http.Request) {
	out := []CollectionInfo{}
	for _, name := range s.reg.names() {
		g, ok := grantFor(r, ScopeRead, name)
		if !ok {
			continue
		}
		c, err := s.reg.get(r.Context(), name)
		if err != nil {
			s.internal(w, r, err)
			return
		}
		st, err := readableStatus(r.Context(), c, g)
		if err != nil {
			s.internal(w, r, err)
			return
		}
		info := CollectionInfo{Name: name, Store: st.Dir, Documents: st.Documents,
			Chunks: st.Chunks, Chunker: st.Chunker, Embedder: st.Embedder, Retriever: string(c.Engine.Settings().Mode), Committed: st.Committed}
		if g.scope == ScopeAdmin {
			info.Folder = c.Config.Folder // a path on the server
		}
		out = append(out, info)
	}
	writeJSON(w, http.StatusOK, CollectionsResponse{Collections: out, Formats: ReadableFormats})
}

// CreateCollectionRequest is the body of POST /v1/collections. The
// chunker settings are recorded by the new index; the store is a folder
// under the server's data folder.
type CreateCollectionRequest struct {
	Name      string `json:"name"`
	Chunker   string `json:"chunker"`
	ChunkSize int    `json:"chunk_size"`
	Overlap   int    `json:"overlap"`
	// Embedder is the collection's embedding model, e.g.
	// "ollama:nomic-embed-text", from the server's configured model
	// servers (default: the server's embedder).
	Embedder string `json:"embedder"`
}

func (s *Server) handleCreateCollection(w http.ResponseWriter, r *http.Request) {
	var req CreateCollectionRequest
	if p := decode(w, r, &req); p != nil {
		writeProblem(w, *p)
		return
	}
	if err := ValidCollectionName(req.Name); err != nil {
		writeProblem(w, *fieldProblem("name", err.Error()))
		return
	}
	if _, ok := grantFor(r, ScopeAdmin, req.Name); !ok {
		writeProblem(w, newProblem(http.StatusForbidden, "collection-forbidden",
			fmt.Sprintf("this token may not use collection %q", req.Name), "Authorization"))
		return
	}
	switch req.Chunker {
	case "", "structure", "window":
	default:
		writeProblem(w, *fieldProblem("chunker", "chunker must be structure or window"))
		return
	}
	if req.ChunkSize < 0 || req.ChunkSize > 4096 {
		writeProblem(w, *fieldProblem("chunk_size", "chunk_size must be between 1 and 4096 words (0: the default)"))
		return
	}
	if req.Overlap < 0 || (req.ChunkSize > 0 && req.Overlap >= req.ChunkSize) {
		writeProblem(w, *fieldProblem("overlap", "overlap must be at least 0 and below chunk_size"))
		return
	}
	c, err := s.reg.create(r.Context(), req.Name, CollectionConfig{Chunker: req.Chunker, ChunkSize: req.ChunkSize, Overlap: req.Overlap, Embedder: req.Embedder})
	if errors.Is(err, errCollectionExists) {
		writeProblem(w, newProblem(http.StatusConflict, "collection-exists", fmt.Sprintf("collection %q exists", req.Name), "name"))
		return
	}
	if err != nil {
		if errors.Is(err, errEmbedder) {
			writeProblem(w, *fieldProblem("embedder", redact.Secrets(err.Error()))) // it may quote the model server's URL
			return
		}
		if strings.Contains(err.Error(), "no data folder") {
			writeProblem(w, newProblem(http.StatusConflict, "no-data-folder", err.Error(), ""))
			return
		}
		s.internal(w, r, err)
		return
	}
	st, err := c.Engine.Status(r.Context())
	if err != nil {
		s.internal(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, CollectionInfo{Name: c.Name, Store: st.Dir, Chunker: st.Chunker, Embedder: st.Embedder,
		Retriever: string(c.Engine.Settings().Mode), Committed: st.Committed})
}
