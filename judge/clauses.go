package judge

import (
	"fmt"
	"regexp"
	"strings"
)

// A model's answer can state the reference's facts and still mislead:
// the opposite yes or no said after a right one ("No, not for new
// projects, although a team may still start one in it"), or another name
// or code stated first and the reference's after it ("Prometheus and
// Grafana, with Pingdom as a backup"). These rules read the clauses of an
// answer without citation marks, whose every sentence is its own.

// contrastRE matches the words that open a clause qualifying what came
// before: but, however, although, that said, still; ma, però, tuttavia,
// anche se, comunque.
var contrastRE = regexp.MustCompile(`(?i)(?:^|[\s,;:—–(])(?:but|however|although|though|that said|even so|nevertheless|nonetheless|yet|still|ma|però|tuttavia|sebbene|benché|eppure|anche se|detto questo|ciò detto)(?:[^\p{L}]|$)`)

// takesBack returns the clause of an answer without citations that
// opens by contrast, after the answer said the reference's yes or no,
// and says the opposite about what the question asks: a no by a negated
// verb ("That said, a false positive doesn't need its outcome recorded"
// after a yes), a yes by a word that grants ("although a team … may still
// start a new service in it" after a no). A reader is left with both
// answers, and the one said last stands.
//
// After a no, a contrasting clause that asks for what the reference
// denies says yes too: "No, non serve una convenzione; serve però una
// richiesta di accesso" for "non servono convenzioni né richieste di
// accesso".
func takesBack(question, reference, answer, key string) []string {
	if cited(answer) {
		return nil
	}
	text := strings.ReplaceAll(strings.TrimSpace(withoutCitations(answer)), "’", "'")
	if p, _ := openingYesNo(text); p != key {
		return nil
	}
	asked := topicStems(question)
	var denied []string
	for _, m := range negatedPhraseRE.FindAllStringSubmatch(asideRE.ReplaceAllString(reference, " "), -1) {
		denied = append(denied, topicStems(m[1])...)
	}
	for _, m := range contrastRE.FindAllStringIndex(text, -1) {
		clause := firstSentence(text[m[1]:])
		bare := notNegationRE.ReplaceAllString(conditionRE.ReplaceAllString(clause, " "), " ")
		affirms := !negationRE.MatchString(bare)
		if key == "no" && affirms && sharedStems(topicStems(clause), denied) >= minTopicStems {
			return []string{fmt.Sprintf("the answer says no, then asks for what the reference denies: %q", strings.TrimSpace(clause))}
		}
		// After a yes, a contrasting clause that grants what the
		// reference's reason denies takes the reason back: "Yes, but you
		// may lend it" for "Yes: it may not be lent to anyone".
		if key == "yes" && affirms && permissionRE.MatchString(bare) && len(denied) > 0 && sharedStems(topicStems(clause), denied) >= min(minTopicStems, (len(denied)+1)/2) {
			return []string{fmt.Sprintf("the answer says yes, then grants what the reference denies: %q", strings.TrimSpace(clause))}
		}
		if sharedStems(topicStems(clause), asked) < minTopicStems {
			continue
		}
		denies := verbNegationRE.MatchString(bare)
		grants := permissionRE.MatchString(bare) && affirms
		if key == "yes" && denies || key == "no" && grants {
			return []string{fmt.Sprintf("the answer says %s, then takes it back: %q", key, strings.TrimSpace(clause))}
		}
	}
	return nil
}

// restrictingRE matches an answer that opens by restricting what it
// grants to some cases: "Only real leaks need …", "Solo i progetti nuovi
// …". ("Only if …" is onlyIfRE's.)
var restrictingRE = regexp.MustCompile(`(?i)^\W*(?:only|solo|soltanto|solamente|unicamente)\s+\p{L}`)

// clauseBreakRE matches where an answer's first clause ends: a
// semicolon, a comma, or the words that add something beside it (with,
// but, although; con, ma, mentre).
var clauseBreakRE = regexp.MustCompile(`(?i)\s*[;,]\s*|\s+(?:with|but|although|while|whereas|plus|con|ma|mentre|più)\s+`)

// clauseOpenerRE matches a first clause that sets the scene or sets
// something aside instead of answering: "According to the guide",
// "Unlike Nagios", "Not Amazon SES", "Usually, Twilio", "Secondo le linee
// guida", "Invece di SES", "Di solito, Twilio".
var clauseOpenerRE = regexp.MustCompile(`(?i)^\W*(?:according|as|per|unlike|instead|rather|not|no|never|apart|besides|secondo|come|invece|anziché|a differenza|non|oltre|in base|stando|di solito|\p{L}+ly|\p{L}+mente)\b`)

