// Package server is fonte's HTTP API over one engine (the collection
// "default"): search, ask (JSON or streamed as Server-Sent Events), chat,
// documents, status, health, Prometheus metrics and an OpenAPI document.
// Every route but the health checks and the OpenAPI document needs a
// bearer token; requests for other host names are refused.
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/mcp"
)

// Options configure a Server.
type Options struct {
	// Addr is the address the server listens on (host:port); Host headers
	// must name it (or one of Hosts).
	Addr string
	// Hosts are further names the server answers for (e.g. behind a proxy).
	Hosts []string
	// Tokens are the accepted tokens, by digest.
	Tokens []TokenDigest
	// AdminToken is one admin token in clear (FONTE_ADMIN_TOKEN); only its
	// digest is kept.
	AdminToken string
	// PublicRead lets requests without a token search, ask and list.
	PublicRead bool
	// MCPOrigins are the browser origins allowed to call /mcp (none by
	// default: requests from any web page are refused).
	MCPOrigins []string
	// Logger receives request errors; nil means slog.Default(). Tokens are
	// never logged.
	Logger *slog.Logger
}

// Server serves one engine over HTTP. It is an http.Handler.
type Server struct {
	engine     *engine.Engine
	keys       *keyring
	publicRead bool
	generated  string
	log        *slog.Logger
	metrics    *metrics
	mux        *http.ServeMux
	mcp        http.Handler // the MCP tools over streamable HTTP, at /mcp
	handler    http.Handler
}

// New builds a server over e. When no token is configured it makes a
// random admin token, which GeneratedToken returns: there is never a
// server that accepts a write without a token.
func New(e *engine.Engine, o Options) (*Server, error) {
	ds := append([]TokenDigest(nil), o.Tokens...)
	s := &Server{engine: e, publicRead: o.PublicRead, log: o.Logger, metrics: newMetrics(), mux: http.NewServeMux()}
	if s.log == nil {
		s.log = slog.Default()
	}
	if o.AdminToken != "" {
		ds = append(ds, TokenDigest{SHA256: Digest(o.AdminToken), Scope: ScopeAdmin})
	}
	if len(ds) == 0 {
		tok, err := NewToken()
		if err != nil {
			return nil, fmt.Errorf("making an admin token: %w", err)
		}
		s.generated = tok
		ds = append(ds, TokenDigest{SHA256: Digest(tok), Scope: ScopeAdmin})
	}
	keys, err := newKeyring(ds)
	if err != nil {
		return nil, err
	}
	s.keys = keys
	// The server checks Host itself (a proxy's configured name included),
	// so the SDK's loopback-only Host guard stays off.
	s.mcp = mcp.NewHTTPHandler(e, mcp.HTTPOptions{AllowedOrigins: o.MCPOrigins, HostChecked: true})
	s.routes()
	s.handler = s.metrics.instrument(newHostGuard(o.Addr, o.Hosts).wrap(s.mux))
	return s, nil
}

// GeneratedToken is the admin token New made when none was configured, or
// "". Show it once; it lives only in this process.
func (s *Server) GeneratedToken() string { return s.generated }

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// routes registers every route; openapi.json must list each of them (a
// test checks it against Routes).
func (s *Server) routes() {
	for _, rt := range s.table() {
		h := rt.handler
		if rt.scope != "" {
			h = s.require(rt.scope, h)
		}
		s.mux.HandleFunc(rt.pattern, h)
	}
}

type route struct {
	pattern string
	scope   Scope // "" for public routes
	handler http.HandlerFunc
}

func (s *Server) table() []route {
	return []route{
		{"POST /v1/search", ScopeRead, s.handleSearch},
		{"POST /v1/ask", ScopeRead, s.handleAsk},
		{"POST /v1/chat", ScopeRead, s.handleChat},
		{"GET /v1/documents", ScopeRead, s.handleDocuments},
		{"DELETE /v1/documents/{id...}", ScopeAdmin, s.handleDelete},
		{"GET /v1/passages/{id...}", ScopeRead, s.handlePassage},
		{"GET /v1/status", ScopeRead, s.handleStatus},
		{"GET /metrics", ScopeRead, s.handleMetrics()},
		{"GET /healthz", "", s.handleHealth},
		{"GET /readyz", "", s.handleReady},
		{"GET /openapi.json", "", s.handleOpenAPI},
		{"POST /mcp", ScopeRead, s.mcp.ServeHTTP},
	}
}

// Routes lists the patterns the server registers ("METHOD /path").
func (s *Server) Routes() []string {
	var out []string
	for _, rt := range s.table() {
		out = append(out, rt.pattern)
	}
	return out
}

// internal answers a failure inside the engine: logged in full, shown to
// the client as a 500 without internals.
func (s *Server) internal(w http.ResponseWriter, r *http.Request, err error) {
	s.log.Error("request failed", "route", r.Pattern, "err", err)
	writeProblem(w, s.internalProblem(r, err))
}

func (s *Server) internalProblem(r *http.Request, err error) Problem {
	if errors.Is(err, context.Canceled) || errors.Is(r.Context().Err(), context.Canceled) {
		return newProblem(499, "canceled", "the request was canceled", "")
	}
	return newProblem(http.StatusInternalServerError, "internal", "the server could not complete the request; its log has the cause", "")
}

// Timeouts of the http.Server Serve runs. The write timeout is long
// because a streamed answer from a slow model can take minutes.
const (
	ReadHeaderTimeout = 10 * time.Second
	ReadTimeout       = 30 * time.Second
	WriteTimeout      = 10 * time.Minute
	IdleTimeout       = 2 * time.Minute
	ShutdownTimeout   = 30 * time.Second
)

// Serve serves h on ln until ctx is done, then shuts down gracefully:
// the listener closes at once and requests in flight get up to
// ShutdownTimeout to finish.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, log *slog.Logger) error {
	if log == nil {
		log = slog.Default()
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: ReadHeaderTimeout, ReadTimeout: ReadTimeout,
		WriteTimeout: WriteTimeout, IdleTimeout: IdleTimeout, MaxHeaderBytes: 64 << 10,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), ShutdownTimeout)
	defer cancel()
	err := srv.Shutdown(sctx)
	if serr := <-errc; serr != nil && !errors.Is(serr, http.ErrServerClosed) {
		return serr
	}
	return err
}
