package server

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/answer"
	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/wire"
)

// The OpenAI-compatible routes let a chat client made for OpenAI (an SDK,
// a chat UI) talk to fonte: a collection is a model, the last user
// message the question. Errors stay RFC 9457 problems, as on every other
// route: OpenAI clients show the status code and the body whatever its
// shape.

// ModelList is what GET /v1/models returns, in OpenAI's list shape.
type ModelList struct {
	Object string  `json:"object"` // always "list"
	Data   []Model `json:"data"`
}

// Model is one collection as an OpenAI model.
type Model struct {
	ID      string `json:"id"`
	Object  string `json:"object"`  // always "model"
	Created int64  `json:"created"` // the collection's last commit, Unix seconds
	OwnedBy string `json:"owned_by"`
}

// handleModels lists the collections the caller's token may read.
func (s *Server) handleModels(w http.ResponseWriter, r *http.Request) {
	out := ModelList{Object: "list", Data: []Model{}}
	for _, name := range s.reg.names() {
		if _, ok := grantFor(r, ScopeRead, name); !ok {
			continue
		}
		c, err := s.reg.get(r.Context(), name)
		if err != nil {
			s.internal(w, r, err)
			return
		}
		var created int64
		if st, err := c.Engine.Status(r.Context()); err == nil && !st.Committed.IsZero() {
			created = st.Committed.Unix()
		}
		out.Data = append(out.Data, Model{ID: name, Object: "model", Created: created, OwnedBy: "fonte"})
	}
	writeJSON(w, http.StatusOK, out)
}

// ChatCompletionRequest is the body of POST /v1/chat/completions: OpenAI's
// Chat Completions request. The sampling fields are accepted so stock
// clients work, and ignored: the collection's settings govern generation.
// Fields fonte cannot honour (tools, audio…) are refused as unknown.
type ChatCompletionRequest struct {
	Model          string              `json:"model"`
	Messages       []ChatMessage       `json:"messages"`
	Stream         bool                `json:"stream"`
	StreamOptions  *ChatStreamOptions  `json:"stream_options"`
	N              *int                `json:"n"`
	ResponseFormat *ChatResponseFormat `json:"response_format"`

	// Accepted and ignored.
	Temperature         json.RawMessage `json:"temperature"`
	TopP                json.RawMessage `json:"top_p"`
	MaxTokens           json.RawMessage `json:"max_tokens"`
	MaxCompletionTokens json.RawMessage `json:"max_completion_tokens"`
	User                json.RawMessage `json:"user"`
	Seed                json.RawMessage `json:"seed"`
	Stop                json.RawMessage `json:"stop"`
	PresencePenalty     json.RawMessage `json:"presence_penalty"`
	FrequencyPenalty    json.RawMessage `json:"frequency_penalty"`
	LogitBias           json.RawMessage `json:"logit_bias"`
	Metadata            json.RawMessage `json:"metadata"`
	Store               json.RawMessage `json:"store"`
	ServiceTier         json.RawMessage `json:"service_tier"`
	ReasoningEffort     json.RawMessage `json:"reasoning_effort"`
	SafetyIdentifier    json.RawMessage `json:"safety_identifier"`
	PromptCacheKey      json.RawMessage `json:"prompt_cache_key"`
	ParallelToolCalls   json.RawMessage `json:"parallel_tool_calls"`
}

// ChatMessage is one message of a Chat Completions request. Content is a
// string or an array of {"type":"text","text":…} parts.
type ChatMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
	Name    string          `json:"name"`
}

// ChatStreamOptions are the stream_options of a request.
type ChatStreamOptions struct {
	IncludeUsage bool `json:"include_usage"`
	// Accepted and ignored: fonte does not obfuscate chunk sizes.
	IncludeObfuscation json.RawMessage `json:"include_obfuscation"`
}

// ChatResponseFormat is a request's response_format; only "text" is
// served (an answer with citations is prose).
type ChatResponseFormat struct {
	Type string `json:"type"`
}