// otherNamesFirst returns the names and codes the first clause of an
// answer without citations states in place of the reference's, when the
// reference's only come after it: "Prometheus and Grafana, with Pingdom
// as a backup" for Pingdom; "la n. 237/2017, poi aggiornata dalla n.
// 115/2019" for 115/2019. What a reader takes as the answer is what the
// answer names first.
func otherNamesFirst(question, reference string, ref reference, answer string, ld lead) []string {
	if cited(answer) || !(ld.direct || ld.first) {
		return nil
	}
	loc := clauseBreakRE.FindStringIndex(ld.sentence)
	if loc == nil || loc[0] == 0 || clauseOpenerRE.MatchString(ld.sentence) {
		return nil
	}
	first, rest := ld.sentence[:loc[0]], ld.sentence[loc[1]:]
	stated := func(text string) bool {
		for _, f := range ref.facts {
			if (f.kind == nameFact || f.kind == codeFact) && containsBounded(strings.ToLower(text), strings.ToLower(f.text)) {
				return true
			}
		}
		return false
	}
	if stated(first) || !stated(rest) {
		return nil
	}
	// A word of the reference's own ("Notify, the GOV.UK service"; "Run
	// Java under tini") is no other name.
	var others []fact
	lowerRef := strings.ToLower(reference)
	for _, g := range extract(first) {
		if !containsBounded(lowerRef, strings.ToLower(g.text)) {
			others = append(others, g)
		}
	}
	if out := otherNamesStated(question, reference, ref, others, lead{text: first, sentence: first, direct: true}, false); len(out) > 0 {
		return out
	}
	// A name or code that the question does not hold, or a tool the
	// clause says to run ("Run dpkg-buildpackage"), put first where the
	// reference names its own thing only after it, is another thing.
	lowerQ := strings.ToLower(question)
	var out []string
	for _, g := range others {
		if (g.kind == nameFact || g.kind == codeFact) && !containsBounded(lowerQ, strings.ToLower(g.text)) {
			out = append(out, g.text+" named before the reference's")
		}
	}
	if m := runToolRE.FindStringSubmatch(first); m != nil && !containsBounded(lowerRef, strings.ToLower(m[1])) && !containsBounded(lowerQ, strings.ToLower(m[1])) {
		out = append(out, m[1]+" named before the reference's")
	}
	if len(out) == 0 && !negationRE.MatchString(first) && len(extract(first)) == 0 {
		out = ownWordsFirst(question, reference, first)
	}
	return out
}

// minOwnFirstWords is how many content words of its own, in neither the
// question nor the reference, a first clause must hold to be read as
// another answer: "Send them by email to the mailing list; the #incident
// channel is for chat" answers with email before the reference's name.
const minOwnFirstWords = 3

// ownWordsFirst returns the first clause of an answer when it answers
// in words of its own, without a name, code or figure, before the
// reference's name comes in a later clause.
func ownWordsFirst(question, reference, first string) []string {
	if len(newWords(first, question, reference)) < minOwnFirstWords {
		return nil
	}
	return []string{fmt.Sprintf("the answer opens with %q before the reference's name", strings.TrimSpace(first))}
}

// countedOtherwise returns the count a lead opens with ("Three: …") where
// the question counts the things it asks for otherwise ("Which two roles
// …"): the answer says another number of them.
func countedOtherwise(question, leadText string) []string {
	m := countOpeningRE.FindStringSubmatch(leadText)
	if m == nil {
		return nil
	}
	n, ok := wordNumber(fold(m[1]))
	if !ok {
		n, ok = parseDigits(m[1])
	}
	if !ok {
		return nil
	}
	for _, q := range questionFiguresOf(question) {
		if !q.unit.empty() && !q.unit.known() && q.clock < 0 && !equalValues(q.value, n) {
			return []string{fmt.Sprintf("the lead counts %s, the question %s", m[1], describe(q))}
		}
	}
	return nil
}

// maxFirstClauseWords is the most content words a reference's first
// clause may hold to be read as its answer, the rest as what it adds
// ("A read-only role; assume admin only when really needed").
const maxFirstClauseWords = 4

