package analysis

import (
	"iter"
	"strings"
	"unicode"
)

// Language detection without a model: function words.
//
// (Scripts written without spaces between words, and alphabets other than
// Latin, are told by their letters first: see scriptLanguage.)
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

var italianDetectWords = setOf(`il lo la le gli un una uno di del dello della dei degli delle
	da dal dallo dalla dai dagli dalle al allo alla ai agli alle nel nello nella nei negli nelle
	sul sullo sulla sui sugli sulle con su tra fra che chi cui non e ed ad è sono siamo sei
	essere stato stata stati state ha hanno ho abbiamo avere questo questa questi queste quello
	quella quelli quelle anche più molto molti molte ogni tutti tutto tutta tutte loro suo sua
	suoi sue mio mia nostro nostra vostro vostra dopo prima senza sempre già ancora solo
	può possono deve devono viene vengono quale quali qualsiasi oppure però quindi mentre poi
	così lei lui noi voi cosa sia ci si mi ti vi ne perché quando dove ma se anzi inoltre
	presso verso dunque nessun nessuna alcuni alcune stesso stessa proprio propria fino`)

var englishDetectWords = setOf(`the of and to is that for it with as was on are be by this from
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

// DetectLanguage returns the language of text:
//
//   - "zh", "ja", "ko" or "th" when letters of the scripts written without
//     spaces between words (Han, Kana, Hangul, Thai) make up a good share
//     of the text's letters (see scriptLanguage);
//   - "el" for text mostly in Greek letters, "und" (undetermined) for text
//     mostly in another alphabet that is not Latin (Cyrillic, Arabic,
//     Hebrew, Devanagari ...);
//   - "it" or "en" for text written in Italian or English (see the comment
//     at the top of lang.go for the method);
//   - "de", "fr", "es", "pt" or "nl" when that language's function words
//     outnumber both Italian's and English's (see otherHits), and "und"
//     for a Latin-script text of at least minUndWords words in which
//     fewer than one in undShare is a function word of any of these;
//   - "" when the text is too short or too mixed to tell.
//
// Only "" and "en" get English analysis downstream: the decision between
// them and "it" is the one DetectLanguage always made, and the other
// answers are given only on evidence against both.
func DetectLanguage(text string) string {
	if l := scriptLanguage(text); l != "" {
		return l
	}
	it, en := langHits(text)
	other, lang, words := otherHits(text)
	if other >= minLangHits && other > it && other > en {
		return lang
	}
	total := it + en
	if total < minLangHits {
		if words >= minUndWords && (total+other)*undShare < words {
			return "und"
		}
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

// A Latin-script text of at least minUndWords words with fewer than one
// function word in undShare is in a language DetectLanguage has no list
// for (Swedish, Polish, Turkish ...): English and Italian spend about a
// third of their words on function words.
const (
	minUndWords = 40
	undShare    = 25
)

// maxScriptBytes bounds the text scriptLanguage reads.
const maxScriptBytes = 1 << 16

// scriptLanguage decides by the letters' scripts: "th", "ko", "ja" or "zh"
// when the letters of Thai, Hangul, Kana and Han are at least a quarter of
// all letters (one such character often is a word, where a Latin word has
// several letters), "el" or "und" when Greek or other non-Latin alphabets
// hold most letters, and "" otherwise (Latin text: decide by words).
func scriptLanguage(text string) string {
	if len(text) > maxScriptBytes {
		text = text[:maxScriptBytes]
	}
	var han, kana, hangul, thai, latin, greek, other int
	for _, r := range text {
		if r < 0x80 {
			if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' {
				latin++
			}
			continue
		}
		switch {
		case unicode.Is(unicode.Han, r):
			han++
		case unicode.In(r, unicode.Hiragana, unicode.Katakana) || r == 0x30fc:
			kana++
		case unicode.Is(unicode.Hangul, r):
			hangul++
		case unicode.Is(unicode.Thai, r) && unicode.IsLetter(r):
			thai++
		case !unicode.IsLetter(r):
		case unicode.Is(unicode.Latin, r):
			latin++
		case unicode.Is(unicode.Greek, r):
			greek++
		default:
			other++
		}
	}
	cjk := han + kana + hangul + thai
	if cjk > 0 && 4*cjk >= cjk+latin+greek+other {
		switch {
		case thai >= hangul && thai >= han+kana:
			return "th"
		case hangul >= han+kana:
			return "ko"
		case 5*kana >= han+kana:
			return "ja"
		}
		return "zh"
	}
	if 2*(greek+other) > latin+greek+other {
		if greek > other {
			return "el"
		}
		return "und"
	}
	return ""
}

// otherWords are function words of other languages written in the Latin
// alphabet, for telling them from English and Italian; none is in
// englishDetectWords, and those shared with italianDetectWords (French "la", "il",
// Spanish "con", "una") are listed so that Italian's hits never outnumber
// the language's own in its text, while in Italian text they count no
// more than Italian's.
var otherWords = []struct {
	lang     string
	words    map[string]bool
	elisions []string
}{
	{"de", setOf(`der die das und ist nicht ein eine einen einem einer eines den dem des mit auf
		für sich auch wird werden wurde sind zu zum zur von vom bei oder wie nach noch über kann
		können wenn aus durch sie wir ich es er nur aber bis muss diese dieser dieses kein keine
		sein ihre ihr unter im dass daß hat haben man`), nil},
	{"fr", setOf(`le la les un une des du de au aux et est sont pour dans avec sur pas ne se si
		qui que ce cette ces leur leurs ou où été être nous vous il ils elle elles mais plus très
		aussi sans comme par son ses sa mon notre votre peut doit fait tout tous toutes dont y en`),
		[]string{"l'", "d'", "c'", "j'", "m'", "n'", "s'", "t'", "qu'", "jusqu'", "lorsqu'", "puisqu'"}},
	{"es", setOf(`el la los las lo le les un una unos unas y o de del al en con por para que es
		son se no su sus como pero más está están fue ser entre sobre también esta este estos
		estas cuando muy hay puede todos sin ya donde porque`), nil},
	{"pt", setOf(`o os um uma de do da dos das em no na nos nas que não para com por é se ao aos
		mais como mas foi ser são está pelo pela também ele ela seu sua seus suas isso este esta
		entre ou muito já quando`), nil},
	{"nl", setOf(`de het een van en zijn niet op met voor dat deze ook wordt worden naar bij uit
		maar nog zoals hij zij wij ze er om te door kan moet heeft hebben werd geen dan als die`), nil},
}

// detectTokens yields the words among the first maxLangTokens fields of
// text as the function-word lists hold them: lower-case, typographic
// apostrophes made straight, punctuation around them trimmed (an
// elision's apostrophe kept), fields with no letter left out.
func detectTokens(text string) iter.Seq[string] {
	return func(yield func(string) bool) {
		n := 0
		for tok := range strings.FieldsSeq(text) {
			if n++; n > maxLangTokens {
				return
			}
			tok = strings.ToLower(strings.ReplaceAll(tok, "’", "'"))
			tok = strings.TrimFunc(tok, func(r rune) bool {
				return !unicode.IsLetter(r) && r != '\''
			})
			tok = strings.TrimLeft(tok, "'")
			if tok != "" && !yield(tok) {
				return
			}
		}
	}
}

// otherHits counts, over the first maxLangTokens tokens, the function
// words of each language in otherWords and returns the best count and its
// language (the first listed on a tie), with the number of tokens that
// hold a letter.
func otherHits(text string) (best int, lang string, words int) {
	hits := make([]int, len(otherWords))
	for tok := range detectTokens(text) {
		words++
		i := strings.IndexByte(tok, '\'')
		for k, o := range otherWords {
			if i > 0 {
				for _, e := range o.elisions {
					if tok[:i+1] == e {
						hits[k]++
						break
					}
				}
				continue
			}
			if o.words[tok] {
				hits[k]++
			}
		}
	}
	for k, h := range hits {
		if h > best {
			best, lang = h, otherWords[k].lang
		}
	}
	return best, lang, words
}

// langHits counts Italian and English function words in text.
func langHits(text string) (it, en int) {
	for tok := range detectTokens(text) {
		if englishDetectWords[tok] {
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
		if italianDetectWords[tok] {
			it++
		}
	}
	return it, en
}

// NormalizeLanguage reduces a declared language ("it-IT", "en_US", "EN") to
// its lower-case primary subtag; anything that does not look like a
// language code gives "".
func NormalizeLanguage(s string) string {
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
