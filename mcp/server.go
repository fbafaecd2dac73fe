// Package mcp serves a fonte index to AI agents over the Model Context
// Protocol, with the official Go SDK: three read-only tools (search, ask,
// get_document) over stdio (`fonte mcp`) or streamable HTTP (HTTPHandler,
// mounted at /mcp by `fonte serve`).
package mcp

import (
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fonte-rag/fonte/engine"
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

// New returns an MCP server whose tools read e. The server holds no state
// of its own, so one value can serve any number of sessions.
func New(e *engine.Engine) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: Name, Title: "fonte document search", Version: Version},
		&sdk.ServerOptions{Instructions: instructions})
	t := tools{e: e}
	sdk.AddTool(s, searchTool(t.floor()), t.search)
	sdk.AddTool(s, askTool(), t.ask)
	sdk.AddTool(s, documentTool(), t.document)
	return s
}

// tools holds the engine the tool handlers query.
type tools struct{ e *engine.Engine }

// floor is the relevance below which ask abstains (a negative setting
// never abstains, which reads as 0).
func (t tools) floor() float64 { return max(t.e.Settings().Floor, 0) }

// readOnly annotates a tool that only reads the index: clients may call it
// without asking the user, and calling it twice changes nothing. It is not
// open-world: it sees only the indexed documents.
func readOnly(title string) *sdk.ToolAnnotations {
	closed := false
	return &sdk.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &closed}
}
