package analysis

import (
	"strings"
	"unicode"
)

// FunctionWords returns the words of question that carry its grammar, not
// its subject, although the stop lists keep them, each as often as the
// question uses it and in its order: English auxiliaries ("does", "did",
// the stem of a negated contraction: "didn't", "doesn't"), Italian
// auxiliary participles ("è stato costituito": the passage says "fu
// costituito" or "la costituzione"), the apocopated modal "vuol" and the
// "dire" of "vuol dire" (what it means: the passage gives the meaning, it
// does not say "dire"), and the verbs of advice and ability that stand
// where a modal would ("conviene installare", "riesco ad accedere"). A
// passage that answers does not repeat them, so the coverage of the
// question's words (engine's coverage) leaves them out as it leaves out
// answer.KindWords, and the lexical leg weighs them as it weighs the
// words the stop lists drop (retrieve's rankTerms).
func FunctionWords(question string) []string {
	words := strings.FieldsFunc(strings.ToLower(question), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '’'
	})
	var out []string
	for i, w := range words {
		// "didn't": the stem before the apostrophe is what the analyser keys.
		if stem, ok := strings.CutSuffix(strings.ReplaceAll(w, "’", "'"), "n't"); ok {
			out = append(out, stem+"n")
			continue
		}
		w = strings.Trim(w, "'’")
		switch {
		case englishAuxiliaries[w], italianAbilityAdvice[w], lightVerbs[w], w == "vuol":
			out = append(out, w)
		case w == "dire" && i > 0 && volere[words[i-1]]:
			out = append(out, w)
		case essereParticiples[w] && afterEssere(words[:i]):
			out = append(out, w)
		}
	}
	return out
}

// afterEssere reports whether the words before a participle end in a form
// of "essere", directly or across one adverb ("è stato", "non è ancora
// stato"): "stato" is then the auxiliary, not the noun ("lo Stato").
func afterEssere(before []string) bool {
	n := len(before)
	if n > 0 && essereForms[before[n-1]] {
		return true
	}
	return n > 1 && auxiliaryAdverbs[before[n-1]] && essereForms[before[n-2]]
}

// englishAuxiliaries are the forms of "do" the content stop lists keep.
var englishAuxiliaries = map[string]bool{"does": true, "did": true, "doing": true}

// italianAbilityAdvice are the forms of "riuscire" (to manage to, can) and
// "convenire" (to be advisable, should) that stand for a modal verb.
var italianAbilityAdvice = wordSet("riesco riesci riesce riusciamo riuscite riescono riesca riescano riuscirò riuscirei riuscirebbe riuscito " +
	"conviene convengono convenga convengano converrebbe converrà conveniva")

// volere are the forms of "volere" before the "dire" of a meaning.
var volere = wordSet("vuol vuole vogliono voglia vogliano volesse vorrebbe")

var essereParticiples = wordSet("stato stata stati state")

var essereForms = wordSet("è e' sono sei siamo siete sia siano era erano fosse fossero sarà saranno sarebbe sarebbero essere essendo")

// auxiliaryAdverbs may stand between an auxiliary and its participle.
var auxiliaryAdverbs = wordSet("non ancora già mai sempre appena anche pure")

// wordSet is the set of the space-separated words of s.
func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}