// ChatCompletion is the response of POST /v1/chat/completions. Fonte
// carries the whole answer (citations with chunk ids, quotes,
// abstention, support) for clients that know fonte.
type ChatCompletion struct {
	ID      string       `json:"id"`
	Object  string       `json:"object"` // "chat.completion"
	Created int64        `json:"created"`
	Model   string       `json:"model"`
	Choices []ChatChoice `json:"choices"`
	Usage   ChatUsage    `json:"usage"`
	Fonte   wire.Answer  `json:"fonte"`
}

// ChatChoice is the single choice of a completion.
type ChatChoice struct {
	Index        int       `json:"index"`
	Message      ChatReply `json:"message"`
	FinishReason string    `json:"finish_reason"`
	Logprobs     *struct{} `json:"logprobs"` // always null
}

// ChatReply is the assistant message of a completion.
type ChatReply struct {
	Role    string  `json:"role"`
	Content string  `json:"content"`
	Refusal *string `json:"refusal"` // always null: an abstention is an answer
}

// ChatUsage counts tokens, estimated as fonte's context budget does
// (about four bytes a token): the engine does not get counts from every
// model server.
type ChatUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// ChatCompletionChunk is one `data:` event of a streamed completion.
type ChatCompletionChunk struct {
	ID      string            `json:"id"`
	Object  string            `json:"object"` // "chat.completion.chunk"
	Created int64             `json:"created"`
	Model   string            `json:"model"`
	Choices []ChatChunkChoice `json:"choices"`
	Usage   *ChatUsage        `json:"usage,omitempty"`
	// Fonte is set on the last chunk only.
	Fonte *wire.Answer `json:"fonte,omitempty"`
}

// ChatChunkChoice is the single choice of a chunk.
type ChatChunkChoice struct {
	Index        int       `json:"index"`
	Delta        ChatDelta `json:"delta"`
	FinishReason *string   `json:"finish_reason"`
}

// ChatDelta is what a chunk adds to the assistant message.
type ChatDelta struct {
	Role    string `json:"role,omitempty"`
	Content string `json:"content,omitempty"`
}

// chatTurn is a request's messages read as fonte reads them.
type chatTurn struct {
	question string
	history  []fonte.Message
}

// chatQuestion reads the question (the last message, which must be the
// user's) and the history (the earlier user and assistant turns) from
// msgs. System and developer messages are dropped: the collection's own
// prompt governs how it answers.
func chatQuestion(msgs []ChatMessage) (chatTurn, *Problem) {
	if len(msgs) == 0 {
		return chatTurn{}, fieldProblem("messages", "messages is required: at least one user message")
	}
	var t chatTurn
	for i, m := range msgs {
		field := fmt.Sprintf("messages[%d]", i)
		switch m.Role {
		case "user", "assistant", "system", "developer":
		case "":
			return chatTurn{}, fieldProblem(field+".role", "role is required")
		default:
			return chatTurn{}, fieldProblem(field+".role", "role must be system, developer, user or assistant (fonte calls no tools)")
		}
		text, p := messageText(m.Content, field+".content")
		if p != nil {
			return chatTurn{}, p
		}
		if i == len(msgs)-1 {
			if m.Role != "user" {
				return chatTurn{}, fieldProblem(field+".role", "the last message must be the user's question")
			}
			if strings.TrimSpace(text) == "" {
				return chatTurn{}, fieldProblem(field+".content", "the question is empty")
			}
			t.question = text
			break
		}
		if m.Role == "user" || m.Role == "assistant" {
			t.history = append(t.history, fonte.Message{Role: m.Role, Content: text})
		}
	}
	return t, nil
}

