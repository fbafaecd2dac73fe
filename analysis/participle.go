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
