package engine

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/fonte-rag/fonte/answer"
	"github.com/fonte-rag/fonte/eval"
)

// The fake model servers below answer fonte's real prompts the way a
// model of a known behaviour would, over the real wire formats of
// Ollama's /api/chat (newline-delimited JSON) and OpenAI's
// /v1/chat/completions (server-sent events). The model name picks the
// behaviour:
const (
	// behaveFaithful answers with the question's reference answer (a
	// human paraphrase), citing the source that holds a gold quote.
	behaveFaithful = "faithful"
	// behaveWrongPassage answers from a wrong passage: a sentence of one
	// non-gold source, citing another non-gold source.
	behaveWrongPassage = "wrong-passage"
	// behaveChangedFigure answers with the reference answer, citing the
	// gold source, with its first figure changed to one that source does
	// not hold.
	behaveChangedFigure = "changed-figure"
	// behaveFailMidStream starts the faithful answer and then reports an
	// error inside the stream, as a server does when the model crashes or
	// runs out of memory while generating.
	behaveFailMidStream = "fails-mid-stream"
)

// midStreamError is the message behaveFailMidStream sends.
const midStreamError = "model runner has unexpectedly stopped"

// modelReply is what the fake model said to one prompt, for the test to
// compare with what fonte made of it.
type modelReply struct {
	Text string
	// Cited is the source number the reply cites (0 when none).
	Cited int
	// GoldMissing is set when no source of the prompt held a gold quote
	// (a faithful reply then cites source 1).
	GoldMissing bool
	// Inapplicable is set when the behaviour could not be played (no
	// figure in the reference, no two non-gold sources); the reply is
	// then the faithful one and is not counted.
	Inapplicable bool
}

// fakeModel holds the questions it knows and what it answered.
type fakeModel struct {
	questions map[string]eval.Question // by question text
	mu        sync.Mutex
	replies   map[string]modelReply // by behaviour + "\x00" + question
	requests  int
}

func newFakeModel(qs []eval.Question) *fakeModel {
	m := &fakeModel{questions: map[string]eval.Question{}, replies: map[string]modelReply{}}
	for _, q := range qs {
		m.questions[q.Question] = q
	}
	return m
}

// reply returns the last reply of behaviour to question, and whether
// there was one (fonte may abstain without asking the model).
func (m *fakeModel) reply(behaviour, question string) (modelReply, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.replies[behaviour+"\x00"+question]
	return r, ok
}

// forget drops the replies recorded so far.
func (m *fakeModel) forget() {
	m.mu.Lock()
	m.replies = map[string]modelReply{}
	m.mu.Unlock()
}

// promptSource is one fenced source of a prompt: its number and text
// (the lines after its "[n] label" line).
type promptSource struct {
	N           int
	Label, Text string
}

var fenceOpenRe = regexp.MustCompile(`(?m)^<<<SOURCE (\d+) ([0-9a-f]+)>>>$`)

// parsePrompt reads the question and the numbered sources of a prompt
// built by answer.DefaultTemplate.
func parsePrompt(prompt string) (question string, sources []promptSource, err error) {
	i := strings.LastIndex(prompt, "\nQuestion: ")
	if i < 0 {
		return "", nil, fmt.Errorf("no \"Question: \" line in the prompt")
	}
	question = prompt[i+len("\nQuestion: "):]
	for _, m := range fenceOpenRe.FindAllStringSubmatchIndex(prompt, -1) {
		n, _ := strconv.Atoi(prompt[m[2]:m[3]])
		end := "\n<<<END " + prompt[m[2]:m[3]] + " " + prompt[m[4]:m[5]] + ">>>"
		body, _, ok := strings.Cut(prompt[m[1]+1:], end)
		if !ok {
			return "", nil, fmt.Errorf("source %d has no closing fence", n)
		}
		label, text, _ := strings.Cut(body, "\n") // the "[n] label" line, then the text
		sources = append(sources, promptSource{N: n, Label: label, Text: text})
	}
	if len(sources) == 0 {
		return "", nil, fmt.Errorf("no fenced source in the prompt")
	}
	return question, sources, nil
}

