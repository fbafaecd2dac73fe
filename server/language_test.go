package server_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"

	"github.com/fonte-rag/fonte/server"
	"github.com/fonte-rag/fonte/wire"
)

// Questions the example handbook does not answer, and what the API says
// in each one's language.
var abstentions = []struct {
	lang, question, dontKnow, note, other string
}{
	{"it", "Cosa c'è nel menu della mensa oggi?", "Non lo so.", "I documenti non sembrano rispondere a questa domanda", "The documents"},
	{"en", "What is on the canteen menu today?", "I don't know.", "The documents do not seem to answer this", "I documenti"},
}

// /v1/ask, /v1/chat (JSON and stream) and /v1/chat/completions abstain in
// the question's language.
func TestAbstainsInTheQuestionsLanguage(t *testing.T) {
	ts := start(t, config{})
	for _, c := range abstentions {
		for _, path := range []string{"/v1/ask", "/v1/chat"} {
			status, body, _ := ts.call(t, "POST", path, readToken, map[string]any{"question": c.question})
			var a wire.Answer
			if err := json.Unmarshal(body, &a); status != 200 || err != nil {
				t.Fatalf("%s %q: status %d, %v: %s", path, c.question, status, err, body)
			}
			if !a.Abstained || a.Answer != c.dontKnow || a.Lang != c.lang {
				t.Errorf("%s %q: abstained %v, answer %q, lang %q", path, c.question, a.Abstained, a.Answer, a.Lang)
			}
		}
		_, events := ts.stream(t, "/v1/chat", map[string]any{"question": c.question})
		var done server.ChatResponse
		if len(events) == 0 || events[len(events)-1].name != "done" {
			t.Fatalf("stream %q: events %+v", c.question, events)
		}
		if err := json.Unmarshal([]byte(events[len(events)-1].data), &done); err != nil || done.Answer.Answer != c.dontKnow ||
			len(done.History) != 2 || done.History[1].Content != c.dontKnow {
			t.Errorf("stream %q: done %s (%v)", c.question, events[len(events)-1].data, err)
		}

		resp, err := openaiClient(ts.url, readToken).Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
			Model: "default", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(c.question)}})
		if err != nil {
			t.Fatal(err)
		}
		text := resp.Choices[0].Message.Content
		if !strings.HasPrefix(text, c.dontKnow) || !strings.Contains(text, c.note) || strings.Contains(text, c.other) {
			t.Errorf("completion %q (%s): %q", c.question, c.lang, text)
		}
		if a := fonteOf(t, resp.RawJSON()); !a.Abstained || a.Lang != c.lang {
			t.Errorf("completion %q: fonte extension abstained %v, lang %q", c.question, a.Abstained, a.Lang)
		}
	}
}

// An Italian question answered only by an English document: the notice
// comes back in the answer, and in a completion's text.
func TestNoticeAcrossLanguages(t *testing.T) {
	ts := start(t, config{})
	const q = "Qual è il limite per l'hotel a London?"
	const notice = "Non ho trovato nulla in italiano: i passaggi trovati sono in inglese."
	_, body, _ := ts.call(t, "POST", "/v1/ask", readToken, map[string]any{"question": q})
	var a wire.Answer
	if err := json.Unmarshal(body, &a); err != nil || a.Notice != notice || !a.Abstained || len(a.Citations) == 0 ||
		a.Citations[0].Doc != "finance/travel-and-expenses-policy.pdf" {
		t.Errorf("ask %q: %s (%v)", q, body, err)
	}
	resp, err := openaiClient(ts.url, readToken).Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
		Model: "default", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(q)}})
	if err != nil {
		t.Fatal(err)
	}
	if text := resp.Choices[0].Message.Content; !strings.Contains(text, notice) || !strings.Contains(text, "Fonti più vicine:") {
		t.Errorf("completion %q: %q", q, text)
	}
}