// firstClauseReplaced returns the first clause of an answer without
// citations that puts words of its own where the first clause of a
// reference without key facts puts its answer: "Read-only permissions"
// or "Full administrator access, with …" for "Only write permissions;
// the backups should also be …", "The power-user role; …" for "A
// read-only role; …". The reference's later words, which such an answer
// often repeats, do not make up for it.
func firstClauseReplaced(question, reference string, ref reference, answer string, ld lead) []string {
	if len(ref.facts) > 0 || cited(answer) || !(ld.direct || ld.first) || clauseOpenerRE.MatchString(ld.sentence) {
		return nil
	}
	main := strings.TrimSpace(asideRE.ReplaceAllString(reference, " "))
	end := strings.IndexAny(main, ";:")
	if s := firstSentence(main); end < 0 || len(s) < end {
		end = len(s)
	}
	if end >= len(strings.TrimRight(main, ". ")) {
		return nil // one clause: the direct answer's own words are judged whole
	}
	asked := map[string]bool{}
	for _, st := range contentStems(question) {
		asked[st] = true
	}
	var target []string
	for _, st := range contentStems(main[:end]) {
		if !asked[st] {
			target = append(target, st)
		}
	}
	if len(target) == 0 || len(target) > maxFirstClauseWords {
		return nil
	}
	first := ld.sentence
	if loc := clauseBreakRE.FindStringIndex(first); loc != nil && loc[0] > 0 {
		first = first[:loc[0]]
	}
	// A clause that says what is not ("It should not have read
	// access, only write") or introduces a list ("Make sure:") does not
	// state its own answer.
	if negationRE.MatchString(first) || strings.HasSuffix(strings.TrimSpace(first), ":") {
		return nil
	}
	// "ReadOnly" and "read only" hold "read" alike.
	joined := strings.NewReplacer(" ", "", "-", "", "_", "").Replace(fold(first))
	for _, st := range target {
		if strings.Contains(joined, st) {
			return nil
		}
	}
	known := map[string]bool{}
	for _, st := range append(contentStems(question), contentStems(main[:end])...) {
		known[st] = true
	}
	var own []string
	for _, st := range contentStems(first) {
		if !hasStem(known, st) {
			own = append(own, st)
		}
	}
	if len(own) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("the answer opens with %q where the reference says %q", strings.TrimSpace(first), strings.TrimSpace(main[:end]))}
}

// needPhraseRE matches the words between "without" and what is done
// without: "the need to", "having to", "bisogno di", "necessità di",
// "dover".
var needPhraseRE = regexp.MustCompile(`(?i)^\s*(?:(?:any|the|a|an|alcun[oa]?|il|la|lo|un|una|nessun[oa]?)\s+)?(?:need(?:ing)? (?:to|for|of)|having to|bisogno di|necessità di|obbligo di|dover(?:e|lo|la)?)\s+`)

// negatedPhraseRE matches a negation and the few words it denies: "non
// servono convenzioni", "not required".
var negatedPhraseRE = regexp.MustCompile(`(?i)(?:\b(?:not|no|never|non|mai|nor)|(?:^|[^\p{L}])né)((?:\s+[\p{L}'’]+){1,6})`)

// maxWithoutStems is how many content words after "without" name what
// is done without.
const maxWithoutStems = 2

// doesWithout returns what a lead does without that the reference's main
// clause requires: "senza bisogno di documentarlo" for "Redigere un
// documento … e passare alla macro fase 3". What the reference itself
// does without or denies ("senza modifiche", "non servono convenzioni")
// an answer may do without too, and "without waiting for" puts nothing
// aside.
func doesWithout(reference, sentence string) []string {
	main := asideRE.ReplaceAllString(reference, " ")
	required := map[string]bool{}
	for _, st := range topicStems(main) {
		required[st] = true
	}
	for _, re := range []*regexp.Regexp{withoutRE, negatedPhraseRE} {
		for _, m := range re.FindAllStringSubmatch(main, -1) {
			for _, st := range topicStems(m[1]) {
				delete(required, st)
			}
		}
	}
	var out []string
	for _, m := range withoutRE.FindAllStringSubmatch(sentence, -1) {
		if delayRE.MatchString(m[1]) {
			continue
		}
		// The thing done without is among the first words: "without
		// writing any summary".
		stems := topicStems(needPhraseRE.ReplaceAllString(m[1], ""))
		for _, st := range stems[:min(len(stems), maxWithoutStems)] {
			if required[st] {
				out = append(out, fmt.Sprintf("the lead does without %q, which the reference requires", strings.TrimSpace(m[0])))
				break
			}
		}
	}
	return out
}