// squash lower-cases s and collapses its white space, as gold quotes are
// matched.
func squash(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// goldSources returns the numbers of the sources holding one of q's gold
// quotes.
func goldSources(q eval.Question, sources []promptSource) []int {
	var out []int
	for _, s := range sources {
		if isGoldText(q, s.Text) {
			out = append(out, s.N)
		}
	}
	return out
}

func isGoldText(q eval.Question, text string) bool {
	t := squash(text)
	for _, g := range q.Gold {
		if strings.Contains(t, squash(g.Quote)) {
			return true
		}
	}
	return false
}

// answerFor plays behaviour on the prompt's question and sources.
func (m *fakeModel) answerFor(behaviour, prompt string) (modelReply, error) {
	question, sources, err := parsePrompt(prompt)
	if err != nil {
		return modelReply{}, err
	}
	q, ok := m.questions[question]
	if !ok {
		return modelReply{}, fmt.Errorf("the fake model knows no question %q", question)
	}
	// A faithful model cites every source holding a gold quote, as the
	// prompt asks ("When several sources support a claim, cite each one").
	gold := goldSources(q, sources)
	faithful := modelReply{}
	if len(gold) == 0 {
		gold, faithful.GoldMissing = []int{1}, true
	}
	faithful.Cited = gold[0]
	faithful.Text = citeEach(q.Answer, gold...)
	r := faithful
	switch behaviour {
	case behaveFaithful, behaveFailMidStream:
	case behaveChangedFigure:
		r = changedFigure(q.Question, q.Answer, faithful, sources)
	case behaveWrongPassage:
		r = wrongPassage(q, sources, faithful)
	default:
		return modelReply{}, fmt.Errorf("unknown behaviour %q", behaviour)
	}
	m.mu.Lock()
	m.replies[behaviour+"\x00"+question] = r
	m.requests++
	m.mu.Unlock()
	return r, nil
}

// citeEach puts the markers [n] of sources at the end of every sentence
// of text, as the prompt asks a model to ("After each claim, cite the
// source"); a piece of fewer than three words (an abbreviation's "e.g."
// cut off by answer.Sentences) is joined to the next.
func citeEach(text string, sources ...int) string {
	var out []string
	pending := ""
	for _, s := range answer.Sentences(text) {
		if pending != "" {
			s, pending = pending+" "+s, ""
		}
		if len(strings.Fields(s)) < 3 {
			pending = s
			continue
		}
		out = append(out, citeSentence(s, sources))
	}
	if pending != "" {
		out = append(out, citeSentence(pending, sources))
	}
	return strings.Join(out, " ")
}

// citeSentence puts the markers before a sentence's final stop, or at
// its end.
func citeSentence(s string, sources []int) string {
	mark := " "
	for _, n := range sources {
		mark += fmt.Sprintf("[%d]", n)
	}
	if k := len(s) - 1; k >= 0 && strings.ContainsRune(".!?", rune(s[k])) {
		return s[:k] + mark + s[k:]
	}
	return s + mark
}

var figureRe = regexp.MustCompile(`\d+(?:[.,]\d+)*`)

// changedFigure returns the faithful reply with the reference's first
// figure changed to a nearby value that neither the cited source nor the
// question holds (so the change is a fact the passage does not state).
func changedFigure(question, reference string, faithful modelReply, sources []promptSource) modelReply {
	loc := figureRe.FindStringIndex(reference)
	if loc == nil || faithful.GoldMissing {
		faithful.Inapplicable = true
		return faithful
	}
	cited := ""
	for _, s := range sources {
		if s.N == faithful.Cited {
			cited = question + "\n" + s.Label + "\n" + s.Text
		}
	}
	held := map[string]bool{}
	for _, f := range figureRe.FindAllString(cited, -1) {
		held[strings.NewReplacer(".", "", ",", "").Replace(f)] = true
		for _, part := range strings.FieldsFunc(f, func(r rune) bool { return r == '.' || r == ',' }) {
			held[strings.TrimLeft(part, "0")] = true
		}
	}
	digits := strings.NewReplacer(".", "", ",", "").Replace(reference[loc[0]:loc[1]])
	n, err := strconv.Atoi(digits)
	if err != nil || strings.ContainsAny(reference[loc[0]:loc[1]], ".,") {
		// A decimal or grouped figure: change its last digit.
		f := []byte(reference[loc[0]:loc[1]])
		f[len(f)-1] = '0' + (f[len(f)-1]-'0'+3)%10
		r := faithful
		r.Text = citeEach(reference[:loc[0]]+string(f)+reference[loc[1]:], faithful.Cited)
		return r
	}
	for _, c := range []int{n + 1, n + 2, n * 2, n + 10, n*3 + 7} {
		if !held[strconv.Itoa(c)] {
			r := faithful
			r.Text = citeEach(reference[:loc[0]]+strconv.Itoa(c)+reference[loc[1]:], faithful.Cited)
			return r
		}
	}
	faithful.Inapplicable = true
	return faithful
}

// wrongPassage answers from a non-gold source F: its sentence sharing
// most words with the question (a model that picked the wrong passage),
// cited as another non-gold source W that does not contain it (the
// first such, in the prompt's order).
func wrongPassage(q eval.Question, sources []promptSource, faithful modelReply) modelReply {
	want := wordSet(q.Question)
	var from promptSource
	best, sentence := -1, ""
	for _, s := range sources {
		if isGoldText(q, s.Text) {
			continue
		}
		for _, sen := range answer.Sentences(s.Text) {
			sen = strings.TrimLeft(sen, "-*#>|0123456789.) ")
			if len(strings.Fields(sen)) < 4 {
				continue
			}
			shared := 0
			for w := range wordSet(sen) {
				if want[w] {
					shared++
				}
			}
			if shared > best {
				best, sentence, from = shared, sen, s
			}
		}
	}
	if sentence == "" {
		faithful.Inapplicable = true
		return faithful
	}
	if f := strings.Fields(sentence); len(f) > 30 {
		sentence = strings.Join(f[:30], " ") + "."
	}
	for _, s := range sources {
		if s.N == from.N || isGoldText(q, s.Text) || strings.Contains(squash(s.Text), squash(sentence)) {
			continue
		}
		return modelReply{Text: citeEach(sentence, s.N), Cited: s.N}
	}
	faithful.Inapplicable = true
	return faithful
}

// wordSet is the set of lower-cased words of s longer than three letters.
func wordSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len([]rune(w)) > 3 {
			out[w] = true
		}
	}
	return out
}

