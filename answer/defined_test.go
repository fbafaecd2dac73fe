package answer

import (
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

func TestDefinedTerm(t *testing.T) {
	want := ContentKeys("Who is the reviewer in the project team?")
	for s, term := range map[string]int{
		"- reviewer: the person who checks a change before it is merged.": 1,
		"- project maintainer: a member who may merge changes.":           -1, // "maintainer" is not asked about
		"- reviewer of the week: whoever is on call.":                     -1,
		"The reviewer checks a change before it is merged.":               0, // no label
		"Role: reviewer | Team: project":                                  0, // a table row
	} {
		if got := definedTerm(s, want); got != term {
			t.Errorf("definedTerm(%q) = %d, want %d", s, got, term)
		}
	}
}

// The glossary item labelled with the term asked answers, although a
// neighbouring item shares more of the question's words.
func TestGlossaryItemOfTheAskedTerm(t *testing.T) {
	c := fonte.Chunk{ID: "c1", Text: "- project maintainer: a member of the project team who may merge changes.\n" +
		"- reviewer: the person who checks a change before it is merged.\n"}
	for _, q := range []string{"Who is the reviewer in the project team?", "What is a reviewer in the project team?"} {
		text, n, _ := ExtractSpan(q, []fonte.Chunk{c})
		if n != 1 || !strings.HasPrefix(text, "- reviewer: the person who checks") {
			t.Errorf("ExtractSpan(%q) = %q, want the reviewer item first", q, text)
		}
	}
}
