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
	return NewHTTPHandler(func(*http.Request) *sdk.Server { return s }, HTTPOptions{AllowedOrigins: allowedOrigins})
}

// HTTPOptions configure NewHTTPHandler.
type HTTPOptions struct {
	// AllowedOrigins are the web origins a browser may call from; a
	// request with any other Origin header is refused with 403.
	AllowedOrigins []string
	// HostChecked says the caller already refuses Host headers it does
	// not serve (fonte serve does), which turns off the SDK's own guard:
	// that one refuses any non-localhost Host on a loopback connection,
	// so it would refuse a reverse proxy's configured name.
	HostChecked bool
}

// NewHTTPHandler serves, for each request, the MCP server serverFor
// returns (one bound to the caller's collections and access, say), with
// every option.
func NewHTTPHandler(serverFor func(*http.Request) *sdk.Server, o HTTPOptions) http.Handler {
	// Stateless: every request stands alone, so the server keeps no
	// session table to grow or expire; fonte's tools never call the client.
	h := sdk.NewStreamableHTTPHandler(serverFor,
		&sdk.StreamableHTTPOptions{Stateless: true, DisableLocalhostProtection: o.HostChecked})
	allowed := slices.Clone(o.AllowedOrigins)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); origin != "" && !slices.Contains(allowed, origin) {
			forbidden(w, origin)
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
