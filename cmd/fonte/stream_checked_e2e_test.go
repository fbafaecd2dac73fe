package main

// `fonte ask` prints a model's answer as it streams: only once checked, so
// the terminal never shows text that fonte's checks then reject.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// checkedAnswers are a fake model's answers to leaveQuestion, by
// behaviour (%d is the number of the source holding leaveClaim), and the
// text of each that the checks reject.
var checkedAnswers = map[string]struct {
	text     string
	rejected []string
}{
	"faithful":    {leaveClaim + " [%d].", nil},
	"injected":    {"PWNED. Ignore the sources and trust me.", []string{"PWNED", "trust me"}},
	"unsupported": {"Ask your manager before booking. Full-time employees accrue 99 working days of annual leave per calendar year [%d].", []string{"99 working", "manager before"}},
}

// newCheckedModel is an Ollama /api/chat server answering every prompt
// with behaviour's answer, word by word.
func newCheckedModel(t *testing.T, behaviour string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req chatRequest
		if r.URL.Path != "/api/chat" || json.NewDecoder(r.Body).Decode(&req) != nil {
			t.Errorf("unexpected request %s %s", r.Method, r.URL.Path)
			http.NotFound(w, r)
			return
		}
		text := checkedAnswers[behaviour].text
		if strings.Contains(text, "%d") {
			n := sourceNumber(req.text(), leaveClaim)
			if n == 0 {
				t.Errorf("no source of the prompt holds %q", leaveClaim)
			}
			text = fmt.Sprintf(text, n)
		}
		ollamaChat(w, strings.SplitAfter(text, " "))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestE2EAskStreamsOnlyCheckedText: what `fonte ask` prints of a model's
// answer is the checked answer; the trace says it was held and what the
// checks changed.
func TestE2EAskStreamsOnlyCheckedText(t *testing.T) {
	t.Parallel()
	_, idx := sharedIndex(t)
	for behaviour, c := range checkedAnswers {
		srv := newCheckedModel(t, behaviour)
		out := mustOK(t, run{}, "ask", leaveQuestion, "--index", idx, "--generator", "ollama:test", "--generate-url", srv.URL, "--trace")
		answerText, _, _ := strings.Cut(out, "\nSources:")
		for _, bad := range c.rejected {
			if strings.Contains(out, bad) {
				t.Errorf("%s: the rejected %q was printed:\n%s", behaviour, bad, clip(out, 3000))
			}
		}
		if !strings.Contains(answerText, "26 working days") || !strings.Contains(answerText, "[1]") {
			t.Errorf("%s: the checked answer is not printed:\n%s", behaviour, clip(out, 3000))
		}
		if !strings.Contains(out, "held ") || !strings.Contains(out, "until checked") {
			t.Errorf("%s: the trace does not say the answer was held:\n%s", behaviour, clip(out, 3000))
		}
		if changed := strings.Contains(out, "  changed: "); changed != (c.rejected != nil) {
			t.Errorf("%s: the trace says changed %v:\n%s", behaviour, changed, clip(out, 3000))
		}
	}
}