// alternativeCaseRE matches where a reference offers a second case: ",
// or when …", "oppure quando …", "o se …".
var alternativeCaseRE = regexp.MustCompile(`(?i)[,;]?\s+(?:or|oppure|o)\s+(?:when|if|where|whenever|quando|se|qualora|ove|dove)\b`)

// onlyOneCase returns a lead that opens with "only" and states one of
// the cases a reference offers as alternatives, none of the other: "Solo
// quando il software è stato realizzato da risorse interne" for "Quando
// il contratto le attribuisce i diritti …, oppure quando il software è
// stato realizzato da risorse interne". "Only" excludes the other case.
func onlyOneCase(reference, leadText string) []string {
	if !restrictingRE.MatchString(leadText) {
		return nil
	}
	parts := alternativeCaseRE.Split(asideRE.ReplaceAllString(reference, " "), -1)
	if len(parts) < 2 {
		return nil
	}
	have := map[string]bool{}
	for _, st := range topicStems(leadText) {
		have[st] = true
	}
	kept, dropped := false, false
	for _, p := range parts {
		stems := topicStems(p)
		if len(stems) == 0 {
			continue
		}
		switch cov := coverage(stems, have); {
		case cov >= 0.5:
			kept = true
		case cov < partialCoverage:
			dropped = true
		}
	}
	if kept && dropped {
		return []string{"the lead keeps only one of the reference's cases"}
	}
	return nil
}

// minSwapWords is the fewest words a reference must have before an
// answer that repeats all but one of them reads as the same sentence.
const minSwapWords = 3

// oneWordSwapped returns the word an answer without citations puts in
// place of one of the reference's, when it repeats every other word in
// order: "An incident lead and a technical lead." for "… and a
// no-dependabot tag …", when the word it replaces is one of the
// reference's names or codes. The word that differs is what it answers.
// A common word swapped is most often a paraphrase ("directory
// principale" for root directory), and a number is judged as a figure.
func oneWordSwapped(ref reference, reference, answer string) []string {
	if cited(answer) {
		return nil
	}
	rw, aw := foldedWords(asideRE.ReplaceAllString(reference, " ")), foldedWords(withoutCitations(answer))
	if len(rw) < minSwapWords {
		return nil
	}
	at := oneApart(rw, aw, func(x, y string) bool { return stem(x) == stem(y) })
	if at < 0 {
		return nil
	}
	r, a := rw[at], aw[at]
	_, refNumber := parseDigits(r)
	_, ansNumber := parseDigits(a)
	_, refWord := wordNumber(r)
	_, ansWord := wordNumber(a)
	if stopwords[r] || stopwords[a] || refNumber || ansNumber || refWord || ansWord || containsBounded(fold(reference), a) {
		return nil
	}
	named := false
	for _, f := range ref.facts {
		named = named || (f.kind == nameFact || f.kind == codeFact) && fold(f.text) == r
	}
	if !named {
		return nil
	}
	return []string{fmt.Sprintf("the answer says %q where the reference says %q", a, r)}
}

// ownInFrame reports whether a sentence is the question's and the
// reference's words around one word of its own in letters: that word is
// its answer ("Sintassi bash." for "Sintassi POSIX", "Imposta la
// distribuzione a experimental …" for UNRELEASED). A code or a number
// of its own ("Enable 2FA.") is judged as one.
func ownInFrame(own []string, sentence, question, reference string) bool {
	if len(own) != 1 || !isLetters(own[0]) {
		return false
	}
	known := map[string]bool{}
	for _, st := range append(contentStems(question), contentStems(reference)...) {
		known[st] = true
	}
	for _, st := range contentStems(sentence) {
		if st != own[0] && !hasStem(known, st) {
			return false
		}
	}
	text := strings.ToLower(question + " " + reference)
	for _, f := range strings.Fields(sentence) {
		if w := trimWord(f); codeClass(w) != "" && !containsBounded(text, strings.ToLower(w)) {
			return false
		}
	}
	return true
}

// runToolRE matches a first clause that tells to run or use a tool
// named in lower case with a hyphen, the way command-line tools are
// named: "Run dpkg-buildpackage", "Usa dh-make".
var runToolRE = regexp.MustCompile(`(?i)^\W*(?:run|use|install|execute|call|try|esegui|usa|usare|installa|lancia|prova)\s+` + "`?" + `([a-z][a-z0-9]*(?:-[a-z0-9]+)+)\b`)
