package mcp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fonte-rag/fonte"
)

// DocumentInput is the get_document tool's arguments.
type DocumentInput struct {
	ID string `json:"id" jsonschema:"the document id, as search and ask return it in doc"`
	// Around and Window keep a long document's answer short: the passage
	// an agent holds and its neighbours, instead of every chunk.
	Around string `json:"around,omitempty" jsonschema:"a chunk id of this document: return only that chunk and its neighbours (default: the whole document)"`
	Window int    `json:"window,omitempty" jsonschema:"with around: how many chunks before and after it, 0 to 20 (default 2)"`
	// Collection names the index to read when the server holds several.
	Collection string `json:"collection,omitempty" jsonschema:"the collection the document is in (default: default)"`
}

// Bounds of get_document's window.
const (
	DefaultWindow = 2
	MaxWindow     = 20
)

// Section is one chunk of a document.
type Section struct {
	Chunk    string   `json:"chunk" jsonschema:"the chunk id, as search returns it"`
	Position int      `json:"position" jsonschema:"0-based order within the document"`
	Heading  string   `json:"heading" jsonschema:"the heading path joined by ' › '"`
	Headings []string `json:"headings" jsonschema:"the heading path, outermost first"`
	Page     int      `json:"page,omitempty" jsonschema:"1-based page for paginated sources"`
	Text     string   `json:"text"`
}

// DocumentOutput is the get_document tool's structured result.
type DocumentOutput struct {
	ID       string    `json:"id"`
	Title    string    `json:"title"`
	Language string    `json:"language" jsonschema:"ISO 639-1 code, e.g. en or it"`
	Source   string    `json:"source" jsonschema:"where the original is (path or URL)"`
	Updated  string    `json:"updated,omitempty" jsonschema:"when the document last changed (YYYY-MM-DD)"`
	Tags     []string  `json:"tags"`
	Total    int       `json:"total_chunks" jsonschema:"how many chunks the whole document has"`
	Chunks   []Section `json:"chunks" jsonschema:"the document's passages in reading order (only those around the given chunk when around is set)"`
}

func documentTool() *sdk.Tool {
	return &sdk.Tool{
		Name: "get_document",
		Description: `Read one indexed document whole: its title, language, updated date and every passage in order, each with its chunk id and heading path.
Use it after search or ask when a passage needs its surroundings (the steps before and after, the table it belongs to, the exceptions in the next section); the id is the doc field those tools return.
For a long document pass around (a chunk id from search or ask) and window to get only that passage and its neighbours.
An unknown id is an error naming it; search to find valid ids.`,
		Annotations: readOnly("Read a document"),
		InputSchema: schema[DocumentInput]("window", 0, MaxWindow, DefaultWindow),
	}
}

func (t tools) document(ctx context.Context, _ *sdk.CallToolRequest, in DocumentInput) (*sdk.CallToolResult, DocumentOutput, error) {
	e, access, err := t.resolve(ctx, in.Collection)
	if err != nil {
		return nil, DocumentOutput{}, err
	}
	// A document the caller may not read is not there for it, and is
	// never loaded.
	r, err := e.ReadableDocument(ctx, in.ID, access)
	if errors.Is(err, fonte.ErrNotFound) {
		return nil, DocumentOutput{}, fmt.Errorf("no document with id %q in the index; ids are the doc field of search results", in.ID)
	}
	if err != nil {
		return nil, DocumentOutput{}, err
	}
	chunks := r.Chunks
	if in.Around != "" {
		if chunks, err = around(chunks, in.ID, in.Around, in.Window); err != nil {
			return nil, DocumentOutput{}, err
		}
	}
	d := r.Doc
	out := DocumentOutput{ID: d.ID, Title: d.Title, Language: d.Language, Source: d.Source, Updated: day(d.Updated),
		Tags: nonNil(d.Tags), Total: len(r.Chunks), Chunks: make([]Section, 0, len(chunks))}
	for _, c := range chunks {
		out.Chunks = append(out.Chunks, Section{Chunk: c.ID, Position: c.Position, Heading: strings.Join(c.Headings, " › "),
			Headings: nonNil(c.Headings), Page: c.Page, Text: c.Text})
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: out.text()}}}, out, nil
}

// around returns the chunk with id chunkID and window chunks either side
// (the SDK fills in the schema's default window when none is given).
func around(chunks []fonte.Chunk, docID, chunkID string, window int) ([]fonte.Chunk, error) {
	if window < 0 || window > MaxWindow {
		return nil, fmt.Errorf("window is %d: it must be between 0 and %d", window, MaxWindow)
	}
	i := slices.IndexFunc(chunks, func(c fonte.Chunk) bool { return c.ID == chunkID })
	if i < 0 {
		return nil, fmt.Errorf("document %q has no chunk %q; chunk ids are the chunk field of search results", docID, chunkID)
	}
	return chunks[max(i-window, 0):min(i+window+1, len(chunks))], nil
}

// text renders the document with a heading line wherever the heading path
// changes, so a model reads it as the original's structure.
func (o DocumentOutput) text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\ndoc %s, language %s, source %s%s\n", o.Title, o.ID, o.Language, o.Source, where(0, o.Updated))
	if len(o.Chunks) < o.Total {
		// Positions count from 0, as chunk ids do, so the count is said
		// apart from them: "2 to 4 of 12" read as 1-based ordinals.
		fmt.Fprintf(&b, "chunks at positions %d to %d (counted from 0) of the document's %d\n", o.Chunks[0].Position, o.Chunks[len(o.Chunks)-1].Position, o.Total)
	}
	last := "\x00"
	for _, c := range o.Chunks {
		if c.Heading != last && c.Heading != "" {
			fmt.Fprintf(&b, "\n## %s\n", c.Heading)
		}
		last = c.Heading
		page := ""
		if c.Page > 0 {
			page = fmt.Sprintf(", page %d", c.Page)
		}
		fmt.Fprintf(&b, "\n(chunk %s%s)\n%s\n", c.Chunk, page, c.Text)
	}
	return b.String()
}
