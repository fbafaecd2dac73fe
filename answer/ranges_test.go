package answer

import (
	"slices"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

func TestParseNumber(t *testing.T) {
	for in, want := range map[string]float64{"7,500": 7500, "7.500": 7500, "2,000.75": 2000.75, "2.000,75": 2000.75, "0,35": 0.35, "4.2": 4.2, "9": 9, "25,000": 25000} {
		if got, ok := parseNumber(in); !ok || got != want {
			t.Errorf("parseNumber(%q) = %v, %v; want %v", in, got, ok, want)
		}
	}
}

func TestInRange(t *testing.T) {
	q := numbers("Who signs off a laptop order of 1.800 euro placed in 2024?")
	if len(q) != 1 || q[0] != 1800 {
		t.Fatalf("numbers = %v, want [1800] (2024 is a year)", q)
	}
	for s, want := range map[string]bool{
		"Between 500 and 2,500 euro | Area manager":                  true,
		"Da 500,01 a 2.500 euro | Responsabile d'area":               true,
		"Up to 500 euro | Any employee":                              false,
		"Above 2,500 euro | Board":                                   false,
		"Più di 1.000 euro richiede due firme":                       true,
		"under 2,000 euro a single signature is enough":              true,
		"An order of 1,800 euro was signed by the board last spring": false, // states the figure itself
	} {
		if got := inRange(q, s); got != want {
			t.Errorf("inRange(1800, %q) = %v, want %v", s, got, want)
		}
	}
}

// spansOf returns the texts of spans of s.
func spansOf(s string, spans [][2]int) []string {
	var out []string
	for _, sp := range spans {
		out = append(out, s[sp[0]:sp[1]])
	}
	return out
}

func TestMergeRangesKeepsARangeWhole(t *testing.T) {
	for s, want := range map[string]string{
		"The desk is staffed from 7:45 to 16:15.":            "from 7:45 to 16:15",
		"Il servizio è attivo dalle 7:45 alle 16:15.":        "dalle 7:45 alle 16:15",
		"Grants from 2,000.01 to 15,000 euro need a review.": "from 2,000.01 to 15,000 euro",
		"Delivery takes between 3 and 5 days.":               "between 3 and 5 days",
	} {
		var raw [][2]int
		for _, m := range quantityOrTime(s) {
			raw = append(raw, [2]int{m[0], m[1]})
		}
		got := spansOf(s, qualified(s, mergeRanges(s, raw)))
		if len(got) != 1 || got[0] != want {
			t.Errorf("%q: spans %q, want [%q]", s, got, want)
		}
	}
	// Two figures that a clause separates are two answers, not a range.
	s := "Hotels cost 90 euro, and meals 30 euro."
	var raw [][2]int
	for _, m := range quantityRE.FindAllStringIndex(s, -1) {
		raw = append(raw, [2]int{m[0], m[1]})
	}
	if got := mergeRanges(s, raw); len(got) != 2 {
		t.Errorf("%q: merged into %q", s, spansOf(s, got))
	}
}

// quantityOrTime returns the time spans of s, or its quantity spans when
// it has none.
func quantityOrTime(s string) [][]int {
	if f := timeRE.FindAllStringIndex(s, -1); len(f) > 0 {
		return f
	}
	return quantityRE.FindAllStringIndex(s, -1)
}

func TestFigures(t *testing.T) {
	got := figures("After six years, or 2.500 hours, in 2019")
	for _, v := range []float64{6, 2500, 2019} {
		if !slices.Contains(got, v) {
			t.Errorf("figures = %v, missing %v", got, v)
		}
	}
	if f := figures("Posso prendere una settimana?"); len(f) != 0 {
		t.Errorf("figures of an article = %v, want none", f)
	}
}

func TestExtractSpanReadsLikeAPerson(t *testing.T) {
	table := fonte.Chunk{ID: "t", Text: "Grant size | Reviewer | Reports due\nUp to 2,000 euro | Programme officer | 1 report\n" +
		"From 2,000.01 to 15,000 euro | Programme director | 2 reports\nOver 15,000 euro | Board of trustees | 4 reports"}
	got, _, _ := ExtractSpan("Who reviews a grant request of 6,000 euro?", []fonte.Chunk{table})
	if !strings.HasPrefix(got, "Reviewer: Programme director — ") || strings.Contains(got, "Programme officer") {
		t.Errorf("a figure inside a range: got %q", got)
	}

	faq := fonte.Chunk{ID: "f", Text: "Which tickets must I keep?\n\nTickets are required for flights, trains and any other fare over 50 euro."}
	got, _, _ = ExtractSpan("Do I have to keep the ticket for a 12 euro bus ride?", []fonte.Chunk{faq})
	if !strings.HasPrefix(got, "Tickets are required") {
		t.Errorf("quoted the document's own question: %q", got)
	}

	heading := fonte.Chunk{ID: "h", Text: "To join the mentoring scheme\n\nTo take part, you must meet both of these conditions:\n\n" +
		"- Completed your probation period\n- A mentor who agrees to meet you monthly"}
	got, _, _ = ExtractSpan("What are the conditions to join the mentoring scheme?", []fonte.Chunk{heading})
	if strings.HasPrefix(got, "To join the mentoring scheme") || !strings.Contains(got, "Completed your probation period") {
		t.Errorf("quoted a heading line: %q", got)
	}

	pronoun := fonte.Chunk{ID: "p", Text: "Pick a PIN for the door lock. It must be at least 6 digits and must not repeat a digit."}
	got, _, _ = ExtractSpan("How long must the door PIN be?", []fonte.Chunk{pronoun})
	if !strings.HasPrefix(got, "6 digits") {
		t.Errorf("a sentence about the sentence before's subject: got %q", got)
	}
	if _, n, _ := ExtractSpan("How long is the guarantee?", []fonte.Chunk{pronoun}); n != 0 {
		t.Errorf("quoted a pronoun-led sentence whose subject is not the question's")
	}
}

func TestInRangeBoundAfterTheFigure(t *testing.T) {
	q := numbers("Must a survey of 7 volunteers be registered?")
	for s, want := range map[string]bool{
		"Surveys of 10 or fewer people need no registration.":   true,
		"Studies of 5 people or less are exempt.":               false,
		"Panels of 6 participants or more are registered.":      true,
		"Indagini su 12 persone o meno non vanno registrate.":   true,
		"Le indagini su 9 persone o più vanno registrate.":      false,
		"Sondaggi da 3 e oltre richiedono il modulo.":           true,
		"Answer 2 or 3 questions before you start the session.": false, // a choice, not a bound
	} {
		if got := inRange(q, s); got != want {
			t.Errorf("inRange(7, %q) = %v, want %v", s, got, want)
		}
	}
}

// A question's figure inside a bound written after its figure ("9 or
// fewer") picks the sentence of that case over one that shares more of
// the question's words.
func TestExtractSpanPrefersTheBoundThatHoldsTheFigure(t *testing.T) {
	c := fonte.Chunk{ID: "c", Text: "Registration is needed before a survey of the public is run.\n\n" +
		"No registration is needed when the study has 10 or fewer respondents."}
	got, _, _ := ExtractSpan("Is registration needed for a survey of 6 members of the public?", []fonte.Chunk{c})
	if !strings.Contains(got, "10 or fewer") {
		t.Errorf("answer %q, want the sentence stating 10 or fewer respondents", got)
	}
}
