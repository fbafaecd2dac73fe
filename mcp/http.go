package mcp

import (
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
			http.Error(w, "origin "+o+" is not allowed", http.StatusForbidden)
			return
		}
		h.ServeHTTP(w, r)
	})
}
