package analysis

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Telling English from Italian in a short text, such as a question of
// three to twelve words, where counting function words alone (what a
// document's language detection does) often finds one or none.
//
// Each word adds evidence to one side or the other:
//
//   - a function word of one language only (articles, prepositions,
//     pronouns, auxiliaries and modals, question words) weighs most:
//     funcWeight, or weakWeight for a word the other language also has
//     in rarer use ("do", "come", "per");
//   - an Italian elision ("dell'", "c'", "un'") or an English contraction
//     ("n't", "'s", "'re") weighs as much as a function word;
//   - the capital pronoun "I" inside a sentence is English, and the
//     lower-case article "i" Italian;
//   - a word in capitals (VPN, ISO) is a name and says nothing;
//   - every other word adds the evidence of its spelling, at most
//     maxWordWeight either way: a final accented vowel (città, perché) is
//     Italian; a final a, i or o is Italian, a final consonant or y
//     English (Italian words end in a vowel except loans and a few
//     truncated forms); typical endings (-zione, -mente, -ato, -ando;
//     -ing, -tion, -ness, -ly); letter groups one language writes and the
//     other does not (gli, zz, cch, uo; th, wh, sh, ck, ee, oo, ght, and
//     the letters k, w, x, y, which native Italian words lack).
//
// The side with more evidence wins; none at all, or exactly as much on
// both sides, is undetermined ("").
const (
	funcWeight    = 3.0
	weakWeight    = 1.5
	maxWordWeight = 1.5
)

// englishFunction are English function words that are not Italian words
// (so "a", "in", "no", "me", "so", "come", "era", "con" are left out),
// and the greetings and courtesies a question may be alone with.
var englishFunction = NewWordSet(strings.Fields(`the of and to is that for it with as was on are be by
	this from at or an have has had not but you which they his her she he we will can would there
	their what all been were if when your more about than them these some into only other its also
	our who should may must any each how does did out up then because between after before over
	under such those while where why very most just being could my us him within without here both
	through during against until again once same own few nor off too whom whose upon shall might
	yes am get got much many every whether there's let's need want am i'm i've i'd i'll
	hello hi hey thanks thank please sorry goodbye`)...)

// italianFunction are Italian function words, modal and common verbs of
// questions that are not English words, and the greetings and
// courtesies.
var italianFunction = NewWordSet(strings.Fields(`il lo la le gli un una uno di del dello della dei
	degli delle da dal dallo dalla dai dagli dalle al allo alla ai agli alle nel nello nella nei
	negli nelle sul sullo sulla sui sugli sulle col coi su tra fra che chi cui non ed è sono siamo
	siete sei essere stato stata stati state ha hai hanno ho abbiamo avete questo questa questi
	queste quello quella quelli quelle anche più molto molti molte ogni tutti tutto tutta tutte
	loro suo sua suoi sue mio mia miei mie tuo tua nostro nostra vostro vostra dopo prima senza
	sempre già ancora può possono posso puoi possiamo deve devono devo devi dobbiamo dovrei
	viene vengono va vanno quale quali qual qualsiasi oppure però quindi mentre poi così lei lui
	noi voi cosa sia ci si mi ti vi ne perché quando dove ma se quanto quanti quanta quante
	entro presso verso fino serve servono bisogna occorre fare faccio fa vorrei voglio vuole
	bisogno nessun nessuna alcuni alcune qualche cioè ossia inoltre
	ciao salve buongiorno buonasera grazie scusa scusi prego arrivederci`)...)

// weakEnglish and weakItalian are function words of one language that
// the other has as rarer words ("do" = I give, "come" = to come, "per" in
// "per night").
var (
	weakEnglish = NewWordSet("do", "so")
	weakItalian = NewWordSet("come", "per", "e", "o", "con", "in")
)

// italianElisionPrefixes are the elided forms that end at an apostrophe.
var italianElisionPrefixes = NewWordSet("l'", "un'", "dell'", "all'", "dall'", "nell'", "sull'",
	"coll'", "quest'", "quell'", "c'", "d'", "anch'", "com'", "dov'", "tutt'", "senz'", "po'",
	"nessun'", "qual'", "buon'", "bell'", "sant'", "m'", "t'", "s'", "v'", "n'")

// englishContractions are the endings of English contractions.
var englishContractions = []string{"n't", "'s", "'re", "'ve", "'ll", "'m", "'d"}

var (
	italianEndings = []string{"zione", "zioni", "mente", "aggio", "eggio", "iamo", "ando", "endo",
		"are", "ere", "ire", "ato", "ata", "ati", "ate", "ito", "iti", "uto", "uti", "zza", "zze",
		"glia", "glie", "gli", "etto", "etta", "ello", "ella", "issimo", "ista", "iste", "abile", "ibile"}
	englishEndings = []string{"ing", "tion", "tions", "sion", "ness", "ment", "ments", "ship", "ful",
		"less", "ous", "ly", "ity", "th", "ck", "sh", "ght", "ed", "able", "ible", "ies"}
	italianGroups = []string{"gli", "zz", "cch", "ggi", "zio", "uo", "cqu", "gn"}
	englishGroups = []string{"th", "wh", "sh", "ck", "ee", "oo", "ght", "ou", "aw", "ow", "ph"}
)

