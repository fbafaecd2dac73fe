package judge

import (
	"fmt"
	"strings"
)

// opposites are pairs of English and Italian words of which a sentence
// states one where the other would say the reverse: "odd-numbered" for
// even-numbered, "optional" for mandatory, "privato" for pubblico. Words
// of order in time ("before", "prima", "first") are left out: a
// paraphrase turns them round ("dopo alcuni giorni" is "purché prima
// abbiate atteso alcuni giorni"). Each side
// lists its forms; they are compared by stem, so the Italian genders and
// plurals meet.
var opposites = [][2][]string{
	{{"even"}, {"odd"}},
	{{"minimum", "least", "lowest"}, {"maximum", "most", "highest"}},
	{{"public"}, {"private"}},
	{{"internal", "inside"}, {"external", "outside"}},
	{{"always"}, {"never"}},
	{{"mandatory", "compulsory", "required"}, {"optional", "voluntary"}},
	{{"allowed", "permitted"}, {"forbidden", "prohibited", "banned"}},
	{{"enable", "enabled"}, {"disable", "disabled"}},
	{{"include", "including", "included"}, {"exclude", "excluding", "excluded"}},
	{{"increase", "raise"}, {"decrease", "lower", "reduce"}},
	{{"above", "higher"}, {"below", "lower"}},
	{{"permanent"}, {"temporary"}},
	{{"manual", "manually"}, {"automatic", "automatically"}},
	{{"written"}, {"oral", "verbal"}},
	{{"accept", "accepted"}, {"reject", "rejected", "refuse", "refused"}},
	{{"pari"}, {"dispari"}},
	{{"minimo"}, {"massimo"}},
	{{"pubblico"}, {"privato"}},
	{{"interno", "dentro"}, {"esterno", "fuori"}},
	{{"sempre"}, {"mai"}},
	{{"obbligatorio"}, {"facoltativo", "opzionale"}},
	{{"consentito", "ammesso", "permesso"}, {"vietato", "proibito"}},
	{{"abilitato", "abilitare", "attivare", "attivato"}, {"disabilitato", "disabilitare", "disattivare", "disattivato"}},
	{{"incluso", "compreso", "includendo"}, {"escluso", "escludendo"}},
	{{"aumentare", "aumento"}, {"ridurre", "diminuire", "riduzione"}},
	{{"superiore"}, {"inferiore"}},
	{{"permanente"}, {"temporaneo"}},
	{{"manuale", "manualmente"}, {"automatico", "automaticamente"}},
	{{"scritto"}, {"orale"}},
	{{"accettato", "accettare"}, {"rifiutato", "rifiutare", "respinto"}},
}

// negatorsBefore are the words that, just before a word, say its
// opposite or deny it: "not odd" does not say odd.
var negatorsBefore = setOf(`not no non never mai nor né`)

// stemsAsserted returns the stems of text's words that no negation
// stands just before, so that "not after" asserts nothing about after.
func stemsAsserted(text string) map[string]bool {
	words := letterWords(text)
	out := map[string]bool{}
	for i, w := range words {
		f := fold(dropElision(w))
		if i > 0 && negatorsBefore[fold(words[i-1])] || i > 1 && negatorsBefore[fold(words[i-2])] {
			continue
		}
		out[stem(f)] = true
	}
	return out
}

// oppositeWords returns the words of a lead that state the reverse of
// one of the reference's: the lead says one side of a pair of opposites
// that the reference does not, where the reference says the other side
// and the lead does not. Asides of the reference count as neither side.
func oppositeWords(reference, leadText string) []string {
	ref := stemsAsserted(asideRE.ReplaceAllString(reference, " "))
	refAll := map[string]bool{}
	for _, w := range letterWords(reference) {
		refAll[stem(fold(dropElision(w)))] = true
	}
	ld := stemsAsserted(leadText)
	ldAll := map[string]bool{}
	for _, w := range letterWords(leadText) {
		ldAll[stem(fold(dropElision(w)))] = true
	}
	var out []string
	for _, pair := range opposites {
		for side := 0; side < 2; side++ {
			mine, other := pair[side], pair[1-side]
			r, refSays := saysAny(ref, mine)
			_, refSaysOther := saysAny(refAll, other)
			l, leadSays := saysAny(ld, other)
			_, leadSaysMine := saysAny(ldAll, mine)
			if refSays && !refSaysOther && leadSays && !leadSaysMine {
				out = append(out, fmt.Sprintf("the lead says %q, the reference %q", l, r))
			}
		}
	}
	return dedupeStrings(out)
}

// negatedOpposites returns the stems of the other side of each word of
// a pair of opposites that a negation stands just before: "not
// permitted" says forbidden, "non è obbligatorio" says optional.
func negatedOpposites(text string) map[string]bool {
	words := letterWords(text)
	out := map[string]bool{}
	for i, w := range words {
		if !(i > 0 && negatorsBefore[fold(words[i-1])] || i > 1 && negatorsBefore[fold(words[i-2])]) {
			continue
		}
		st := stem(fold(dropElision(w)))
		for _, pair := range opposites {
			for side := 0; side < 2; side++ {
				for _, f := range pair[side] {
					if stem(f) != st {
						continue
					}
					for _, o := range pair[1-side] {
						out[stem(o)] = true
					}
				}
			}
		}
	}
	return out
}

// oppositeOfQuestion returns the words of sentence that state the
// opposite of a word of the question, which the sentence does not state
// itself: "you will need automatic recovery" to "can we rely on
// recovering by hand?" says no.
func oppositeOfQuestion(question, sentence string) []string {
	q := stemsAsserted(idioms.Replace(strings.ToLower(question)))
	text := idioms.Replace(strings.ToLower(sentence))
	said, all := stemsAsserted(text), map[string]bool{}
	for _, w := range letterWords(text) {
		all[stem(fold(dropElision(w)))] = true
	}
	var out []string
	for _, pair := range opposites {
		for side := 0; side < 2; side++ {
			asked, other := pair[side], pair[1-side]
			_, inQuestion := saysAny(q, asked)
			_, sentenceAsks := saysAny(all, asked)
			w, opposite := saysAny(said, other)
			if inQuestion && opposite && !sentenceAsks {
				out = append(out, w)
			}
		}
	}
	return out
}

// saysAny returns the first of forms whose stem set holds.
func saysAny(set map[string]bool, forms []string) (string, bool) {
	for _, f := range forms {
		if set[stem(f)] {
			return f, true
		}
	}
	return "", false
}

// idioms rewrites phrases that say one word of a pair of opposites:
// "by hand" is manually, "a mano" manualmente.
var idioms = strings.NewReplacer("by hand", "manually", "a mano", "manualmente")

// dedupeStrings drops repeated strings, keeping the first.
func dedupeStrings(ss []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range ss {
		if !seen[strings.ToLower(s)] {
			seen[strings.ToLower(s)] = true
			out = append(out, s)
		}
	}
	return out
}

// saysAsked reports whether sentence states a word of a pair of
// opposites that the question asks about ("manually" to "by hand?"):
// then its reason words, whatever else they say, leave the question's
// yes or no open.
func saysAsked(question, sentence string) bool {
	q := stemsAsserted(idioms.Replace(strings.ToLower(question)))
	said := stemsAsserted(idioms.Replace(strings.ToLower(sentence)))
	for _, pair := range opposites {
		for side := 0; side < 2; side++ {
			_, inQuestion := saysAny(q, pair[side])
			_, inSentence := saysAny(said, pair[side])
			if inQuestion && inSentence {
				return true
			}
		}
	}
	return false
}
