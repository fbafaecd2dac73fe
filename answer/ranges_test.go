package answer

import (
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

func TestParseNumber(t *testing.T) {
	for in, want := range map[string]float64{"4,000": 4000, "4.000": 4000, "1,000.01": 1000.01, "1.000,50": 1000.5, "0,42": 0.42, "3.1": 3.1, "15": 15, "10,000": 10000} {
		if got, ok := parseNumber(in); !ok || got != want {
			t.Errorf("parseNumber(%q) = %v, %v; want %v", in, got, ok, want)
		}
	}
}

func TestInRange(t *testing.T) {
	q := numbers("Who approves a server that costs 4,000 euro in 2025?")
	if len(q) != 1 || q[0] != 4000 {
		t.Fatalf("numbers = %v, want [4000] (2025 is a year)", q)
	}
	for s, want := range map[string]bool{
		"From 1,000.01 to 10,000 euro | Head of department | 2 quotes": true,
		"Up to 1,000 euro | Team lead | 1 quote":                       false,
		"Over 10,000 euro | Chief Financial Officer | 3 quotes":        false,
		"Oltre 3.000 euro serve il CFO":                                true,
		"fino a 5.000 euro approva il responsabile":                    true,
		"A server that costs 4,000 euro needs two quotes":              false, // states the figure: already a shared word
	} {
		if got := inRange(q, s); got != want {
			t.Errorf("inRange(4000, %q) = %v, want %v", s, got, want)
		}
	}
}

func TestExtractSpanReadsLikeAPerson(t *testing.T) {
	table := fonte.Chunk{ID: "t", Text: "Order value | Approver | Quotes required\nUp to 1,000 euro | Team lead | 1 quote\n" +
		"From 1,000.01 to 10,000 euro | Head of department | 2 quotes\nOver 10,000 euro | Chief Financial Officer | 3 written quotes"}
	got, _, _ := ExtractSpan("Who has to approve buying a server that costs 4,000 euro?", []fonte.Chunk{table})
	if !strings.Contains(got, "Head of department") || strings.Contains(got, "Team lead |") {
		t.Errorf("a figure inside a range: got %q", got)
	}

	faq := fonte.Chunk{ID: "f", Text: "Which receipts must I keep?\n\nReceipts are required for lodging, rental cars and any other expenses over $75."}
	got, _, _ = ExtractSpan("Do I need to keep the receipt for a $40 taxi ride?", []fonte.Chunk{faq})
	if !strings.HasPrefix(got, "Receipts are required") {
		t.Errorf("quoted the document's own question: %q", got)
	}

	heading := fonte.Chunk{ID: "h", Text: "To receive donated hours\n\nTo be eligible, you must have all of the following:\n\n" +
		"- Exhausted all leave balances\n- A medical condition that requires a prolonged absence"}
	got, _, _ = ExtractSpan("What do I need to receive donated leave?", []fonte.Chunk{heading})
	if strings.HasPrefix(got, "To receive donated hours") || !strings.Contains(got, "Exhausted all leave balances") {
		t.Errorf("quoted a heading line: %q", got)
	}

	pronoun := fonte.Chunk{ID: "p", Text: "Change the phone's passcode. It must be longer than 14 characters and contain letters and numbers."}
	got, _, _ = ExtractSpan("How long must my passcode be?", []fonte.Chunk{pronoun})
	if !strings.HasPrefix(got, "14 characters") {
		t.Errorf("a sentence about the sentence before's subject: got %q", got)
	}
	if _, n, _ := ExtractSpan("How long is the warranty?", []fonte.Chunk{pronoun}); n != 0 {
		t.Errorf("quoted a pronoun-led sentence whose subject is not the question's")
	}
}
