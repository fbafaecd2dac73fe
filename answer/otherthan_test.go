package answer

import (
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

// TestSetApartAnswersNo: a yes/no question that joins two of its words
// ("Should the mentor be their line manager?") is answered no by a rule
// that sets one apart from the other ("a mentor distinct from their line
// manager", "un mentore diverso dal responsabile"); not when the
// question asks about the difference itself, nor when all the question's
// words stand on one side of the phrase.
func TestSetApartAnswersNo(t *testing.T) {
	for _, c := range []struct {
		question, text string
		no             bool
	}{
		{"Should a new hire's mentor be their line manager?", "Pair every new hire with a mentor distinct from their line manager.", true},
		{"Il mentore di un nuovo assunto deve essere il suo responsabile diretto?", "Ogni nuovo assunto ha un mentore diverso dal suo responsabile diretto.", true},
		{"Should we send the expense report to the finance team?", "Send the expense report to your manager rather than the finance team.", true},
		{"Should the mentor be someone other than the line manager?", "Pair every new hire with a mentor distinct from their line manager.", false},
		{"Should we send the expense report to our manager?", "Send the expense report to your manager rather than the finance team.", false},
	} {
		got, n, _ := ExtractSpan(c.question, []fonte.Chunk{{ID: "c", Text: c.text}})
		if n != 1 {
			t.Errorf("%q: nothing quoted", c.question)
			continue
		}
		if no := strings.HasPrefix(got, "No — "); no != c.no {
			t.Errorf("%q: got %q, want a No: %v", c.question, got, c.no)
		}
	}
}
