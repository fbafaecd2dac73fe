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
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/internal/redact"
	"github.com/fonte-rag/fonte/mcp"
	"github.com/fonte-rag/fonte/web"
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
	// PublicRead lets requests without a token search, ask and list the
	// documents that carry no access label.
	PublicRead bool
	// Default configures the default collection (the engine New is given):
	// its documents folder and access rules.
	Default CollectionConfig
	// DataDir is the server's data folder: collections without a store of
	// their own live in folders under it, and the collections made through
	// the API are recorded in it. Empty: no collection but the configured
	// ones can be made.
	DataDir string
	// Collections are the collections configured besides the default.
	Collections map[string]CollectionConfig
	// Template are the settings (models, retrieval, chunking) of every
	// collection but the default, before a collection's own.
	Template engine.Settings
	// Embedders makes a collection's own embedder from its spec
	// ("ollama:MODEL") and server URL; nil: collections use Template's.
	Embedders func(spec, url string) (fonte.Embedder, error)
	// RateLimit bounds each token's requests; nil means DefaultRateLimit,
	// a zero Rate none.
	RateLimit *RateLimit
	// CORSOrigins are the web origins whose pages may call the API from a
	// browser (exact match); none by default.
	CORSOrigins []string
	// MCPOrigins are the browser origins allowed to call /mcp (none by
	// default: requests from any web page are refused).
	MCPOrigins []string
	// Models, when set, are the model clients' metrics, shown at /metrics.
	Models *ModelMetrics
	// UploadSlots bounds the uploads one collection takes at once, body
	// included; a further one waits briefly, then gets 503 with
	// Retry-After. Zero means DefaultUploadSlots.
	UploadSlots int
	// EvalDir is the folder whose *.jsonl question files POST /v1/eval
	// may name (only files directly in it); empty: none.
	EvalDir string
	// Audit, when its Path is set, is the audit log: one JSON line per
	// request that reads documents (who saw what).
	Audit AuditOptions
	// Logger receives request errors; nil means slog.Default(). Tokens are
	// never logged.
	Logger *slog.Logger
}

// Server serves collections over HTTP. It is an http.Handler.
type Server struct {
	reg        *registry
	keys       *keyring
	limits     *limiters
	uploads    *uploadGate
	publicRead bool
	generated  string
	evalDir    string
	log        *slog.Logger
	metrics    *metrics
	mux        *http.ServeMux
	mcp        http.Handler // the MCP tools over streamable HTTP, at /mcp
	page       http.Handler // the web page, at /
	handler    http.Handler
	auditLog   *auditLog // nil: no audit log
	// collectionPatterns are the patterns of the routes about one
	// collection.
	collectionPatterns map[string]bool
	// write is the writes in flight (uploads, index runs, deletes), which
	// Drain waits for.
	writes sync.WaitGroup
}

