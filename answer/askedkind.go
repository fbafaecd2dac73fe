package answer

import (
	"strings"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/chunk"
)

// holdsAskedKind reports whether the passages an answer would be drawn
// from (the hits holding at least Coverage.MinHeld of the question's
// weight, all of them without coverage) hold a figure of the kind the
// question asks for, in a sentence that shares a word with the question:
// a duration for "how long", a frequency for "how often", money for "how
// much does it cost", a time of day for "what time", a figure with a
// unit for "how many". A question that asks for no such figure holds it
// trivially (true).
//
// A passage about the question's subject that states no figure of the
// asked kind does not answer it: "How long must backups be kept?" over
// a page on backups that gives no period is a question the documents do
// not cover, however many words they share.
func holdsAskedKind(question string, hits []fonte.Hit, c *Coverage) bool {
	qt := QuestionType(question)
	m := askedMeasure(question, qt)
	if qt != QuantityAnswer && !(qt == TimeAnswer && m != anyMeasure) {
		return true
	}
	want := ContentKeys(question)
	own := figures(question)
	for i, h := range hits {
		if c != nil && (i >= len(c.Held) || c.Held[i].Share < c.MinHeld) {
			continue
		}
		heading := ContentKeys(strings.Join(h.Chunk.Headings, " "))
		for _, sp := range chunk.SentenceSpans(h.Chunk.Text) {
			s := h.Chunk.Text[sp[0]:sp[1]]
			if !hasAny(ContentKeys(s), want) && !hasAny(heading, want) {
				continue
			}
			for _, f := range typedSpans(s, qt) {
				span := s[f[0]:f[1]]
				if ownFigure(span, own) {
					continue // the question's own condition
				}
				if fits(span, m, true) {
					return true
				}
			}
		}
	}
	return false
}

// measureNames name each measure for a trace.
var measureNames = map[measure]string{
	anyMeasure: "a figure", durationMeasure: "a duration", frequencyMeasure: "a frequency",
	distanceMeasure: "a distance", ageMeasure: "an age", countMeasure: "a count",
	moneyMeasure: "money or a percentage", clockMeasure: "a time of day", dayMeasure: "a day or a date",
}

// askedKindName says which kind of figure the question asks for.
func askedKindName(question string) string {
	return measureNames[askedMeasure(question, QuestionType(question))]
}
