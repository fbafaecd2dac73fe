package answer

import (
	"regexp"
	"strings"
)

// A yes/no question ("Can we start a new service in Scala?", "Si può
// pubblicare il manuale in PDF?") is answered by a rule, which the
// offline answerer quotes; the reader still has to work out whether it
// means yes or no. polarity reads that from the quoted sentence, and
// only where the sentence leaves no doubt: it is bound to the question
// (it holds at least leadCoverage of the question's topic words), and it
// either forbids (a negated modal, "do not", "never", "vietato",
// "escluso") without also allowing, or, for a question that asks whether
// something may or must be done, allows or obliges in the same way
// without any negation. Anything else (a negation in another clause of
// an allowing sentence, a question of fact such as "Is it …?") gets no
// yes or no: a wrong one misleads, a missing one costs little.

var (
	// mayAskRE and mustAskRE: a question that asks whether something may
	// be done, or must be.
	mayAskRE  = regexp.MustCompile(`^(?:can|could|may|is it (?:ok|okay|possible|allowed|fine) to|are we allowed to|am i allowed to|posso|possiamo|si può|si possono|è possibile|è consentito|è ammess[oa])(?:\s|$)`)
	mustAskRE = regexp.MustCompile(`^(?:must|do (?:i|we|you) (?:have|need) to|does (?:it|one) (?:have|need) to|should|devo|dobbiamo|deve|devono|bisogna|serve|servono|occorre|è necessario|è obbligatori[oa]|va|vanno)(?:\s|$)`)
	// innerMayRE and innerMustRE: the same past an Italian subject.
	innerMayRE  = regexp.MustCompile(`(?:^|\s)(?:si può|si possono|può|possono|posso|possiamo|è possibile)(?:\s|$)`)
	innerMustRE = regexp.MustCompile(`(?:^|\s)(?:va|vanno|deve|devono|devo|dobbiamo|bisogna|serve|servono|occorre|è obbligatori[oa]|è necessari[oa])(?:\s|$)`)
	// forbidRE: what forbids, or says there is no need.
	forbidRE = wordsRE(`must not|mustn't|may not|cannot|can't|can not|do not|don't|does not|doesn't|should not|shouldn't|need not|never|not allowed|not permitted|prohibited|forbidden|non (?:si )?(?:deve|devono|può|possono|va|vanno|serve|servono|occorre|bisogna|è (?:ammess|consentit|possibile|permess|necessari|obbligatori)\w*|sono (?:ammess|consentit|permess|necessari|obbligatori)\w*)|vietat\w*|esclus[oaie]|mai`)
	// negationRE: any negation, which makes an allowing sentence unsure.
	negationRE = wordsRE(`not|no|never|nor|cannot|can't|don't|doesn't|non|né|mai|senza|without|except|unless|tranne|salvo`)
	// allowRE and obligeRE: what allows, and what obliges.
	allowRE  = wordsRE(`can|may|allowed|permitted|può|possono|è possibile|è consentit\w*|sono consentit\w*|è ammess\w*|sono ammess\w*|si può`)
	obligeRE = wordsRE(`must|have to|has to|need to|needs to|required|mandatory|deve|devono|dovrà|dovranno|è necessari\w*|è obbligatori\w*|occorre|bisogna|va|vanno`)
)

// wordsRE matches any of the alternatives alt as whole words, case
// folded. Go's \b is ASCII, so it would not bound "può", "né" or "è";
// letters and digits of any script bound them here.
func wordsRE(alt string) *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:^|[^\p{L}\p{N}])(?:` + alt + `)(?:[^\p{L}\p{N}]|$)`)
}

// polarity returns "yes", "no" or "" for the quoted sentence s of a
// yes/no question (see above). held is whether s is bound to the
// question's topic words; all, whether it holds every one of them, which
// a yes needs: a rule that allows or obliges something near the
// question's case ("repository distinti" for "un unico repository")
// would otherwise say yes to it.
func polarity(question, s string, held, all bool) string {
	if !held {
		return ""
	}
	q := askedPart(question)
	may, must := mayAskRE.MatchString(q), mustAskRE.MatchString(q)
	if !may && !must && !whWordRE.MatchString(q) {
		// The subject first: "il manuale si può pubblicare in PDF?".
		may, must = innerMayRE.MatchString(q), innerMustRE.MatchString(q)
	}
	if !may && !must {
		return ""
	}
	if setApart(question, s, ContentKeys(question)) && !negationRE.MatchString(s) {
		return "no" // "a buddy distinct from their line manager": the buddy is not the manager
	}
	forbids := forbidRE.MatchString(s)
	allows := allowRE.MatchString(s) && !forbids
	switch {
	case forbids && !negatesTwice(s):
		if allowRE.MatchString(forbidRE.ReplaceAllString(s, "")) || obligeRE.MatchString(forbidRE.ReplaceAllString(s, "")) {
			return "" // "you can X but must not Y": which one the question asks is unsure
		}
		return "no"
	case negationRE.MatchString(s):
		return ""
	case all && (may && allows || must && obligeRE.MatchString(s)):
		return "yes"
	}
	return ""
}

// negatesTwice reports whether s negates more than once: a second
// negation may reverse the first ("not only … but", "non solo").
func negatesTwice(s string) bool {
	return len(negationRE.FindAllString(s, -1)) > 1
}

// yesNoWord returns the word for a polarity in the question's language.
func yesNoWord(question, p string) string {
	switch {
	case p == "no":
		return "No"
	case p == "yes" && shortLanguage(question) == "it":
		return "Sì"
	case p == "yes":
		return "Yes"
	}
	return ""
}

// withoutYesNo drops the yes or no an extractive answer leads with
// ("No — Bicycles stay in the yard."), keeping the sentence: a question
// about something no document names ("Can I bring my parrot?") is not
// ruled on by a sentence about something else, however many of the
// question's other words it holds; the reader gets the nearest rule and
// the notice of the word no document uses, not a verdict.
func withoutYesNo(text string) string {
	for _, w := range []string{"Yes", "No", "Sì"} {
		if rest, ok := strings.CutPrefix(text, w+" — "); ok {
			return rest
		}
	}
	return text
}

// heldTopic reports whether keys hold at least leadCoverage of the
// question's topic words, and whether they hold all of them.
func (l leader) heldTopic(keys map[string]bool) (held, all bool) {
	n := l.held(keys)
	return len(l.topic) > 0 && float64(n) >= leadCoverage*float64(len(l.topic)), len(l.topic) > 0 && n == len(l.topic)
}