// New builds a server whose default collection is e. When no token is
// configured it makes a random admin token, which GeneratedToken returns:
// there is never a server that accepts a write without a token.
func New(e *engine.Engine, o Options) (*Server, error) {
	ds := append([]TokenDigest(nil), o.Tokens...)
	s := &Server{publicRead: o.PublicRead, evalDir: o.EvalDir, log: o.Logger, metrics: newMetrics(), mux: http.NewServeMux()}
	if s.log == nil {
		s.log = slog.Default()
	}
	s.log = slog.New(redact.Handler(s.log.Handler())) // a logged error may quote a store URL
	limit := DefaultRateLimit
	if o.RateLimit != nil {
		limit = *o.RateLimit
	}
	s.limits = newLimiters(limit)
	s.uploads = newUploadGate(o.UploadSlots)
	if o.Models != nil {
		s.metrics.reg.MustRegister(o.Models.latency, o.Models.errors)
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
	if s.reg, err = newRegistry(e, o.Default, o); err != nil {
		return nil, err
	}
	if o.Audit.Path != "" {
		if s.auditLog, err = openAuditLog(o.Audit); err != nil {
			return nil, errors.Join(err, s.reg.close())
		}
	}
	// The server checks Host itself (a proxy's configured name included),
	// so the SDK's loopback-only Host guard stays off.
	s.mcp = mcp.NewHTTPHandler(s.mcpLibrary, mcp.HTTPOptions{AllowedOrigins: o.MCPOrigins, HostChecked: true})
	s.page = web.Handler()
	s.routes()
	s.handler = s.audit(s.logRequests(s.metrics.instrument(newHostGuard(o.Addr, o.Hosts).wrap(newCORS(o.CORSOrigins).wrap(unmatchedProblems(s.mux))))))
	return s, nil
}

// Close closes the collections the server opened (not the default one,
// which its caller owns) and the audit log, synced to disk. Call it after
// Serve has returned, so no request is still being recorded.
func (s *Server) Close() error {
	err := s.reg.close()
	if s.auditLog != nil {
		err = errors.Join(err, s.auditLog.close())
	}
	return err
}

// GeneratedToken is the admin token New made when none was configured, or
// "". Show it once; it lives only in this process.
func (s *Server) GeneratedToken() string { return s.generated }

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// routes registers every route; openapi.json must list each of them (a
// test checks it against Routes).
func (s *Server) routes() {
	s.collectionPatterns = map[string]bool{}
	for _, rt := range s.table() {
		if !rt.global {
			s.collectionPatterns[rt.pattern] = true
		}
		h := rt.handler
		if rt.scope != "" {
			h = s.require(rt.scope, rt.global, h)
		}
		s.mux.HandleFunc(rt.pattern, h)
	}
}

type route struct {
	pattern string
	scope   Scope // "" for public routes
	handler http.HandlerFunc
	// global routes are not about one collection: the token's scope is
	// checked, and the handler checks each collection it touches.
	global bool
	// page routes serve the web page, not the API (not in openapi.json).
	page bool
}

// collectionRoutes act on one collection: the default one at /v1/…, any
// at /v1/collections/{collection}/….
func (s *Server) collectionRoutes() []route {
	return []route{
		{pattern: "POST /search", scope: ScopeRead, handler: s.handleSearch},
		{pattern: "POST /ask", scope: ScopeRead, handler: s.handleAsk},
		{pattern: "POST /chat", scope: ScopeRead, handler: s.handleChat},
		{pattern: "GET /documents", scope: ScopeRead, handler: s.handleDocuments},
		{pattern: "POST /documents", scope: ScopeAdmin, handler: s.handleUpload},
		{pattern: "GET /documents/{id...}", scope: ScopeRead, handler: s.handleDocument},
		{pattern: "DELETE /documents/{id...}", scope: ScopeAdmin, handler: s.handleDelete},
		{pattern: "GET /passages/{id...}", scope: ScopeRead, handler: s.handlePassage},
		{pattern: "POST /index", scope: ScopeAdmin, handler: s.handleIndex},
		{pattern: "GET /status", scope: ScopeRead, handler: s.handleStatus},
		{pattern: "GET /eval/files", scope: ScopeAdmin, handler: s.handleEvalFiles},
		{pattern: "POST /eval", scope: ScopeAdmin, handler: s.handleEval},
	}
}

func (s *Server) table() []route {
	var out []route
	for _, rt := range s.collectionRoutes() {
		method, path, _ := strings.Cut(rt.pattern, " ")
		out = append(out, route{pattern: method + " /v1" + path, scope: rt.scope, handler: rt.handler},
			route{pattern: method + " /v1/collections/{collection}" + path, scope: rt.scope, handler: rt.handler})
	}
	return append(out,
		route{pattern: "GET /v1/collections", scope: ScopeRead, handler: s.handleCollections, global: true},
		route{pattern: "POST /v1/collections", scope: ScopeAdmin, handler: s.handleCreateCollection, global: true},
		route{pattern: "POST /v1/chat/completions", scope: ScopeRead, handler: s.handleChatCompletions, global: true},
		route{pattern: "GET /v1/models", scope: ScopeRead, handler: s.handleModels, global: true},
		route{pattern: "GET /metrics", scope: ScopeAdmin, handler: s.handleMetrics(), global: true},
		route{pattern: "GET /healthz", handler: s.handleHealth, global: true},
		route{pattern: "GET /readyz", handler: s.handleReady, global: true},
		route{pattern: "GET /openapi.json", handler: s.handleOpenAPI, global: true},
		route{pattern: "POST /mcp", scope: ScopeRead, handler: s.mcp.ServeHTTP, global: true},
		route{pattern: "GET /{$}", handler: s.page.ServeHTTP, global: true, page: true},
		route{pattern: "GET /static/", handler: s.page.ServeHTTP, global: true, page: true},
	)
}

// Routes lists the API's patterns ("METHOD /path"), the web page's
// aside.
func (s *Server) Routes() []string {
	var out []string
	for _, rt := range s.table() {
		if !rt.page {
			out = append(out, rt.pattern)
		}
	}
	return out
}

// internal answers a failure inside the engine: logged in full, shown to
// the client as a 500 without internals (507 for a full disk, 503 for a
// store that does not answer, 409 for one that is read-only).
func (s *Server) internal(w http.ResponseWriter, r *http.Request, err error) {
	s.logFailure(r, err)
	p := s.internalProblem(r, err)
	setRetryAfter(w, p)
	writeProblem(w, p)
}

// logFailure logs why a request failed: a client that went away at INFO
// (nothing is wrong with the server, and every closed tab would read as
// an error), anything else at ERROR.
func (s *Server) logFailure(r *http.Request, err error) {
	if canceled(r, err) {
		s.log.Info("request canceled: the client went away", "route", r.Pattern)
		return
	}
	s.log.Error("request failed", "route", r.Pattern, "err", err)
}

func canceled(r *http.Request, err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(r.Context().Err(), context.Canceled)
}

func (s *Server) internalProblem(r *http.Request, err error) Problem {
	if canceled(r, err) {
		return newProblem(499, "canceled", "the request was canceled", "")
	}
	if p, ok := s.storeProblem(r, err); ok {
		return p
	}
	if diskFull(err) {
		where := "the store"
		if name := s.routeCollection(r); name != "" {
			where = fmt.Sprintf("collection %q", name)
		}
		return newProblem(http.StatusInsufficientStorage, "insufficient-storage",
			where+" could not be written: its disk is full; nothing was changed, and the request can be sent again once space is freed", "")
	}
	return newProblem(http.StatusInternalServerError, "internal", "the server could not complete the request; its log has the cause", "")
}

// diskFull reports a write refused for want of space: ENOSPC from the
// embedded store (which keeps the errno in its errors' chain), or
// PostgreSQL's disk_full (SQLSTATE 53100).
func diskFull(err error) bool {
	var pg interface{ SQLState() string }
	return errors.Is(err, syscall.ENOSPC) || (errors.As(err, &pg) && pg.SQLState() == "53100")
}

// routeCollection is the collection a request's route acts on, "" for
// the routes that are not about one collection.
func (s *Server) routeCollection(r *http.Request) string {
	if !s.collectionPatterns[r.Pattern] {
		return ""
	}
	return collectionName(r)
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
	log.Info("serving", "addr", ln.Addr().String())
	select {
	case err := <-errc:
		log.Error("stopped serving", "err", err)
		return err
	case <-ctx.Done():
	}
	began := time.Now()
	log.Info("shutting down: no new connections; requests in flight may finish", "cause", context.Cause(ctx).Error(), "grace", ShutdownTimeout.String())
	sctx, cancel := context.WithTimeout(context.Background(), ShutdownTimeout)
	defer cancel()
	err := srv.Shutdown(sctx)
	if serr := <-errc; serr != nil && !errors.Is(serr, http.ErrServerClosed) {
		err = serr
	}
	if err != nil {
		log.Error("shut down with requests unfinished", "err", err, "duration_ms", time.Since(began).Milliseconds())
		return err
	}
	log.Info("shut down", "duration_ms", time.Since(began).Milliseconds())
	return nil
}