// messageText reads a message's content: a string, null, or an array of
// text parts (joined by newlines). Other parts (images, audio) are
// refused: the answer would silently ignore them.
func messageText(raw json.RawMessage, field string) (string, *Problem) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", fieldProblem(field, "content must be a string or an array of text parts")
		}
		return s, nil
	}
	if raw[0] != '[' {
		return "", fieldProblem(field, "content must be a string or an array of text parts")
	}
	var parts []json.RawMessage
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", fieldProblem(field, "content must be a string or an array of text parts")
	}
	var texts []string
	for j, pr := range parts {
		var part struct {
			Type string  `json:"type"`
			Text *string `json:"text"`
		}
		pf := fmt.Sprintf("%s[%d]", field, j)
		if err := json.Unmarshal(pr, &part); err != nil {
			return "", fieldProblem(pf, `a content part must be {"type":"text","text":"…"}`)
		}
		if part.Type != "text" {
			return "", fieldProblem(pf+".type", fmt.Sprintf("content part type %q: fonte reads text parts only", part.Type))
		}
		if part.Text == nil {
			return "", fieldProblem(pf+".text", "text is required")
		}
		texts = append(texts, *part.Text)
	}
	return strings.Join(texts, "\n"), nil
}

func (s *Server) handleChatCompletions(w http.ResponseWriter, r *http.Request) {
	var req ChatCompletionRequest
	if p := decode(w, r, &req); p != nil {
		writeProblem(w, *p)
		return
	}
	if req.Model == "" {
		writeProblem(w, *fieldProblem("model", "model is required: the name of a collection (GET /v1/models lists them)"))
		return
	}
	if req.N != nil && *req.N != 1 {
		writeProblem(w, *fieldProblem("n", "n must be 1: fonte gives one answer"))
		return
	}
	if req.ResponseFormat != nil && req.ResponseFormat.Type != "text" {
		writeProblem(w, *fieldProblem("response_format.type", "response_format.type must be text: an answer with citations is prose"))
		return
	}
	turn, p := chatQuestion(req.Messages)
	if p != nil {
		writeProblem(w, *p)
		return
	}
	// A global route: require checked the scope only, so the collection
	// is checked here, before whether it exists, as require does.
	g, ok := grantFor(r, ScopeRead, req.Model)
	if !ok {
		writeProblem(w, newProblem(http.StatusForbidden, "collection-forbidden",
			fmt.Sprintf("this token may not use collection %q", req.Model), "model"))
		return
	}
	c, err := s.reg.get(r.Context(), req.Model)
	if errors.Is(err, ErrNoCollection) {
		writeProblem(w, newProblem(http.StatusNotFound, "unknown-collection",
			fmt.Sprintf("there is no collection (model) %q; GET /v1/models lists them", req.Model), "model"))
		return
	}
	if err != nil {
		s.internal(w, r, err)
		return
	}
	o := engine.AskOptions{SearchOptions: engine.SearchOptions{Filter: g.filter()}, History: turn.history}
	id, created := completionID(), time.Now().Unix()
	if req.Stream {
		s.chatCompletionStream(w, r, c, turn.question, o, id, created, req.StreamOptions != nil && req.StreamOptions.IncludeUsage)
		return
	}
	a, err := c.Engine.Ask(r.Context(), turn.question, o)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	s.counted(c, a)
	text := a.Text + sourcesNote(a)
	writeJSON(w, http.StatusOK, ChatCompletion{ID: id, Object: "chat.completion", Created: created, Model: c.Name,
		Choices: []ChatChoice{{Message: ChatReply{Role: "assistant", Content: text}, FinishReason: "stop"}},
		Usage:   usage(a, text), Fonte: wire.FromAnswer(a, false)})
	auditAnswer(r, c.Name, turn.question, a)
}

