package analysis

import "strings"

// ItalianRoot returns the stem of an irregular Italian verb's infinitive
// for the Snowball stem of its past participle, or of the noun made from
// it, and stem itself for any other stem. The stemmer cuts endings, so
// the participle and the infinitive of a verb whose root changes never
// meet: "previsti" is "previst" and "prevede" is "preved", "richiesta" is
// "richiest" and "richiedere" is "richied". A question asks with one form
// ("Quale legge prevede …?") and the passage answers with the other
// ("… previsti dall'art. 15"), so a check of which of the question's words
// a passage holds compares both through ItalianRoot. Only roots whose
// participle is irregular are listed, by the ending their compounds share
// ("mess" for messo, permesso, promesso); the verbs in -ire are left out,
// since the stemmer does not make their own forms meet ("aprire" is
// "aprir", "apre" is "apre").
func ItalianRoot(stem string) string {
	for _, r := range italianRoots {
		if rest, ok := strings.CutSuffix(stem, r.participle); ok && (rest != "" || !r.compoundOnly) {
			return rest + r.infinitive
		}
	}
	return stem
}

// italianRoots pair a participle's stem ending with the infinitive's,
// longest endings first where one ends another. compoundOnly endings are
// words of their own too ("tesi", "volta"), so they are read as a
// participle only after a prefix ("attes", "coinvolt").
var italianRoots = []struct {
	participle, infinitive string
	compoundOnly           bool
}{
	{"rispost", "rispond", false}, // risposta, rispondere
	{"nascost", "nascond", false},
	{"chiest", "chied", false}, // richiesta, richiedere
	{"scritt", "scriv", false}, // iscritto, descrivere
	{"redatt", "redig", false},
	{"corrett", "corregg", false},
	{"protett", "protegg", false},
	{"dirett", "dirig", true}, // diretto is also "direct"
	{"elett", "elegg", true},
	{"raccolt", "raccogl", false},
	{"accolt", "accogl", false},
	{"scelt", "scegl", false},
	{"tolt", "togl", false},
	{"volt", "volg", true}, // coinvolto, svolto; "volta" alone is a time
	{"giunt", "giung", false},
	{"rott", "romp", false},
	{"moss", "muov", false},
	{"mess", "mett", false},
	{"cess", "ced", true}, // accesso, concesso
	{"decis", "decid", false},
	{"divis", "divid", false},
	{"clus", "clud", false}, // incluso, escluso
	{"spes", "spend", false},
	{"pres", "prend", false},
	{"pers", "perd", false},
	{"vist", "ved", false}, // previsto, visto
	{"tes", "tend", true},  // attesa, esteso; "tesi" alone is a thesis
}

// EnglishRoot returns the stem of an irregular English verb's base form
// for the stem of its past tense or participle ("written" for "write",
// "built" for "build", "paid" for "pay"), and stem itself for any other
// stem: the stemmer cuts regular endings only, so a question that asks
// with one form ("Who has written …?") and a passage that answers with
// another ("… write to the office") share no key for the verb.
func EnglishRoot(stem string) string {
	if r, ok := englishRoots[stem]; ok {
		return r
	}
	return stem
}

// englishRoots maps the stems of irregular past forms to their base's:
// the verbs whose past differs from the base by more than a regular
// ending, leaving out the verbs of the stop lists ("did", "got", "went")
// and those with a form that is a common word of its own ("left",
// "felt", "found", "saw", "led", "meant", "rose", "won", "fell").
var englishRoots = func() map[string]string {
	st := EnglishStemmer()
	stem := func(w string) string { return st.Filter([]string{w})[0] }
	m := map[string]string{}
	for _, f := range strings.Fields(`write:wrote:written take:took:taken give:gave:given choose:chose:chosen
		build:built make:made send:sent keep:kept hold:held pay:paid lose:lost buy:bought sell:sold tell:told
		meet:met begin:began:begun know:knew:known show:showed:shown grow:grew:grown draw:drew:drawn
		throw:threw:thrown break:broke:broken speak:spoke:spoken steal:stole:stolen freeze:froze:frozen
		forget:forgot:forgotten hide:hid:hidden ride:rode:ridden drive:drove:driven shake:shook:shaken
		wake:woke:woken wear:wore:worn eat:ate:eaten fly:flew:flown forgive:forgave:forgiven swim:swam:swum
		strike:struck stick:stuck dig:dug feed:fed flee:fled spend:spent lend:lent bend:bent deal:dealt
		sleep:slept sweep:swept teach:taught catch:caught bring:brought think:thought fight:fought seek:sought
		see:seen understand:understood stand:stood undertake:undertook:undertaken rewrite:rewrote:rewritten
		rebuild:rebuilt withdraw:withdrew:withdrawn arise:arose:arisen`) {
		forms := strings.Split(f, ":")
		for _, form := range forms[1:] {
			if s := stem(form); s != stem(forms[0]) {
				m[s] = stem(forms[0])
			}
		}
	}
	return m
}()
