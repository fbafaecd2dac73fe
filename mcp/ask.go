package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/engine"
)

// AskInput is the ask tool's arguments.
type AskInput struct {
	Question string `json:"question" jsonschema:"the question to answer from the documents"`
	History  []Turn `json:"history,omitempty" jsonschema:"earlier turns of the conversation, oldest first, so that a follow-up such as 'and for contractors?' is understood"`
	// Collection names the index to ask when the server holds several.
	Collection string `json:"collection,omitempty" jsonschema:"the collection to ask (default: default)"`
}

// Turn is one message of a conversation.
type Turn struct {
	Role    string `json:"role" jsonschema:"user or assistant"`
	Content string `json:"content" jsonschema:"what was said"`
}

// Citation is one numbered source of an answer.
type Citation struct {
	N        int      `json:"n" jsonschema:"the number the answer cites it by, as [n]"`
	Doc      string   `json:"doc" jsonschema:"the document id: pass it to get_document to read the whole document"`
	Chunk    string   `json:"chunk" jsonschema:"the chunk id of the passage"`
	Title    string   `json:"title" jsonschema:"the document title"`
	Heading  string   `json:"heading" jsonschema:"the heading path joined by ' › '"`
	Headings []string `json:"headings" jsonschema:"the heading path, outermost first"`
	Source   string   `json:"source" jsonschema:"where the original is (path or URL)"`
	Page     int      `json:"page,omitempty" jsonschema:"1-based page for paginated sources"`
	Updated  string   `json:"updated,omitempty" jsonschema:"when the document last changed (YYYY-MM-DD)"`
	Quote    string   `json:"quote" jsonschema:"the exact text the answer rests on"`
}

// AskOutput is the ask tool's structured result.
type AskOutput struct {
	Question string `json:"question"`
	// Query is the standalone query retrieval ran, rewritten from the
	// history for a follow-up.
	Query     string `json:"query" jsonschema:"the standalone query retrieval ran (the question rewritten with the history)"`
	Answer    string `json:"answer" jsonschema:"the answer, citing sources as [n]; when abstained, a statement that the documents do not answer"`
	Abstained bool   `json:"abstained" jsonschema:"true when the documents do not answer the question: do not answer it from them"`
	// Lang and Notice are the question's language and what the reader
	// must be told first in it.
	Lang   string `json:"lang" jsonschema:"the question's language as detected (en, it ...); answer and notice are in it"`
	Notice string `json:"notice,omitempty" jsonschema:"what the user must be told first, in the question's language: that no passage was found in that language, and the language of those found (of the documents, when no passage shares a word with the question); or, when fonte abstains, the words of the question no document uses"`
	// Relevance against Floor is why fonte answered or abstained.
	Relevance   float64    `json:"relevance" jsonschema:"the best passage's relevance (0-1)"`
	Floor       float64    `json:"floor" jsonschema:"the relevance below which fonte abstains"`
	Citations   []Citation `json:"citations" jsonschema:"the numbered sources; when abstained, the nearest passages found"`
	Unsupported []string   `json:"unsupported" jsonschema:"sentences of the answer whose words the cited sources do not contain"`
	Model       string     `json:"model" jsonschema:"the model that wrote the answer"`
}

func askTool() *sdk.Tool {
	return &sdk.Tool{
		Name: "ask",
		Description: `Answer one question from the indexed documents, with numbered citations [n], each giving the document, heading path, quote and updated date.
Prefer it to search when you want a direct, cited answer to a question about what the documents say (policies, procedures, facts); pass earlier turns as history for a follow-up.
If the documents do not answer, ask abstains: abstained is true, the answer says so, and the nearest passages come back with their relevance below the floor. An abstention is a normal result, not a failure: tell the user the documents do not say, and do not guess.`,
		Annotations: readOnly("Ask the documents"),
	}
}