// QuestionLanguage tells whether text, typically a short question, is
// English ("en") or Italian ("it"), by the evidence described at the top
// of this file; "" when it holds none, or as much for both.
func QuestionLanguage(text string) string {
	it, en := LanguageEvidence(text)
	switch {
	case it > en:
		return "it"
	case en > it:
		return "en"
	}
	return ""
}

// DecisiveLanguage is QuestionLanguage when one language's evidence
// exceeds the other's by at least a function word's weight, else "": a
// guess from spelling alone ("fatture", a code, a name) tells which
// language to answer in, but is too weak to analyse a search in that
// language alone.
func DecisiveLanguage(text string) string {
	it, en := LanguageEvidence(text)
	switch {
	case it-en >= funcWeight:
		return "it"
	case en-it >= funcWeight:
		return "en"
	}
	return ""
}

// LanguageEvidence returns the Italian and the English evidence of text
// (see QuestionLanguage), for a trace or a caller with its own margin.
func LanguageEvidence(text string) (it, en float64) {
	for i, w := range languageWords(text) {
		lower := strings.ToLower(w)
		switch {
		case lower == "i":
			// The English pronoun is written "I"; a sentence's first word
			// is capitalised in both languages.
			if w == "I" && i > 0 {
				en += funcWeight
			} else if w == "i" {
				it += weakWeight
			}
			continue
		case englishFunction.Has(lower):
			en += funcWeight
			continue
		case italianFunction.Has(lower):
			it += funcWeight
			continue
		case weakEnglish.Has(lower):
			en += weakWeight
			continue
		case weakItalian.Has(lower):
			it += weakWeight
			continue
		case acronym(w):
			continue // VPN, ISO, SOP: names, in every language
		}
		if k := strings.IndexByte(lower, '\''); k > 0 {
			if italianElisionPrefixes.Has(lower[:k+1]) {
				it += funcWeight
				continue
			}
			if hasSuffix(lower, englishContractions) {
				en += funcWeight
				continue
			}
		}
		wi, we := spellingEvidence(lower)
		it += wi
		en += we
	}
	return it, en
}

// spellingEvidence is the evidence of one content word's letters, at most
// maxWordWeight for the side it favours (the other side's is subtracted).
func spellingEvidence(w string) (it, en float64) {
	w = strings.Trim(w, "'-")
	if utf8.RuneCountInString(w) < 3 || strings.ContainsFunc(w, unicode.IsDigit) {
		return 0, 0 // codes, figures and very short words say nothing
	}
	last, _ := utf8.DecodeLastRuneInString(w)
	switch last {
	case 'à', 'è', 'é', 'ì', 'ò', 'ù':
		it += 2
	case 'a', 'i', 'o':
		it++
	case 'e', 'u':
	case 'y':
		en++
	case 's':
		en++
	default:
		if unicode.IsLetter(last) {
			en += 0.75
		}
	}
	if strings.ContainsAny(w, "àèéìòù") && !strings.ContainsRune("àèéìòù", last) {
		it += 0.5
	}
	if hasSuffix(w, italianEndings) {
		it++
	}
	if hasSuffix(w, englishEndings) {
		en++
	}
	if containsAny(w, italianGroups) {
		it += 0.5
	}
	if containsAny(w, englishGroups) || strings.ContainsAny(w, "kwxy") {
		en += 0.75
	}
	// One word never outweighs a function word: net evidence is capped.
	if d := it - en; d > maxWordWeight {
		return maxWordWeight, 0
	} else if d < -maxWordWeight {
		return 0, maxWordWeight
	} else if d > 0 {
		return d, 0
	} else {
		return 0, -d
	}
}

// languageWords splits text into words: runs of letters joined by
// apostrophes (typographic ones folded) and hyphens, so "dell'ufficio",
// "don't" and "e-mail" stay whole.
func languageWords(text string) []string {
	text = strings.ReplaceAll(text, "’", "'")
	var out []string
	for _, f := range strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '-'
	}) {
		if f = strings.Trim(f, "'-"); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// acronym reports whether w is written in capitals only (two or more).
func acronym(w string) bool {
	n := 0
	for _, r := range w {
		if unicode.IsLower(r) {
			return false
		}
		if unicode.IsUpper(r) {
			n++
		}
	}
	return n >= 2
}

func hasSuffix(w string, suffixes []string) bool {
	for _, s := range suffixes {
		if len(w) > len(s) && strings.HasSuffix(w, s) {
			return true
		}
	}
	return false
}

func containsAny(w string, groups []string) bool {
	for _, g := range groups {
		if strings.Contains(w, g) {
			return true
		}
	}
	return false
}
