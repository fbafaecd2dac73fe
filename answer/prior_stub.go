package answer

import "strings"

// PriorStub is a measurement device, never a product feature. It stands in
// for what a model "learnt in training": when the grounded answerer finds
// nothing in the context, the stub answers anyway from a canned table, the
// way a fluent model answers from memory. Seed 002 switches it on and off
// to measure how many unanswerable questions get a confident, unsourced
// answer, and to fill the right × supported grid. Nothing in fonte's answer
// path should call it.
//
// Rules are tried in order; the first whose trigger is contained in the
// lower-cased question wins (seed 002: student, app, collect, phone, vat).
type PriorStub []PriorRule

// PriorRule is one trigger word and its canned answer.
type PriorRule struct {
	Trigger string
	Answer  string
}

// Lookup returns the canned answer of the first rule whose trigger occurs
// in the lower-cased question.
func (p PriorStub) Lookup(question string) (string, bool) {
	q := strings.ToLower(question)
	for _, r := range p {
		if strings.Contains(q, r.Trigger) {
			return r.Answer, true
		}
	}
	return "", false
}

// Answer is seed 002's ask with the fallback on, after the floor check:
// the quoted sentence when the answerer cited something, else the canned
// answer when a trigger matches, else the answerer's no-answer text.
func (p PriorStub) Answer(question string, q Quote) string {
	if q.Found() {
		return q.Text
	}
	if a, ok := p.Lookup(question); ok {
		return a
	}
	return q.Text
}
