// Package mcp serves a fonte index to AI agents over the Model Context
// Protocol, with the official Go SDK: three read-only tools (search, ask,
// get_document) over stdio (`fonte mcp`) or streamable HTTP (HTTPHandler,
// mounted at /mcp by `fonte serve`).
package mcp

import (
	"context"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/retrieve"
)

// Name and Version identify the server to MCP clients.
const (
	Name    = "fonte"
	Version = "0.1.0"
)

// instructions tell a client's model what the server is for as a whole;
// each tool's description says when to pick that tool.
const instructions = `fonte answers from an indexed collection of documents (handbooks, policies, manuals) with citations.
Use search to find passages, ask for a cited answer, get_document to read a whole document.
When ask abstains, the documents do not answer the question: say so rather than guessing.`

// New returns an MCP server whose tools read e (the collection
// "default"). The server holds no state of its own, so one value can serve
// any number of sessions.
func New(e *engine.Engine) *sdk.Server {
	return NewFor(Single(e), max(e.Settings().Floor, 0), e.Settings().Mode)
}

// Resolver gives the tools the engine of a collection ("" names the
// default one) and the access filter of the caller, which goes into every
// search so that passages the caller may not read never come back.
type Resolver func(ctx context.Context, collection string) (*engine.Engine, fonte.Filter, error)

// Single resolves the default collection to e, unrestricted, and refuses
// any other.
func Single(e *engine.Engine) Resolver {
	return func(_ context.Context, collection string) (*engine.Engine, fonte.Filter, error) {
		if collection != "" && collection != DefaultCollection {
			return nil, fonte.Filter{}, fmt.Errorf("unknown collection %q: this server has only %q", collection, DefaultCollection)
		}
		return e, fonte.Filter{}, nil
	}
}

// DefaultCollection is the collection tools read when none is named.
const DefaultCollection = "default"

// NewFor returns an MCP server whose tools read the collections resolve
// gives; floor is the abstain floor and retriever the default collection's
// retriever, which the tool descriptions quote ("" names none).
func NewFor(resolve Resolver, floor float64, retriever retrieve.Mode) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: Name, Title: "fonte document search", Version: Version},
		&sdk.ServerOptions{Instructions: instructions})
	s.AddReceivingMiddleware(checkBounds)
	t := tools{resolve: resolve, floorValue: floor}
	sdk.AddTool(s, searchTool(t.floor(), retriever), t.search)
	sdk.AddTool(s, askTool(), t.ask)
	sdk.AddTool(s, documentTool(), t.document)
	return s
}

// tools holds what the tool handlers query.
type tools struct {
	resolve    Resolver
	floorValue float64
}

// floor is the relevance below which ask abstains (a negative setting
// never abstains, which reads as 0).
func (t tools) floor() float64 { return t.floorValue }

// readOnly annotates a tool that only reads the index: clients may call it
// without asking the user, and calling it twice changes nothing. It is not
// open-world: it sees only the indexed documents.
func readOnly(title string) *sdk.ToolAnnotations {
	closed := false
	return &sdk.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &closed}
}
