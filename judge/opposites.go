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
	says := func(set map[string]bool, forms []string) (string, bool) {
		for _, f := range forms {
			if set[stem(f)] {
				return f, true
			}
		}
		return "", false
	}
	var out []string
	for _, pair := range opposites {
		for side := 0; side < 2; side++ {
			mine, other := pair[side], pair[1-side]
			r, refSays := says(ref, mine)
			_, refSaysOther := says(refAll, other)
			l, leadSays := says(ld, other)
			_, leadSaysMine := says(ldAll, mine)
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
