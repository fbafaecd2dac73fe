package answer

import (
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

// A figure a dozen words from every word of the question is quoted
// without a lead; beside them, it leads.
func TestLeadNeedsAQuestionWordNearby(t *testing.T) {
	far := fonte.Chunk{ID: "far", Text: "Refunds are sent to the finance office in Bologna, which reads every letter from customers and suppliers and closes each case within 10 days."}
	got, n, _ := ExtractSpan("How long does a refund take?", []fonte.Chunk{far})
	if n != 1 || strings.Contains(got, " — ") || !strings.Contains(got, "within 10 days") {
		t.Fatalf("far figure: ExtractSpan = %q (chunk %d), want the sentence quoted without a lead", got, n)
	}
	near := fonte.Chunk{ID: "near", Text: "Refunds take 10 days, and the finance office in Bologna reads every letter from customers and suppliers."}
	got, _, _ = ExtractSpan("How long does a refund take?", []fonte.Chunk{near})
	if !strings.HasPrefix(got, "10 days — ") {
		t.Fatalf("near figure: ExtractSpan = %q, want it led by \"10 days — \"", got)
	}
}

// A figure past a contrast from every word of the question is not bound
// to it.
func TestLeadDistancePastAContrast(t *testing.T) {
	l := leader{topic: topicWords("How long should we set aside for the threat model review?")}
	s := "Review the threat model every two months; 90 minutes is usually enough."
	i := strings.Index(s, "90 minutes")
	if d := l.leadDistance(s, [2]int{i, i + len("90 minutes")}); d != -1 {
		t.Fatalf("leadDistance = %d, want -1 (only past the semicolon)", d)
	}
	s = "Set aside 90 minutes for the review."
	i = strings.Index(s, "90 minutes")
	if d := l.leadDistance(s, [2]int{i, i + len("90 minutes")}); d != 0 {
		t.Fatalf("leadDistance = %d, want 0", d)
	}
}

// A heading gives its figure as the lead of a sentence under it only
// when the figure sits near a word of the question there too.
func TestHeadingLeadNeedsAQuestionWordNearby(t *testing.T) {
	q := "How long are access logs kept?"
	far := fonte.Chunk{ID: "far", Headings: []string{"Platform", "Set by the platform team and the compliance board after the review of March 2024, 30 days"}, Text: "Access logs are kept in the archive bucket."}
	got, _, _ := ExtractSpan(q, []fonte.Chunk{far})
	if strings.Contains(got, " — ") {
		t.Fatalf("far heading figure: ExtractSpan = %q, want no lead", got)
	}
	near := fonte.Chunk{ID: "near", Headings: []string{"Platform", "Logs kept for 30 days"}, Text: "Access logs are kept in the archive bucket."}
	got, _, _ = ExtractSpan(q, []fonte.Chunk{near})
	if !strings.HasPrefix(got, "30 days — ") {
		t.Fatalf("near heading figure: ExtractSpan = %q, want it led by \"30 days — \"", got)
	}
}

// A table row leads only when a cell of it names the question's case:
// the row of another city does not say Turin's limit. (fonte chunks a
// table a row at a time, each cell labelled with its header.)
func TestRowLeadNeedsTheQuestionsCaseInTheRow(t *testing.T) {
	row := fonte.Chunk{ID: "t", Text: "City: Rome | Hotel limit per night: 150 euro"}
	got, _, _ := ExtractSpan("What is the hotel limit per night in Rome?", []fonte.Chunk{row})
	if !strings.HasPrefix(got, "Hotel limit per night: 150 euro — ") {
		t.Fatalf("named row: ExtractSpan = %q, want it led by its limit", got)
	}
	got, _, _ = ExtractSpan("What is the hotel limit per night in Turin?", []fonte.Chunk{row})
	if strings.Contains(got, " — ") {
		t.Fatalf("another city's row: ExtractSpan = %q, want no lead", got)
	}
}

// A figure of a clause is not one of the purpose clause after it: "within
// 3 months" is when to migrate, not how long security updates last, so
// asked the second it does not lead; asked the first, it does.
func TestPurposeClauseUnbindsTheFigureBeforeIt(t *testing.T) {
	c := fonte.Chunk{ID: "os", Text: "If you do use standard Ubuntu, you must migrate to the latest release within 3 months to ensure you stay within the support period and receive security updates."}
	got, _, _ := ExtractSpan("For how long does a standard Ubuntu release get security updates?", []fonte.Chunk{c})
	if strings.HasPrefix(got, "3 months —") {
		t.Errorf("answer %q leads with the migration deadline for how long updates last", got)
	}
	got, _, _ = ExtractSpan("How soon must we migrate to the latest standard Ubuntu release?", []fonte.Chunk{c})
	if !strings.HasPrefix(got, "3 months —") {
		t.Errorf("answer %q, want the lead 3 months for when to migrate", got)
	}
}