// chatCompletionStream answers as OpenAI streams: data-only events, each a
// chat.completion.chunk, then `data: [DONE]`. The content deltas are the
// checked answer: a model's is held back until checked (answer.Hold),
// with a comment every keepAliveEvery meanwhile. A failure after the stream
// began is a `data: {"error": problem}` event (OpenAI SDKs raise it),
// then [DONE]: a client never sees a cut connection.
func (s *Server) chatCompletionStream(w http.ResponseWriter, r *http.Request, c *Collection, question string, o engine.AskOptions, id string, created int64, withUsage bool) {
	ev := &sse{w: w, rc: http.NewResponseController(w)}
	if err := ev.begin(); err != nil {
		return
	}
	chunk := func(d ChatDelta, finish *string) ChatCompletionChunk {
		return ChatCompletionChunk{ID: id, Object: "chat.completion.chunk", Created: created, Model: c.Name,
			Choices: []ChatChunkChoice{{Delta: d, FinishReason: finish}}}
	}
	_ = ev.data(chunk(ChatDelta{Role: "assistant"}, nil))
	deltas := 0
	o.OnDelta = func(t string) {
		if t == "" {
			return
		}
		deltas++
		_ = ev.data(chunk(ChatDelta{Content: t}, nil))
	}
	quiet := ev.keepAlive(keepAliveEvery)
	a, err := c.Engine.Ask(r.Context(), question, o)
	quiet()
	if err != nil {
		s.logFailure(r, err)
		_ = ev.data(struct {
			Error Problem `json:"error"`
		}{s.internalProblem(r, err)})
		_ = ev.done()
		return
	}
	s.counted(c, a)
	// An abstention, or an answerer that does not stream, sent no delta.
	if deltas == 0 && a.Text != "" {
		_ = ev.data(chunk(ChatDelta{Content: a.Text}, nil))
	}
	note := sourcesNote(a)
	if note != "" {
		_ = ev.data(chunk(ChatDelta{Content: note}, nil))
	}
	stop := "stop"
	last := chunk(ChatDelta{}, &stop)
	j := wire.FromAnswer(a, false)
	last.Fonte = &j
	if withUsage {
		u := usage(a, a.Text+note)
		last.Usage = &u
	}
	_ = ev.data(last)
	_ = ev.done()
	auditAnswer(r, c.Name, question, a)
}

// data sends v as a data-only event, as OpenAI's streams carry them.
func (e *sse) data(v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return e.raw("data: " + string(raw) + "\n\n")
}

// done ends an OpenAI stream.
func (e *sse) done() error { return e.raw("data: [DONE]\n\n") }

func (e *sse) raw(s string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, err := fmt.Fprint(e.w, s); err != nil {
		return err
	}
	return e.rc.Flush()
}

var citeMark = regexp.MustCompile(`\[(\d+)\]`)

// sourcesNote is what follows the answer in a completion's text, for a
// reader who sees only the text, in the question's language: the notice,
// then the cited sources, or for an abstention the word that the
// documents do not answer, with the nearest sources.
func sourcesNote(a *fonte.Answer) string {
	var b strings.Builder
	cited := map[int]bool{}
	for _, m := range citeMark.FindAllStringSubmatch(a.Text, -1) {
		n, _ := strconv.Atoi(m[1])
		cited[n] = true
	}
	msgs := answer.MessagesFor(a.Lang)
	if a.Notice != "" {
		b.WriteString("\n\n" + a.Notice)
	}
	if a.Abstained {
		fmt.Fprintf(&b, "\n\n"+msgs.NotAnswered, a.Relevance)
		if len(a.Citations) > 0 {
			b.WriteString(" " + msgs.Nearest)
		}
	} else if len(cited) > 0 {
		b.WriteString("\n\n" + msgs.Sources)
	}
	for _, c := range a.Citations {
		if !a.Abstained && !cited[c.N] {
			continue
		}
		fmt.Fprintf(&b, "\n[%d] %s", c.N, c.Title)
		if len(c.Headings) > 0 {
			b.WriteString(wire.HeadingSep + strings.Join(c.Headings, wire.HeadingSep))
		}
		fmt.Fprintf(&b, " (%s)", c.DocID)
	}
	return b.String()
}

// usage estimates the token counts of an answer whose completion text is
// text (the question alone when no prompt was sent, as for an
// abstention below the floor).
func usage(a *fonte.Answer, text string) ChatUsage {
	prompt := a.Prompt
	if prompt == "" {
		prompt = a.Question
	}
	u := ChatUsage{PromptTokens: answer.Tokens(prompt), CompletionTokens: answer.Tokens(text)}
	u.TotalTokens = u.PromptTokens + u.CompletionTokens
	return u
}

// completionID is a fresh "chatcmpl-…" id.
func completionID() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return "chatcmpl-" + hex.EncodeToString(b)
}
