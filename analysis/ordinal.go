package analysis

// EnglishOrdinals is a Filter that writes the ordinals "1st" to "10th" as
// words ("first" to "tenth"), so that "1st line support" meets a question
// about "first-line support" and the reverse. Past ten, ordinals are
// written in figures on both sides. It replaces tokens in place.
type EnglishOrdinals struct{}

var englishOrdinals = map[string]string{
	"1st": "first", "2nd": "second", "3rd": "third", "4th": "fourth", "5th": "fifth",
	"6th": "sixth", "7th": "seventh", "8th": "eighth", "9th": "ninth", "10th": "tenth",
}

// Filter replaces every ordinal in figures by its word.
func (EnglishOrdinals) Filter(tokens []string) []string {
	for i, t := range tokens {
		if len(t) < 3 || len(t) > 4 || t[0] < '1' || t[0] > '9' {
			continue // the cheap test first: most tokens are no ordinal
		}
		if w, ok := englishOrdinals[t]; ok {
			tokens[i] = w
		}
	}
	return tokens
}
