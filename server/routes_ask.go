package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/wire"
)

// Message is one turn of a conversation.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// AskRequest is the body of POST /v1/ask and POST /v1/chat.
type AskRequest struct {
	Question string    `json:"question"`
	History  []Message `json:"history"`
	K        *int      `json:"k"`
	// Floor overrides the abstain floor: 0 or absent keeps the server's,
	// negative never abstains.
	Floor     float64  `json:"floor"`
	Filters   *Filters `json:"filters"`
	Retriever string   `json:"retriever"`
	// Trace adds each stage's time and intermediate results to the
	// answer: "why this answer".
	Trace bool `json:"trace"`
}

// AskResponse is what POST /v1/ask returns: the object of `fonte ask
// --json`, and the trace when asked for.
type AskResponse struct {
	wire.Answer
	Trace *engine.Trace `json:"trace,omitempty"`
}

// ChatResponse is what POST /v1/chat returns: the answer (whose query is
// the standalone rewrite of the question) and the history to send with
// the next turn.
type ChatResponse struct {
	wire.Answer
	History []Message     `json:"history"`
	Trace   *engine.Trace `json:"trace,omitempty"`
}

func (s *Server) handleAsk(w http.ResponseWriter, r *http.Request)  { s.ask(w, r, false) }
func (s *Server) handleChat(w http.ResponseWriter, r *http.Request) { s.ask(w, r, true) }

func (s *Server) ask(w http.ResponseWriter, r *http.Request, chat bool) {
	var req AskRequest
	if p := decode(w, r, &req); p != nil {
		writeProblem(w, *p)
		return
	}
	if strings.TrimSpace(req.Question) == "" {
		writeProblem(w, *fieldProblem("question", "question is required"))
		return
	}
	if req.Floor > 1 {
		writeProblem(w, *fieldProblem("floor", "floor must be at most 1 (a relevance share; negative never abstains)"))
		return
	}
	so, p := searchOptions(r, req.K, req.Filters, req.Retriever)
	if p != nil {
		writeProblem(w, *p)
		return
	}
	o := engine.AskOptions{SearchOptions: so, Floor: req.Floor}
	if req.Trace {
		o.Trace = &engine.Trace{}
	}
	for i, m := range req.History {
		if m.Role != "user" && m.Role != "assistant" {
			writeProblem(w, *fieldProblem(fmt.Sprintf("history[%d].role", i), "role must be user or assistant"))
			return
		}
		o.History = append(o.History, fonte.Message{Role: m.Role, Content: m.Content})
	}
	c, ok := s.collection(w, r)
	if !ok {
		return
	}
	if strings.Contains(r.Header.Get("Accept"), "text/event-stream") {
		s.askStream(w, r, c, req, o, chat)
		return
	}
	a, err := c.Engine.Ask(r.Context(), req.Question, o)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	s.counted(c, a)
	writeJSON(w, http.StatusOK, result(a, req.History, chat, visibleTrace(r, o.Trace)))
	auditAnswer(r, c.Name, req.Question, a)
}

// result is the JSON body of an answer: the CLI's object for ask, with the
// next turn's history for chat, and the trace when there is one.
func result(a *fonte.Answer, history []Message, chat bool, tr *engine.Trace) any {
	j := wire.FromAnswer(a, false)
	if !chat {
		return AskResponse{Answer: j, Trace: tr}
	}
	// The standalone query stands in for the user's turn, so a chain of
	// follow-ups keeps its subject (as `fonte chat` does).
	h := append(append([]Message{}, history...), Message{Role: "user", Content: a.Query}, Message{Role: "assistant", Content: a.Text})
	return ChatResponse{Answer: j, History: h, Trace: tr}
}

// visibleTrace is the trace as the caller may see it: the prompt (which
// holds the collection's instructions) only for admin tokens. Every
// passage in it came through the caller's access filter already.
func visibleTrace(r *http.Request, tr *engine.Trace) *engine.Trace {
	if tr != nil && grantOf(r).scope != ScopeAdmin {
		tr.Prompt = ""
	}
	return tr
}

func (s *Server) counted(c *Collection, a *fonte.Answer) {
	if a.Abstained {
		s.metrics.abstentions.WithLabelValues(c.Name).Inc()
	}
}

// sse writes Server-Sent Events, one at a time, flushing each.
type sse struct {
	mu sync.Mutex
	w  http.ResponseWriter
	rc *http.ResponseController
}

// begin sends the headers and a comment line, so a client sees the
// stream open while retrieval runs.
func (e *sse) begin() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	h := e.w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no") // proxies must not hold tokens back
	e.w.WriteHeader(http.StatusOK)
	if _, err := fmt.Fprint(e.w, ": fonte\n\n"); err != nil {
		return err
	}
	return e.rc.Flush()
}

func (e *sse) send(event string, v any) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(e.w, "event: %s\ndata: %s\n\n", event, data); err != nil {
		return err
	}
	return e.rc.Flush()
}

// keepAliveEvery is how often a stream sends a comment while the answer
// is held back to be checked (see answer.Hold): a model's whole answer
// can take a minute on a CPU, and proxies close a connection idle for
// about that long (nginx's proxy_read_timeout is 60 s).
const keepAliveEvery = 15 * time.Second

// keepAlive sends an SSE comment, which clients ignore, every interval
// until the returned stop is called; stop returns once nothing more will
// be written.
func (e *sse) keepAlive(every time.Duration) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				if e.raw(": checking the answer\n\n") != nil {
					return
				}
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
	}
}

// tokenEvent is the data of an `event: token`.
type tokenEvent struct {
	Text string `json:"text"`
}

// askStream answers as Server-Sent Events: token… citations, done. The
// tokens are the checked answer: a model's is held back until checked
// (answer.Hold), with a comment every keepAliveEvery meanwhile. Once the
// stream has begun an error is an `event: error` carrying a problem, so a
// client can tell a failure from a dropped connection.
func (s *Server) askStream(w http.ResponseWriter, r *http.Request, c *Collection, req AskRequest, o engine.AskOptions, chat bool) {
	ev := &sse{w: w, rc: http.NewResponseController(w)}
	if err := ev.begin(); err != nil {
		return
	}
	deltas := 0
	o.OnDelta = func(t string) {
		if t == "" {
			return
		}
		deltas++
		_ = ev.send("token", tokenEvent{Text: t})
	}
	quiet := ev.keepAlive(keepAliveEvery)
	a, err := c.Engine.Ask(r.Context(), req.Question, o)
	quiet()
	if err != nil {
		s.logFailure(r, err)
		_ = ev.send("error", s.internalProblem(r, err))
		return
	}
	s.counted(c, a)
	if deltas == 0 && a.Text != "" {
		_ = ev.send("token", tokenEvent{Text: a.Text})
	}
	_ = ev.send("citations", wire.Citations(a.Citations))
	_ = ev.send("done", result(a, req.History, chat, visibleTrace(r, o.Trace)))
	auditAnswer(r, c.Name, req.Question, a)
}
