package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/embed"
	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/server"
	"github.com/fonte-rag/fonte/watch"
)

// newServe is `fonte serve`: the HTTP API over the collections, until
// SIGINT or SIGTERM (main's context), then a graceful shutdown.
func newServe(o *options) *cobra.Command {
	var addr, docs, dataDir, evalDir, auditFile, auditMaxSize, logFormat, logLevel string
	var auditKeep int
	var publicRead, watchDocs bool
	var hosts, digests, corsOrigins []string
	var rate float64
	var uploadSlots int
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the collections over HTTP: search, ask (streamed), documents, MCP, metrics",
		Long: `Serve answers HTTP requests on --addr (default 127.0.0.1:7700). The index
(--store) is the collection "default", at /v1/search, /v1/ask, /v1/chat,
/v1/documents, /v1/passages/{chunk}, /v1/index and /v1/status; any other
collection answers the same routes under /v1/collections/{name}/. Also:
GET/POST /v1/collections, the OpenAI-compatible /v1/chat/completions and
/v1/models, MCP at /mcp, /metrics, /healthz, /readyz and /openapi.json.

Requests need "Authorization: Bearer TOKEN". Tokens are configured by their
SHA-256, never in clear: --token-digest HEX:read or HEX:admin, or in
fonte.yaml under tokens: (with optional collections: and labels: limits).
FONTE_ADMIN_TOKEN gives one admin token. With none configured, serve makes a
random admin token and prints it once.

Collections other than the default are configured in fonte.yaml under
collections: (store, folder, chunker, chunk-size, overlap, access) or made by
POST /v1/collections or a first upload; they live under --data (default:
the folder collections inside the store folder) unless they name a store.

Every request leaves one line on stderr (--log-format text or json, from
--log-level up): method, route pattern, status, bytes, duration and token
(a prefix of its SHA-256, never the token); start and shutdown are logged
too. With --watch, every collection folder is indexed at start, catching
up with what changed while the server was down, and re-indexed when its
files change.

With --audit FILE, every request that reads documents (search, ask, chat,
chat completions, documents, passages, MCP tools, eval) appends one JSON line
to FILE: time, token (a prefix of its SHA-256, never the token), client
address, route, collection, status, query, the ids of the documents returned
or cited, and whether it abstained. The file is readable by its owner only
and rotated past --audit-max-size, keeping --audit-keep old files.`,
		Args: argsUsage(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if _, _, err := net.SplitHostPort(addr); err != nil {
				return usageError{fmt.Errorf("%s %q: want HOST:PORT: %w", o.named("addr"), addr, err)}
			}
			log, err := newServeLogger(cmd.ErrOrStderr(), logFormat, logLevel)
			if err != nil {
				return err
			}
			sec, err := o.serveSections()
			if err != nil {
				return err
			}
			tokens := sec.tokens
			for _, d := range digests {
				hex, scope, ok := strings.Cut(d, ":")
				if !ok {
					return usageError{fmt.Errorf("%s %q: want SHA256HEX:read or SHA256HEX:admin", o.named("token-digest"), d)}
				}
				tokens = append(tokens, server.TokenDigest{SHA256: hex, Scope: server.Scope(scope)})
			}
			audit := server.AuditOptions{Path: auditFile, Keep: auditKeep}
			if audit.MaxSize, err = parseByteSize(auditMaxSize); err != nil {
				return usageError{fmt.Errorf("%s %q: %w", o.named("audit-max-size"), auditMaxSize, err)}
			}
			if auditKeep < 0 {
				return usageError{fmt.Errorf("%s %d: want 0 or more", o.named("audit-keep"), auditKeep)}
			}
			if auditKeep == 0 {
				audit.Keep = -1 // none kept; the server's 0 means its default
			}
			if uploadSlots < 1 {
				return usageError{fmt.Errorf("%s %d: want 1 or more", o.named("max-uploads"), uploadSlots)}
			}
			if docs != "" {
				if info, err := os.Stat(docs); err != nil || !info.IsDir() {
					return usageError{fmt.Errorf("%s %s is not a folder", o.named("docs"), docs)}
				}
			}
			s, err := o.settings()
			if err != nil {
				return err
			}
			models := server.NewModelMetrics()
			if o.embedder != "" && o.embedder != "builtin" {
				s.Embedder = models.Embedder(s.Embedder) // the built-in one is no model server
			}
			s.Generator, s.Reranker = models.Generator(s.Generator), models.Reranker(s.Reranker)
			// Writable: uploads, re-index and deletes.
			e, err := engine.Open(cmd.Context(), s, engine.OpenOptions{})
			if err != nil {
				return openError(err)
			}
			defer e.Close()
			if dataDir, err = serveDataDir(dataDir, e.Location(), cmd.OutOrStdout()); err != nil {
				return err
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return err
			}
			limit := server.RateLimit{Rate: rate, Burst: max(int(2*rate), 1)}
			template := s
			template.Store, template.IndexDir = "", ""
			embedders := func(spec, url string) (fonte.Embedder, error) {
				c := *o
				c.embedder = spec
				if url != "" {
					c.embedURL = url
				}
				emb, err := c.embedderClient(embed.HTTPOptions{Timeout: o.timeout, APIKey: o.apiKey})
				if err != nil || spec == "builtin" {
					return emb, err
				}
				return models.Embedder(emb), nil
			}
			srv, err := server.New(e, server.Options{Addr: ln.Addr().String(), Hosts: append(hosts, sec.hosts...), Tokens: tokens,
				AdminToken: os.Getenv("FONTE_ADMIN_TOKEN"), PublicRead: publicRead, Logger: log, Models: models,
				Default: server.CollectionConfig{Folder: docs, Access: s.Access}, DataDir: dataDir, EvalDir: evalDir,
				Collections: sec.collections, Template: template, Embedders: embedders, RateLimit: &limit, UploadSlots: uploadSlots,
				CORSOrigins: append(corsOrigins, sec.corsOrigins...), Audit: audit})
			if err != nil {
				ln.Close()
				return usageError{err}
			}
			defer srv.Close()
			out := cmd.OutOrStdout()
			// The watches start before the server says it listens: one
			// that cannot start ends the command, and "listening" would
			// have said it was up.
			var watching []string
			if watchDocs {
				folders := srv.Folders()
				if len(folders) == 0 {
					ln.Close()
					return usageError{fmt.Errorf("--watch: no collection has a documents folder (give --docs DIR, or folder: in fonte.yaml)")}
				}
				for name, folder := range folders {
					index, err := srv.Location(cmd.Context(), name)
					if err == nil {
						err = startWatch(cmd.Context(), srv, name, folder, index, log)
					}
					if err != nil {
						ln.Close()
						return fmt.Errorf("--watch: the folder of collection %s: %w", name, err)
					}
					watching = append(watching, fmt.Sprintf("fonte: watching %s for collection %s\n", folder, name))
				}
			}
			printListening(out, addr, ln.Addr())
			if tok := srv.GeneratedToken(); tok != "" {
				fmt.Fprintf(out, "fonte: admin token (shown once, kept only in memory): %s\n", tok)
			}
			for _, line := range watching {
				fmt.Fprint(out, line)
			}
			return server.Serve(cmd.Context(), ln, srv, log)
		},
	}
	f := cmd.Flags()
	f.StringVar(&addr, "addr", "127.0.0.1:7700", "address to listen on (HOST:PORT)")
	f.StringVar(&docs, "docs", "", "the default collection's documents folder (POST /v1/index and --watch re-index it)")
	f.StringVar(&dataDir, "data", "", "folder of the collections that name no store of their own (default: collections in the store folder)")
	f.StringVar(&logFormat, "log-format", "text", "the log on stderr: text (key=value) or json, one line per request and event")
	f.StringVar(&logLevel, "log-level", "info", "the least level logged: debug (health checks too), info, warn or error")
	f.StringVar(&evalDir, "eval-dir", "", "folder of question files (*.jsonl) POST /v1/eval may name (none by default)")
	f.BoolVar(&watchDocs, "watch", false, "re-index each collection's documents folder when its files change")
	f.BoolVar(&publicRead, "public-read", false, "let requests without a token search, ask and list the documents without access labels")
	f.StringSliceVar(&hosts, "host", nil, "further host names the server answers for (the Host header is checked)")
	f.StringSliceVar(&digests, "token-digest", nil, "accepted tokens as SHA256HEX:SCOPE (scope read or admin)")
	f.StringSliceVar(&corsOrigins, "cors-origin", nil, "web origins whose pages may call the API (CORS is off without one)")
	f.StringVar(&auditFile, "audit", "", "append one JSON line per request that reads documents to this file (who saw what)")
	f.StringVar(&auditMaxSize, "audit-max-size", "100MiB", "rotate the audit file past this size (bytes, or with KiB, MiB, GiB)")
	f.IntVar(&auditKeep, "audit-keep", server.DefaultAuditKeep, "old audit files kept after rotation (FILE.1 the newest)")
	f.IntVar(&uploadSlots, "max-uploads", server.DefaultUploadSlots, "uploads one collection takes at once, body included; a further one waits 2 s, then gets 503 with Retry-After")
	f.Float64Var(&rate, "rate-limit", server.DefaultRateLimit.Rate, "requests per second each token may make (bursts of twice that; 0: no limit)")
	// Serve answers and also indexes (uploads, re-index); it prints no
	// results, so it has every group but the output one.
	addStoreFlags(cmd, o)
	addModelFlags(cmd, o, useAllModels)
	addRetrievalFlags(cmd, o)
	addAnswerFlags(cmd, o)
	addIndexingFlags(cmd, o)
	addLimitFlags(cmd, o)
	return cmd
}

