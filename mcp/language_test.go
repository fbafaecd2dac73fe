package mcp

import (
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// testAbstainLanguages: the answer of an abstention is in the question's
// language, for the user; the instruction around it is the agent's.
func testAbstainLanguages(t *testing.T, cs *sdk.ClientSession) {
	for _, c := range []struct{ lang, question, dontKnow string }{
		{"it", "Cosa c'è nel menu della mensa oggi?", "Non lo so."},
		{"en", "What is on the canteen menu today?", "I don't know."},
	} {
		var out AskOutput
		res := call(t, cs, "ask", map[string]any{"question": c.question}, &out)
		if !out.Abstained || out.Answer != c.dontKnow || out.Lang != c.lang {
			t.Errorf("%q: abstained %v, answer %q, lang %q", c.question, out.Abstained, out.Answer, out.Lang)
		}
		if txt := text(res); !strings.Contains(txt, "ABSTAINED") || !strings.Contains(txt, "\n"+c.dontKnow+"\n") {
			t.Errorf("%q: text content\n%s", c.question, txt)
		}
	}
}

// testNotice: an Italian question answered only by an English document
// carries the notice, in the structured result and first in the text.
func testNotice(t *testing.T, cs *sdk.ClientSession) {
	const notice = "Non ho trovato nulla in italiano: i passaggi trovati sono in inglese."
	var out AskOutput
	res := call(t, cs, "ask", map[string]any{"question": "Qual è il limite per l'hotel a London?"}, &out)
	if out.Notice != notice || len(out.Citations) == 0 || out.Citations[0].Doc != "finance/travel-and-expenses-policy.pdf" {
		t.Errorf("notice %q, citations %+v", out.Notice, out.Citations)
	}
	if !strings.HasPrefix(text(res), "NOTICE (tell the user): "+notice+"\n") {
		t.Errorf("text content\n%s", text(res))
	}
}
