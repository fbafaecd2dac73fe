package answer

import (
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

// "the security team informs the Data Protection Officer" does not say
// who the officer is: no lead. A sentence joining a role to it by "is"
// leads with that role.
func TestWhoIsLeadsOnlyWithWhatTheRoleIs(t *testing.T) {
	q := "Who is the Data Protection Officer?"
	acts := fonte.Chunk{ID: "a", Text: "If personal data may be involved, the security team informs the Data Protection Officer within 24 hours."}
	got, n, _ := ExtractSpan(q, []fonte.Chunk{acts})
	if n != 1 || strings.Contains(got, " — ") {
		t.Fatalf("ExtractSpan = %q (chunk %d), want the sentence without a lead", got, n)
	}
	is := fonte.Chunk{ID: "b", Text: "The Data Protection Officer is the head of legal."}
	got, _, _ = ExtractSpan(q, []fonte.Chunk{is})
	if !strings.HasPrefix(got, "the head of legal — ") {
		t.Fatalf("ExtractSpan = %q, want it led by the role the officer is", got)
	}
}
