package server

import (
	"net/http"
	"strings"

	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/retrieve"
	"github.com/fonte-rag/fonte/wire"
)

// Filters narrow a search to documents by id prefix and tags.
type Filters struct {
	Prefixes []string `json:"prefixes"`
	Tags     []string `json:"tags"`
}

// SearchRequest is the body of POST /v1/search.
type SearchRequest struct {
	Query     string   `json:"query"`
	K         *int     `json:"k"`
	Filters   *Filters `json:"filters"`
	Retriever string   `json:"retriever"`
	// Trace adds each stage's time, each leg's candidates and the fused
	// ranking to the result.
	Trace bool `json:"trace"`
}

// SearchResponse is what POST /v1/search returns: the same fields as
// `fonte search --json`.
type SearchResponse struct {
	Query string        `json:"query"`
	Hits  []wire.Hit    `json:"hits"`
	Trace *engine.Trace `json:"trace,omitempty"`
}

func (s *Server) handleSearch(w http.ResponseWriter, r *http.Request) {
	var req SearchRequest
	if p := decode(w, r, &req); p != nil {
		writeProblem(w, *p)
		return
	}
	if strings.TrimSpace(req.Query) == "" {
		writeProblem(w, *fieldProblem("query", "query is required"))
		return
	}
	opts, p := searchOptions(r, req.K, req.Filters, req.Retriever)
	if p != nil {
		writeProblem(w, *p)
		return
	}
	c, ok := s.collection(w, r)
	if !ok {
		return
	}
	if req.Trace {
		opts.Trace = &engine.Trace{}
	}
	hits, err := c.Engine.Search(r.Context(), req.Query, opts)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, SearchResponse{Query: req.Query, Hits: wire.Hits(hits), Trace: opts.Trace})
	auditHits(r, c.Name, req.Query, hits)
}

// searchOptions validates the fields search, ask and chat share, and
// limits the search to what the caller may read: the restriction goes
// into both legs, before fusion.
func searchOptions(r *http.Request, k *int, f *Filters, retriever string) (engine.SearchOptions, *Problem) {
	var o engine.SearchOptions
	if p := checkK(deref(k), k != nil); p != nil {
		return o, p
	}
	o.K = deref(k)
	if retriever != "" {
		m, err := retrieve.ParseMode(retriever)
		if err != nil {
			return o, fieldProblem("retriever", err.Error())
		}
		o.Mode = m
	}
	if f != nil {
		o.Filter = retrieve.Filter{Prefixes: f.Prefixes, Tags: f.Tags}
	}
	access := grantOf(r).filter()
	o.Filter.Restricted, o.Filter.Labels = access.Restricted, access.Labels
	return o, nil
}

func deref(k *int) int {
	if k == nil {
		return 0
	}
	return *k
}
