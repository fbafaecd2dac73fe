package server

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// Problem is an RFC 9457 problem detail. Field names the request field at
// fault, so a client can point at it.
type Problem struct {
	Type   string `json:"type"`
	Title  string `json:"title"`
	Status int    `json:"status"`
	Detail string `json:"detail,omitempty"`
	Field  string `json:"field,omitempty"`
}

// problemBase prefixes each problem type; the slug after it is stable.
const problemBase = "https://github.com/fonte-rag/fonte/blob/main/server/README.md#"

func newProblem(status int, slug, detail, field string) Problem {
	return Problem{Type: problemBase + slug, Title: http.StatusText(status), Status: status, Detail: detail, Field: field}
}

// writeProblem sends p as application/problem+json.
func writeProblem(w http.ResponseWriter, p Problem) { writeProblemBody(w, p.Status, p) }

// writeProblemBody sends v, a problem with extension members, as
// application/problem+json with status.
func writeProblemBody(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/problem+json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeJSON sends v with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// unmatchedProblems wraps the mux so the 404 and 405 it writes itself,
// as plain text, for a request no route matches are problems like every
// other error; a 405 keeps the mux's Allow header.
func unmatchedProblems(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mux.ServeHTTP(&unmatchedWriter{ResponseWriter: w, r: r}, r)
	})
}

// unmatchedWriter replaces the mux's own error for r, which the mux marks
// by leaving r.Pattern empty; a handler's 404 (a document not found) has
// a pattern and passes through.
type unmatchedWriter struct {
	http.ResponseWriter
	r        *http.Request
	replaced bool
}

func (w *unmatchedWriter) WriteHeader(code int) {
	if w.r.Pattern != "" || (code != http.StatusNotFound && code != http.StatusMethodNotAllowed) {
		w.ResponseWriter.WriteHeader(code)
		return
	}
	w.replaced = true
	p := newProblem(http.StatusNotFound, "no-route", "no route has this path; GET /openapi.json lists the routes", "")
	if code == http.StatusMethodNotAllowed {
		p = newProblem(code, "method-not-allowed",
			fmt.Sprintf("this route does not answer %s; it answers %s (the Allow header)", w.r.Method, w.Header().Get("Allow")), "")
	}
	w.Header().Del("Content-Length")
	writeProblem(w.ResponseWriter, p)
}

// Write drops the mux's plain-text body once the problem is sent.
func (w *unmatchedWriter) Write(b []byte) (int, error) {
	if w.replaced {
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

func (w *unmatchedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
