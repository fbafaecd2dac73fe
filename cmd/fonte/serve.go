package main

import (
	"fmt"
	"log/slog"
	"net"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fonte-rag/fonte/server"
)

// newServe is `fonte serve`: the HTTP API over the index, until SIGINT or
// SIGTERM (main's context), then a graceful shutdown.
func newServe(o *options) *cobra.Command {
	var addr string
	var publicRead bool
	var hosts, digests []string
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the index over HTTP: search, ask (streamed), documents, metrics",
		Long: `Serve answers HTTP requests on --addr (default 127.0.0.1:7700) over the
index: POST /v1/search, /v1/ask, /v1/chat; GET /v1/documents, /v1/status,
/metrics, /healthz, /readyz, /openapi.json; DELETE /v1/documents/{id}.

Requests need "Authorization: Bearer TOKEN". Tokens are configured by their
SHA-256 (--token-digest HEX:read or HEX:admin, also FONTE_TOKEN_DIGEST or
token-digest in fonte.yaml) or as one admin token in FONTE_ADMIN_TOKEN. With
none configured, serve makes a random admin token and prints it once.`,
		Args: argsUsage(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			var tokens []server.TokenDigest
			for _, d := range digests {
				hex, scope, ok := strings.Cut(d, ":")
				if !ok {
					return usageError{fmt.Errorf("--token-digest %q: want SHA256HEX:read or SHA256HEX:admin", d)}
				}
				tokens = append(tokens, server.TokenDigest{SHA256: hex, Scope: server.Scope(scope)})
			}
			// Writable: DELETE purges documents.
			e, err := openEngine(cmd.Context(), o, false, false)
			if err != nil {
				return err
			}
			defer e.Close()
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return err
			}
			log := slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), nil))
			srv, err := server.New(e, server.Options{Addr: ln.Addr().String(), Hosts: hosts, Tokens: tokens,
				AdminToken: os.Getenv("FONTE_ADMIN_TOKEN"), PublicRead: publicRead, Logger: log})
			if err != nil {
				ln.Close()
				return usageError{err}
			}
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "fonte: listening on http://%s\n", ln.Addr())
			if tok := srv.GeneratedToken(); tok != "" {
				fmt.Fprintf(out, "fonte: admin token (shown once, kept only in memory): %s\n", tok)
			}
			return server.Serve(cmd.Context(), ln, srv, log)
		},
	}
	f := cmd.Flags()
	f.StringVar(&addr, "addr", "127.0.0.1:7700", "address to listen on (HOST:PORT)")
	f.BoolVar(&publicRead, "public-read", false, "let requests without a token search, ask and list")
	f.StringSliceVar(&hosts, "host", nil, "further host names the server answers for (the Host header is checked)")
	f.StringSliceVar(&digests, "token-digest", nil, "accepted tokens as SHA256HEX:SCOPE (scope read or admin)")
	// Serve answers and also indexes (uploads, re-index); it prints no
	// results, so it has every group but the output one.
	addStoreFlags(cmd, o)
	addModelFlags(cmd, o, useAllModels)
	addRetrievalFlags(cmd, o)
	addAnswerFlags(cmd, o)
	addIndexingFlags(cmd, o)
	return cmd
}
