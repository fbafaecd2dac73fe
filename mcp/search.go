package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/retrieve"
)

// Bounds of search's k: enough passages to choose from, few enough to fit
// an agent's context.
const (
	DefaultK = 10
	MaxK     = 50
)

// SearchInput is the search tool's arguments.
type SearchInput struct {
	Query   string   `json:"query" jsonschema:"what to look for: a question or keywords, in the documents' language (English or Italian)"`
	K       int      `json:"k,omitempty" jsonschema:"how many passages to return, 1 to 50 (default 10)"`
	Filters *Filters `json:"filters,omitempty" jsonschema:"restrict the search to some documents"`
	// Collection names the index to search when the server holds several.
	Collection string `json:"collection,omitempty" jsonschema:"the collection to search (default: default)"`
}

// Filters restrict a search to some documents.
type Filters struct {
	Prefixes []string `json:"prefixes,omitempty" jsonschema:"only documents whose id starts with one of these prefixes, e.g. a folder such as hr/"`
	Tags     []string `json:"tags,omitempty" jsonschema:"only documents carrying every one of these tags"`
}

// Passage is one retrieved chunk with what a citation needs.
type Passage struct {
	Rank      int      `json:"rank" jsonschema:"1-based position in the result list"`
	Chunk     string   `json:"chunk" jsonschema:"the chunk id"`
	Doc       string   `json:"doc" jsonschema:"the document id: pass it to get_document to read the whole document"`
	Title     string   `json:"title" jsonschema:"the document title"`
	Heading   string   `json:"heading" jsonschema:"the heading path joined by ' › '"`
	Headings  []string `json:"headings" jsonschema:"the heading path, outermost first"`
	Page      int      `json:"page,omitempty" jsonschema:"1-based page for paginated sources such as PDF"`
	Updated   string   `json:"updated,omitempty" jsonschema:"when the document last changed (YYYY-MM-DD)"`
	Score     float64  `json:"score" jsonschema:"the ranking score (fused across retrievers): orders this list only"`
	Relevance float64  `json:"relevance" jsonschema:"share of the query's evidence the passage matches, 0 to 1; comparable across queries"`
	// Legs say which retriever found the passage, for an agent (or its
	// user) asking why it came up.
	Legs []fonte.Leg `json:"legs" jsonschema:"each retriever's rank (0 when it did not find the passage) and own score"`
	Text string      `json:"text" jsonschema:"the passage text"`
}

// SearchOutput is the search tool's structured result.
type SearchOutput struct {
	Query    string    `json:"query"`
	Passages []Passage `json:"passages"`
}

// searchTool describes search; floor is the relevance below which ask
// abstains, the best yardstick an agent has for a passage's relevance, and
// retriever the default collection's, which tells an agent whether to
// search with the documents' own words.
func searchTool(floor float64, retriever retrieve.Mode) *sdk.Tool {
	return &sdk.Tool{
		Name: "search",
		Description: fmt.Sprintf(`Find the passages of the indexed documents that best match a query%s.
Use it to look facts up yourself, to compare several sources, or when you need exact wording; prefer ask for a direct cited answer to one question.
Returns up to k passages, best first, each with its chunk id, document id, title, heading path, page, updated date, score and relevance (0-1, comparable across queries; ask abstains when no passage reaches %.2f) and text.
No passages, or only ones below that relevance, means the documents do not cover the query. Use get_document with a passage's doc to read around it.`, retrieverNote(retriever), floor),
		Annotations: readOnly("Search the documents"),
		InputSchema: schema[SearchInput]("k", 1, MaxK, DefaultK),
	}
}

// retrieverNote says how the default collection retrieves, in words an
// agent can act on: a keyword retriever finds only the words it is given.
func retrieverNote(m retrieve.Mode) string {
	const keywords = " keyword retrieval over word stems, so use the words the documents would use)"
	switch m {
	case retrieve.BM25:
		return " (on the default collection: BM25" + keywords
	case retrieve.TFIDF:
		return " (on the default collection: TF-IDF" + keywords
	case retrieve.Dense:
		return " (on the default collection: vector retrieval by meaning)"
	case retrieve.Hybrid:
		return " (on the default collection: BM25 keywords and vector similarity, fused)"
	}
	return ""
}

func (t tools) search(ctx context.Context, _ *sdk.CallToolRequest, in SearchInput) (*sdk.CallToolResult, SearchOutput, error) {
	query := strings.TrimSpace(in.Query)
	if query == "" {
		return nil, SearchOutput{}, errors.New("query is empty: give a question or keywords")
	}
	k := in.K
	if k == 0 {
		k = DefaultK
	}
	if k < 1 || k > MaxK {
		return nil, SearchOutput{}, fmt.Errorf("k is %d: it must be between 1 and %d", in.K, MaxK)
	}
	e, access, err := t.resolve(ctx, in.Collection)
	if err != nil {
		return nil, SearchOutput{}, err
	}
	o := engine.SearchOptions{K: k, Filter: access}
	if in.Filters != nil {
		o.Filter.Prefixes, o.Filter.Tags = in.Filters.Prefixes, in.Filters.Tags
	}
	hits, err := e.Search(ctx, query, o)
	if err != nil {
		return nil, SearchOutput{}, err
	}
	updated, err := updatedDates(ctx, e)
	if err != nil {
		return nil, SearchOutput{}, err
	}
	out := SearchOutput{Query: query, Passages: make([]Passage, 0, len(hits))}
	for i, h := range hits {
		out.Passages = append(out.Passages, passage(i+1, h, updated[h.Chunk.DocID]))
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: out.text()}}}, out, nil
}

// updated maps each document id to its last change, which hits do not carry.
func updatedDates(ctx context.Context, e *engine.Engine) (map[string]string, error) {
	docs, err := e.Store().Documents(ctx)
	if err != nil {
		return nil, err
	}
	m := make(map[string]string, len(docs))
	for _, d := range docs {
		m[d.ID] = day(d.Updated)
	}
	return m, nil
}

func passage(rank int, h fonte.Hit, updated string) Passage {
	c := h.Chunk
	return Passage{Rank: rank, Chunk: c.ID, Doc: c.DocID, Title: c.Title, Heading: strings.Join(c.Headings, " › "),
		Headings: nonNil(c.Headings), Page: c.Page, Updated: updated, Score: h.Score, Relevance: h.Relevance, Legs: nonNil(h.Legs), Text: c.Text}
}

// text renders the result for a model that reads text content only.
func (o SearchOutput) text() string {
	if len(o.Passages) == 0 {
		return fmt.Sprintf("No passage matches %q: the indexed documents do not cover it.", o.Query)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d passages for %q, best first:\n", len(o.Passages), o.Query)
	for _, p := range o.Passages {
		fmt.Fprintf(&b, "\n[%d] %s", p.Rank, p.Title)
		if p.Heading != "" {
			fmt.Fprintf(&b, " › %s", p.Heading)
		}
		fmt.Fprintf(&b, "\n    doc %s, chunk %s%s, relevance %.2f\n%s\n", p.Doc, p.Chunk, where(p.Page, p.Updated), p.Relevance, p.Text)
	}
	return b.String()
}