func (t tools) ask(ctx context.Context, req *sdk.CallToolRequest, in AskInput) (*sdk.CallToolResult, AskOutput, error) {
	question := strings.TrimSpace(in.Question)
	if question == "" {
		return nil, AskOutput{}, errors.New("question is empty")
	}
	var history []fonte.Message
	for i, m := range in.History {
		if m.Role != "user" && m.Role != "assistant" {
			return nil, AskOutput{}, fmt.Errorf("history[%d].role is %q: it must be user or assistant", i, m.Role)
		}
		history = append(history, fonte.Message{Role: m.Role, Content: m.Content})
	}
	e, access, err := t.resolve(ctx, in.Collection)
	if err != nil {
		return nil, AskOutput{}, err
	}
	a, err := e.Ask(ctx, question, engine.AskOptions{SearchOptions: engine.SearchOptions{Filter: access}, History: history, OnDelta: progress(ctx, req)})
	if err != nil {
		return nil, AskOutput{}, err
	}
	out := AskOutput{Question: question, Query: a.Query, Answer: a.Text, Abstained: a.Abstained, Lang: a.Lang, Notice: a.Notice, Relevance: a.Relevance,
		Floor: t.floor(), Citations: make([]Citation, 0, len(a.Citations)), Unsupported: nonNil(a.Unsupported), Model: a.Model}
	for _, c := range a.Citations {
		out.Citations = append(out.Citations, Citation{N: c.N, Doc: c.DocID, Chunk: c.Chunk.ID, Title: c.Title,
			Heading: strings.Join(c.Headings, " › "), Headings: nonNil(c.Headings), Source: c.Source, Page: c.Page,
			Updated: day(c.Updated), Quote: c.Quote})
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: out.text()}}}, out, nil
}

// text renders the answer for a model that reads text content only: the
// answer, then the sources it cites (all of them when abstaining, as the
// nearest passages).
func (o AskOutput) text() string {
	var b strings.Builder
	if o.Notice != "" {
		fmt.Fprintf(&b, "NOTICE (tell the user): %s\n", o.Notice)
	}
	if o.Abstained {
		// The instruction is the agent's, in English; the answer, which
		// the user may be shown as it is, is in the question's language.
		fmt.Fprintf(&b, "ABSTAINED: the documents do not answer this question (best relevance %.2f, floor %.2f). Do not answer it from them.\n%s\n",
			o.Relevance, o.Floor, o.Answer)
		searched(&b, o)
		if len(o.Citations) > 0 {
			b.WriteString("\nNearest passages:\n")
		}
	} else {
		fmt.Fprintf(&b, "%s\n", o.Answer)
		searched(&b, o)
		if len(o.Citations) > 0 {
			b.WriteString("\nSources:\n")
		}
	}
	cited := map[int]bool{}
	for _, c := range o.Citations {
		if strings.Contains(o.Answer, fmt.Sprintf("[%d]", c.N)) {
			cited[c.N] = true
		}
	}
	for _, c := range o.Citations {
		if !o.Abstained && len(cited) > 0 && !cited[c.N] {
			continue
		}
		fmt.Fprintf(&b, "[%d] %s", c.N, c.Title)
		if c.Heading != "" {
			fmt.Fprintf(&b, " › %s", c.Heading)
		}
		fmt.Fprintf(&b, "\n    doc %s%s\n    “%s”\n", c.Doc, where(c.Page, c.Updated), c.Quote)
	}
	for _, s := range o.Unsupported {
		fmt.Fprintf(&b, "warning: not supported by the cited sources: %s\n", s)
	}
	return b.String()
}

// searched writes the query searched when the history rewrote the
// question into another, so the client can tell what was answered.
func searched(b *strings.Builder, o AskOutput) {
	if o.Query != "" && o.Query != o.Question {
		fmt.Fprintf(b, "Searched: %s\n", o.Query)
	}
}

// progress streams the answer to a client that asked for progress (a
// progress token in the call): each piece of text is a progress
// notification's message, and progress counts the bytes so far. The
// pieces are the checked answer, sentence by sentence (a model's is held
// back until checked; see answer.Hold), so a client that shows them shows
// nothing the result then contradicts.
func progress(ctx context.Context, req *sdk.CallToolRequest) func(string) {
	if req == nil || req.Params == nil || req.Session == nil {
		return nil
	}
	token := req.Params.GetProgressToken()
	if token == nil {
		return nil
	}
	n := 0
	return func(delta string) {
		n += len(delta)
		// A lost notification only costs the preview: the result carries
		// the whole answer.
		_ = req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: token, Progress: float64(n), Message: delta})
	}
}