// startWatch re-indexes collection name whenever folder changes, in the
// background until ctx ends; GET …/status shows the last run. The
// collection's index folder is ignored when it lies inside the watched
// one (each collection has its own: a commit to one is no change to
// another's folder).
func startWatch(ctx context.Context, srv *server.Server, name, folder, index string, log *slog.Logger) error {
	abs, err := filepath.Abs(index)
	if err != nil {
		abs = index
	}
	w, err := watch.New(folder, func(ctx context.Context) (any, error) {
		rep, err := srv.Reindex(ctx, name)
		if err == nil {
			log.Info("re-indexed", "collection", name, "indexed", len(rep.Indexed), "removed", len(rep.Removed), "refused", len(rep.Refused))
		}
		return rep, err
	}, watch.Options{Ignore: []string{abs}, Logger: log, CatchUp: true}) // nothing indexed the folder before
	if err != nil {
		return err
	}
	if err := srv.SetWatch(name, func() any {
		if last, ok := w.Last(); ok {
			return last
		}
		return map[string]any{"folder": folder, "runs": 0}
	}); err != nil {
		return err
	}
	go func() {
		if err := w.Run(ctx); err != nil {
			log.Error("watching stopped", "collection", name, "folder", folder, "err", err)
		}
	}()
	return nil
}
