package answer

import "strings"

// A lead is bound to the question by the words around it: "you must
// migrate to the latest release within 3 months" puts the figure beside
// the question's "latest release". A figure that the sentence states a
// dozen words away from every word of the question, or only past a
// contrast ("…; but 90 minutes is usually sufficient"), may state
// another thing of the sentence's than the one asked; a person reads
// the lead first, so such a figure is not given as one, and the
// sentence is quoted alone.

// maxLeadDistance is the most words between a lead and the nearest word
// of the question in its sentence. Chosen on the dev questions (in
// sample): of the 42 leads of a figure, a name or a place that the
// offline answerer gave from a sentence on the six sets' answerable dev
// questions (given gold and end to end counted apart), 38 have a
// question word within 7 words (lisaas-ato's "one year" at 7, lg-q45's
// "entro due giorni" at 6); it-q56's "10 giorni" (12, in an aside) and
// threat-review-cadence's "90 minutes" (past a "but") lose theirs, twice
// each, and their quotes, which still state the figure, keep their
// verdicts. Any value from 7 to 11 gives the same dev answers.
const maxLeadDistance = 8

// leadDistance returns how many words of s lie between the span cand and
// the nearest word of s outside it that holds one of the question's topic
// words (or opens a sentence that takes its subject from the line before)
// with no contrast between them (contrastRE: a semicolon, "but",
// "ma", …); -1 when there is no such word.
func (l leader) leadDistance(s string, cand [2]int) int {
	words := wordSpans(s)
	best := -1
	for _, w := range words {
		if w[1] > cand[0] && w[0] < cand[1] {
			continue // a word of the lead itself
		}
		// The first word of a sentence that takes its subject from the
		// line before ("It must be …", a list item under its intro)
		// stands for that subject's words.
		subject := w == words[0] && (pronounLed(s) || listItem(strings.TrimSpace(s)))
		if !subject && l.held(ContentKeys(s[w[0]:w[1]])) == 0 {
			continue
		}
		lo, hi := w[1], cand[0]
		if w[0] >= cand[1] {
			lo, hi = cand[1], w[0]
		}
		if contrastRE.MatchString(s[lo:hi]) {
			continue
		}
		between := 0
		for _, x := range words {
			if x[0] >= lo && x[1] <= hi {
				between++
			}
		}
		if best < 0 || between < best {
			best = between
		}
	}
	return best
}

// near reports whether the span cand of s is bound to the question by
// distance (leadDistance at most maxLeadDistance).
func (l leader) near(s string, cand [2]int) bool {
	d := l.leadDistance(s, cand)
	return d >= 0 && d <= maxLeadDistance
}
