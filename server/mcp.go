package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/mcp"
)

// mcpLibrary builds the MCP server one /mcp request talks to: its tools
// resolve collections through the caller's token, so an agent sees the
// collections and the documents its token may read, and nothing else.
func (s *Server) mcpLibrary(r *http.Request) *sdk.Server {
	gs, _ := r.Context().Value(grantKey{}).(grants)
	resolve := func(ctx context.Context, name string) (*engine.Engine, fonte.Filter, error) {
		if name == "" {
			name = DefaultCollection
		}
		g, ok := gs.merge(ScopeRead, name)
		if !ok {
			return nil, fonte.Filter{}, fmt.Errorf("this token may not use collection %q", name)
		}
		c, err := s.reg.get(ctx, name)
		if errors.Is(err, ErrNoCollection) {
			// No tool lists the collections: name those the token may
			// use, so the agent can correct itself.
			var mine []string
			for _, n := range s.reg.names() {
				if _, ok := gs.merge(ScopeRead, n); ok {
					mine = append(mine, fmt.Sprintf("%q", n))
				}
			}
			if len(mine) == 0 {
				return nil, fonte.Filter{}, fmt.Errorf("there is no collection %q, and this token may use none", name)
			}
			return nil, fonte.Filter{}, fmt.Errorf("there is no collection %q; this token may use %s", name, strings.Join(mine, ", "))
		}
		if err != nil {
			// The cause names the store; an agent gets what a route's
			// 500 says, the log the rest.
			s.log.Error("mcp: opening a collection", "collection", name, "err", err)
			return nil, fonte.Filter{}, fmt.Errorf("collection %q cannot be opened; the server's log has the cause", name)
		}
		return c.Engine, g.filter(), nil
	}
	var def engine.Settings
	if c, err := s.reg.get(r.Context(), DefaultCollection); err == nil {
		def = c.Engine.Settings()
	}
	srv := mcp.NewFor(resolve, max(def.Floor, 0), def.Mode)
	srv.AddReceivingMiddleware(auditMCP(auditOf(r)))
	return srv
}
