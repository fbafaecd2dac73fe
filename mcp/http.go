package mcp

import (
	"encoding/json"
	"net/http"
	"slices"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fonte-rag/fonte/engine"
)

// HTTPHandler serves New(e) over MCP's streamable HTTP transport. A request
// carrying an Origin header not in allowedOrigins (exact match, e.g.
// "https://app.example.com") is refused with 403, as the transport
// specification requires against DNS rebinding and cross-site calls; agents
// and other non-browser clients send no Origin and pass. Authentication is
// the caller's: fonte serve puts its token check in front.
func HTTPHandler(e *engine.Engine, allowedOrigins []string) http.Handler {
	s := New(e)
	// Stateless: every request stands alone, so the server keeps no
	// session table to grow or expire; fonte's tools never call the client.
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, &sdk.StreamableHTTPOptions{Stateless: true})
	allowed := slices.Clone(allowedOrigins)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o := r.Header.Get("Origin"); o != "" && !slices.Contains(allowed, o) {
			forbidden(w, o)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// forbidden refuses an origin with an RFC 9457 problem, the shape of every
// refusal of fonte's HTTP API.
func forbidden(w http.ResponseWriter, origin string) {
	w.Header().Set("Content-Type", "application/problem+json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusForbidden)
	_ = json.NewEncoder(w).Encode(map[string]any{"type": "about:blank", "title": "Forbidden", "status": http.StatusForbidden,
		"detail": "requests from the web origin " + origin + " are not allowed; configure it among the allowed origins"})
}
