package judge

import (
	"fmt"
	"strings"
)

// A name of several capitalised words with one word swapped for another
// is another name: "GOV.UK Pay" for GOV.UK Notify, "GDS Service Desk" for
// the GDS User Support team. The words they share make the answer look
// right; the word that differs is the answer.

// swappedNameWords returns the lead's names that share a word with one
// of the reference's, at the same place, and put a word neither the
// reference nor the question holds at another, when the lead does not
// state the reference's name itself.
func swappedNameWords(question, reference, lead string) []string {
	known := strings.ToLower(question + " " + reference)
	leadRuns := capitalisedRuns(lead, true)
	var out []string
	for _, want := range capitalisedRuns(asideRE.ReplaceAllString(reference, " "), true) {
		if containsBounded(strings.ToLower(lead), strings.ToLower(strings.Join(want, " "))) {
			continue
		}
		for _, got := range leadRuns {
			if swapped(want, got, known) {
				out = append(out, strings.Join(got, " ")+" against "+strings.Join(want, " "))
			}
		}
	}
	return out
}

// swapped reports whether got, laid over want at some offset with two
// words or more in common place, matches one of them and differs at
// another by a word that known does not hold.
func swapped(want, got []string, known string) bool {
	for off := -(len(got) - 1); off < len(want); off++ {
		same, other, overlap := 0, 0, 0
		for i, w := range got {
			j := i + off
			if j < 0 || j >= len(want) {
				continue
			}
			overlap++
			switch {
			case fold(w) == fold(want[j]):
				same++
			case !containsBounded(known, strings.ToLower(w)):
				other++
			}
		}
		if overlap >= 2 && same >= 1 && other >= 1 {
			return true
		}
	}
	return false
}

// An answer that repeats the reference word for word, asides included,
// but for one figure or code with digits ("Review takes 4-5 business
// days, …" for 3-5, "an SF-183 is needed" for SF-182, "over $76" for
// $75, "gbp.conf(6)") states that figure or code as the answer: a model
// that changed a figure of its source. Every other key fact is there, so
// the word-by-word figure checks find nothing missing; the one token
// that differs is what the answer says in the reference's place. A
// figure inside the reference's example ("es. 1.3-1~bpo70+1") stands
// for any other.

// oneFigureSwapped returns the token the answer puts in place of one of
// the reference's tokens with digits, when every other token is the
// same and in the same order.
func oneFigureSwapped(reference, answer string) []string {
	rw, aw := foldedWords(reference), foldedWords(withoutCitations(answer))
	if len(rw) < minSwapWords {
		return nil
	}
	at := oneApart(rw, aw, func(x, y string) bool { return x == y })
	if at < 0 || !hasDigit(rw[at]) || !hasDigit(aw[at]) || containsBounded(fold(reference), aw[at]) {
		return nil
	}
	if ex := examplesOf(reference); ex != "" && containsBounded(fold(ex), rw[at]) {
		return nil
	}
	return []string{fmt.Sprintf("the answer repeats the reference with %q for %q", aw[at], rw[at])}
}
