package main

import (
	"context"
	"errors"
	"io"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	fontemcp "github.com/fonte-rag/fonte/mcp"
)

// newMCP is `fonte mcp`: it searches and answers but never indexes, and
// stdout carries the protocol, so it has no indexing or output flags.
func newMCP(o *options) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the index to an AI agent over MCP (stdio): search, ask, get_document",
		Long: `mcp runs a Model Context Protocol server on stdin and stdout, for an MCP client
(Claude Desktop, an IDE, an agent framework) that starts fonte as a subprocess.
It offers three read-only tools over the index the options name:

  search        passages that match a query, with citation metadata and scores
  ask           an answer with numbered citations, or an abstention
  get_document  a whole document's passages in order, with heading paths

The index is opened read-only, as fonte search opens it, so fonte index can
update it meanwhile. The server runs until the client closes stdin. Nothing
but protocol messages is written to stdout; errors go to stderr.`,
		Args: argsUsage(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			e, err := openEngine(cmd.Context(), o, true, false)
			if err != nil {
				return err
			}
			defer e.Close()
			// cmd's streams rather than os.Stdin/os.Stdout, so that Main's
			// writers are honoured as for every other command.
			t := &sdk.IOTransport{Reader: io.NopCloser(cmd.InOrStdin()), Writer: nopWriteCloser{cmd.OutOrStdout()}}
			err = fontemcp.New(e).Run(cmd.Context(), t)
			if errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
				return nil // the client went away or fonte was interrupted: a normal end
			}
			return err
		},
	}
	addStoreFlags(cmd, o)
	addModelFlags(cmd, o, useAllModels)
	addRetrievalFlags(cmd, o)
	addAnswerFlags(cmd, o)
	return cmd
}

// nopWriteCloser lets the transport close stdout without closing it.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
