package judge

// A yes or no whose reason the answer gives in the other language
// ("No, mai: i segreti … non vanno pubblicati" for "No, API secrets
// … must never be published") shares no word with the reference's
// reason, and few cognates, though it says the same: README's rule 11
// judges an answer in the other language by its meaning, which word
// counts cannot read. So the reason's words are not counted against
// it; its yes or no and its key facts are judged as in any answer.

// minOwnReasonWords is the fewest content words an answer must add to its
// yes or no to give a reason, not a bare "Sì." or "Yes, it is.".
const minOwnReasonWords = 3

// reasonInOtherLanguage reports whether answer is in the other
// language than reference and gives a reason of its own after its
// yes or no.
func reasonInOtherLanguage(reference, answer string) bool {
	text := withoutCitations(answer)
	return otherLanguage(reference, text) && len(contentStems(text)) >= minOwnReasonWords
}
