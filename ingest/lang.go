package ingest

import (
	"strings"
	"unicode"
)

// Language detection without a model: function words.
//
// Every language spends a large share of its running text on a small set of
// function words (articles, prepositions, pronouns, auxiliaries) that appear
// whatever the topic. DetectLanguage counts, over the first maxLangTokens
// tokens, how many belong to the Italian list and how many to the English
// list, and picks the language with more hits when the decision is clear:
//
//   - at least minLangHits hits in total, otherwise the text is too short to
//     tell and the answer is "";
//   - the winner holds at least langMargin of all hits, otherwise the text is
//     mixed or the evidence is thin and the answer is "".
//
// The lists hold only words that are not also common in the other language:
// "a", "in", "no", "come", "me", "so", "do", "era" and "per" (per diem, as
// per) are left out of both, as is "i" (English pronoun, Italian article).
// Italian elisions (l', dell', un', nell' ...) count as Italian and English
// contractions (don't, it's ...) as English, since both are unmistakable.
const (
	maxLangTokens = 20000
	minLangHits   = 3
	langMargin    = 2.0 / 3.0
)

var italianWords = setOf(`il lo la le gli un una uno di del dello della dei degli delle
	da dal dallo dalla dai dagli dalle al allo alla ai agli alle nel nello nella nei negli nelle
	sul sullo sulla sui sugli sulle con su tra fra che chi cui non e ed ad è sono siamo sei
	essere stato stata stati state ha hanno ho abbiamo avere questo questa questi queste quello
	quella quelli quelle anche più molto molti molte ogni tutti tutto tutta tutte loro suo sua
	suoi sue mio mia nostro nostra vostro vostra dopo prima senza sempre già ancora solo
	può possono deve devono viene vengono quale quali qualsiasi oppure però quindi mentre poi
	così lei lui noi voi cosa sia ci si mi ti vi ne perché quando dove ma se anzi inoltre
	presso verso dunque nessun nessuna alcuni alcune stesso stessa proprio propria fino`)

var englishWords = setOf(`the of and to is that for it with as was on are be by this from
	at or an have has had not but you which they his her she he we will can would there their
	what all been were if when your more about than them these some into only other its also
	our who should may must any each how does did out up then because between after before
	over under such those while where why very most just being could my us him within without
	here both through during against until again once same own few nor off too whom whose
	upon shall might yes don't doesn't didn't isn't aren't wasn't weren't won't can't it's
	i'm you're we're they're that's there's let's i've you've we've i'll you'll we'll`)

// italianElisions are the prefixes, apostrophe included, that Italian
// elides before a vowel.
var italianElisions = []string{"l'", "un'", "dell'", "all'", "dall'", "nell'", "sull'",
	"quest'", "quell'", "c'", "d'", "anch'", "com'", "dov'", "tutt'", "senz'", "po'"}

func setOf(words string) map[string]bool {
	m := make(map[string]bool)
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// DetectLanguage returns "it" or "en" for text written in Italian or
// English, or "" when the text is too short or too mixed to tell. See the
// comment at the top of lang.go for the method.
func DetectLanguage(text string) string {
	it, en := langHits(text)
	total := it + en
	if total < minLangHits {
		return ""
	}
	switch {
	case float64(it) >= langMargin*float64(total):
		return "it"
	case float64(en) >= langMargin*float64(total):
		return "en"
	}
	return ""
}

// langHits counts Italian and English function words in text.
func langHits(text string) (it, en int) {
	n := 0
	for tok := range strings.FieldsSeq(text) {
		if n++; n > maxLangTokens {
			break
		}
		tok = strings.ToLower(strings.ReplaceAll(tok, "’", "'"))
		tok = strings.TrimFunc(tok, func(r rune) bool {
			return !unicode.IsLetter(r) && r != '\''
		})
		tok = strings.TrimLeft(tok, "'")
		if tok == "" {
			continue
		}
		if englishWords[tok] {
			en++
			continue
		}
		if i := strings.IndexByte(tok, '\''); i > 0 {
			prefix := tok[:i+1]
			for _, e := range italianElisions {
				if prefix == e {
					it++
					break
				}
			}
			continue
		}
		if italianWords[tok] {
			it++
		}
	}
	return it, en
}

// normalizeLang reduces a declared language ("it-IT", "en_US", "EN") to
// its lower-case primary subtag; anything that does not look like a
// language code gives "".
func normalizeLang(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	if i := strings.IndexAny(s, "-_"); i >= 0 {
		s = s[:i]
	}
	switch s {
	case "italian", "italiano":
		return "it"
	case "english", "inglese":
		return "en"
	}
	if len(s) < 2 || len(s) > 3 {
		return ""
	}
	for _, r := range s {
		if r < 'a' || r > 'z' {
			return ""
		}
	}
	return s
}