// pieces splits text into the deltas a server streams: a few words each.
func pieces(text string) []string {
	var out []string
	words := strings.SplitAfter(text, " ")
	for i := 0; i < len(words); i += 3 {
		out = append(out, strings.Join(words[i:min(i+3, len(words))], ""))
	}
	return out
}

// chatRequest is the part of both servers' request bodies the fake reads.
type chatRequest struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	Messages []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
}

// knownBehaviour reports whether name is a behaviour of the fake model.
func knownBehaviour(name string) bool {
	return name == behaveFaithful || name == behaveWrongPassage || name == behaveChangedFigure || name == behaveFailMidStream
}

// ollamaServer serves POST /api/chat as Ollama does: a stream of JSON
// lines, each with a piece of the message, then a line with "done": true,
// the done_reason and the token counts; {"error": "..."} with status 404
// for a model it does not have and 400 for a malformed request.
func (m *fakeModel) ollamaServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fail := func(status int, msg string) {
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			w.WriteHeader(status)
			json.NewEncoder(w).Encode(map[string]string{"error": msg})
		}
		if r.Method != http.MethodPost || r.URL.Path != "/api/chat" {
			fail(http.StatusNotFound, "404 page not found")
			return
		}
		var req chatRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Messages) == 0 {
			fail(http.StatusBadRequest, "invalid request body")
			return
		}
		if !knownBehaviour(req.Model) {
			fail(http.StatusNotFound, fmt.Sprintf("model %q not found, try pulling it first", req.Model))
			return
		}
		if !req.Stream {
			// The servers would answer in one object; fonte always streams.
			t.Errorf("fonte asked %s for an answer without streaming", r.URL.Path)
		}
		rep, err := m.answerFor(req.Model, req.Messages[len(req.Messages)-1].Content)
		if err != nil {
			fail(http.StatusBadRequest, err.Error())
			return
		}
		now := time.Now().UTC().Format(time.RFC3339Nano)
		final := map[string]any{"model": req.Model, "created_at": now,
			"message": map[string]string{"role": "assistant", "content": ""}, "done": true, "done_reason": "stop",
			"total_duration": 1000, "prompt_eval_count": answer.Tokens(req.Messages[0].Content), "eval_count": answer.Tokens(rep.Text)}
		w.Header().Set("Content-Type", "application/x-ndjson")
		enc := json.NewEncoder(w)
		for i, p := range pieces(rep.Text) {
			if i == 1 && req.Model == behaveFailMidStream {
				enc.Encode(map[string]string{"error": midStreamError})
				return
			}
			enc.Encode(map[string]any{"model": req.Model, "created_at": now,
				"message": map[string]string{"role": "assistant", "content": p}, "done": false})
		}
		enc.Encode(final)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// openAIServer serves POST /v1/chat/completions as an OpenAI-compatible
