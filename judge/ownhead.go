package judge

import "strings"

// A span lead that repeats the reference's words but for the word that
// heads it ("Responsabile del registro —" for the referente tecnico
// del registro, "South entrance —" for the north entrance) names
// another thing of the same frame: the words it shares make it look
// right, and the head is what a reader takes as the answer (README's
// rule 5: a lead that is another name of the kind asked).

// maxHeadLeadWords is the longest span lead read as a noun phrase with
// a head; a longer one is a clause.
const maxHeadLeadWords = 5

// ownHeadLead returns the span lead whose first content word is neither
// the question's nor the reference's while every other content word of
// it is the reference's, one at least not the question's.
func ownHeadLead(question, reference string, ld lead) []string {
	// A lead with a figure or a label ("Date: October 17, 2025") is
	// judged by its figures.
	if !ld.span || hasDigit(ld.text) || strings.Contains(ld.text, ":") {
		return nil
	}
	words := contentStems(ld.text)
	if len(words) < 2 || len(words) > maxHeadLeadWords {
		return nil
	}
	inQuestion, inReference := map[string]bool{}, map[string]bool{}
	for _, s := range stemsOf(question) {
		inQuestion[s] = true
	}
	for _, s := range stemsOf(asideRE.ReplaceAllString(reference, " ")) {
		inReference[s] = true
	}
	if inQuestion[words[0]] || inReference[words[0]] {
		return nil
	}
	own := false
	for _, s := range words[1:] {
		if !inReference[s] {
			return nil
		}
		own = own || !inQuestion[s]
	}
	if !own {
		return nil
	}
	return []string{"the lead " + ld.text + " heads the reference's words with a word of its own"}
}
