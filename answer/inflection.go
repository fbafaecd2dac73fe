package answer

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fonte-rag/fonte/analysis"
)

// An Italian noun or adjective changes its last vowel between singular
// and plural ("chiave", "chiavi"; "ufficio", "uffici"), and the Snowball
// stemmer does not always meet them: it reads "chiavi" as a verb in
// -avi and cuts it to "chi", while "chiave" becomes "chiav". Then the
// sentence that answers "se perdo le chiavi" ("Lo smarrimento di una
// chiave va comunicato …") shares no key with the question and is never
// quoted. inflectionKeys adds, beside the stems, the word less its last
// vowel when the stemmer cut it to a stub (maxOverStem), so the two
// numbers of such a noun share a key. Other words get no second key: a
// key more for every word would weigh them twice and move which sentence
// is quoted for no reason.

// minInflected is the shortest word, in letters, cut by inflectionKeys:
// shorter ones ("casa", "note") would leave stems of three letters that
// many unrelated words share.
const minInflected = 5

// inflectionKeys returns, for each token of letters only of at least
// minInflected letters that ends in a vowel and that the Italian stemmer
// cuts to maxOverStem letters or fewer, the token less that vowel.
func inflectionKeys(tokens []string) []string {
	var out []string
	for _, t := range tokens {
		if utf8.RuneCountInString(t) < minInflected || strings.IndexFunc(t, func(r rune) bool { return !unicode.IsLetter(r) }) >= 0 {
			continue
		}
		last, size := utf8.DecodeLastRuneInString(t)
		if !strings.ContainsRune("aeiouàèéìòù", last) {
			continue
		}
		cut := t[:len(t)-size]
		if stem := italianStem.Filter([]string{t}); len(stem) == 1 && utf8.RuneCountInString(stem[0]) <= maxOverStem && strings.HasPrefix(cut, stem[0]) {
			out = append(out, cut)
		}
	}
	return out
}

// maxOverStem is the longest stem, in letters, taken as cut too far: a
// word of minInflected letters or more cut to three letters or fewer
// ("chiavi" to "chi") has lost what it names, and its stem meets
// unrelated words ("chi", who). Longer cuts ("complessivo" to
// "compless") still name the word, and a second key for them weighed
// those words twice in ExtractSpan (AgID dev: 2 right answers end to
// end lost, lg-q15 quoting the heading "Costo complessivo").
const maxOverStem = 3

// italianStem is the stemmer whose cuts inflectionKeys checks.
var italianStem = analysis.ItalianStemmer()
