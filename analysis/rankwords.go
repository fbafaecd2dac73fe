package analysis

import "strings"

// RankingFunctionWords returns the words of question that say nothing of
// its subject although ContentStopWords keeps them: the forms of the
// Italian modal verbs its QuestionWords lack (the conditional's other
// persons, "dovrebbero", "potremmo"; the infinitives) and "quali", the
// plural of the listed "quale". ("avere" and "essere" are left out: as
// infinitives they are as often the verb of the sentence, "per avere un
// desktop", as an auxiliary.) A rare one in a
// corpus outweighs the question's subject when ranked as a content word
// ("dovrebbero" in a page's introduction over the page that names the
// tool asked for), so the lexical leg weighs them as function words.
//
// They are listed apart from QuestionWords, and so still count as
// content where fonte asks whether a passage holds the question's words
// (the coverage and the relevance): that decision is made on other
// evidence, and moving its keys is another change.
func RankingFunctionWords(question string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(Lower(question), notWordRune) {
		if rankingFunctionWords[w] {
			out = append(out, w)
		}
	}
	return out
}

var rankingFunctionWords = wordSet("dovresti dovremmo dovreste dovrebbero potresti potremmo potreste potrebbero " +
	"vorresti vorrebbe vorremmo vorreste vorrebbero dovere potere volere quali")

func notWordRune(r rune) bool { return !isWord(r) }
