package server

import (
	"encoding/json"
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
func writeProblem(w http.ResponseWriter, p Problem) {
	w.Header().Set("Content-Type", "application/problem+json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(p.Status)
	_ = json.NewEncoder(w).Encode(p)
}

// writeJSON sends v with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