// server does with "stream": true: server-sent events carrying
// chat.completion.chunk objects (a role delta, content deltas, a
// finish_reason, a usage chunk with empty choices), then "data: [DONE]";
// an error object with status 404 for an unknown model and 400 for a bad
// request.
func (m *fakeModel) openAIServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fail := func(status int, msg, typ, code string) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": code}})
		}
		if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
			fail(http.StatusNotFound, "Unknown request URL: "+r.Method+" "+r.URL.Path, "invalid_request_error", "unknown_url")
			return
		}
		var req chatRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Messages) == 0 {
			fail(http.StatusBadRequest, "We could not parse the JSON body of your request.", "invalid_request_error", "")
			return
		}
		if !knownBehaviour(req.Model) {
			fail(http.StatusNotFound, fmt.Sprintf("The model `%s` does not exist or you do not have access to it.", req.Model), "invalid_request_error", "model_not_found")
			return
		}
		if !req.Stream {
			t.Errorf("fonte asked %s for an answer without streaming", r.URL.Path)
		}
		rep, err := m.answerFor(req.Model, req.Messages[len(req.Messages)-1].Content)
		if err != nil {
			fail(http.StatusBadRequest, err.Error(), "invalid_request_error", "")
			return
		}
		usage := map[string]int{"prompt_tokens": answer.Tokens(req.Messages[0].Content), "completion_tokens": answer.Tokens(rep.Text),
			"total_tokens": answer.Tokens(req.Messages[0].Content) + answer.Tokens(rep.Text)}
		w.Header().Set("Content-Type", "text/event-stream")
		event := func(v any) {
			b, _ := json.Marshal(v)
			fmt.Fprintf(w, "data: %s\n\n", b)
		}
		chunk := func(delta map[string]any, finish any) map[string]any {
			return map[string]any{"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": time.Now().Unix(), "model": req.Model,
				"choices": []any{map[string]any{"index": 0, "delta": delta, "logprobs": nil, "finish_reason": finish}}, "usage": nil}
		}
		event(chunk(map[string]any{"role": "assistant", "content": ""}, nil))
		for i, p := range pieces(rep.Text) {
			if i == 1 && req.Model == behaveFailMidStream {
				event(map[string]any{"error": map[string]any{"message": midStreamError, "type": "server_error", "param": nil, "code": nil}})
				return
			}
			event(chunk(map[string]any{"content": p}, nil))
		}
		event(chunk(map[string]any{}, "stop"))
		event(map[string]any{"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": time.Now().Unix(), "model": req.Model,
			"choices": []any{}, "usage": usage})
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv
}
