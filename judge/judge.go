package judge

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Verdict is the judgement of one answer against a reference answer.
type Verdict string

// The five verdicts, as defined for fonte's evaluation (see the package
// comment).
const (
	Right      Verdict = "right"      // states every key fact, leads with none that contradicts
	Misleading Verdict = "misleading" // leads with a fact that contradicts the reference
	Partial    Verdict = "partial"    // states some key facts, misses others
	Wrong      Verdict = "wrong"      // states none of the key facts
	Abstained  Verdict = "abstained"  // says it does not know
)

// Verdicts lists the verdicts in the order reports print them.
var Verdicts = []Verdict{Right, Misleading, Partial, Wrong, Abstained}

// ParseVerdict returns the verdict named s, or an error naming the five.
func ParseVerdict(s string) (Verdict, error) {
	for _, v := range Verdicts {
		if string(v) == s {
			return v, nil
		}
	}
	return "", fmt.Errorf("unknown verdict %q (want right, misleading, partial, wrong or abstained)", s)
}

// Result is a verdict and what led to it.
type Result struct {
	Verdict Verdict `json:"verdict"`
	// Facts are the reference's key facts (its asides left out); Found
	// and Missing divide them by whether the answer states them.
	Facts   []string `json:"facts,omitempty"`
	Found   []string `json:"found,omitempty"`
	Missing []string `json:"missing,omitempty"`
	// Contradicted says which facts of the lead contradict which of the
	// reference: "180 euro against 250 euro".
	Contradicted []string `json:"contradicted,omitempty"`
	// Lead is what the answer leads with: fonte's span before " — ", or
	// the first sentence.
	Lead string `json:"lead,omitempty"`
	// Why says in a sentence which rule decided.
	Why string `json:"why"`
}

// Word coverage decides for references without key facts ("The north car
// park."): the share of their content words the answer holds.
const (
	rightCoverage   = 2.0 / 3
	partialCoverage = 1.0 / 3
)

// minWordsBeyondFacts is how many content words a reference must add to
// its key facts before they are required too: a reference that names a
// file and says where it goes and how ("LICENSE in the repository's root,
// with the licence's full text unchanged") is not answered by the name
// alone, which holds under a third of them.
const minWordsBeyondFacts = 5

// minTopicStems is how many content words (or half, if fewer) a sentence
// must share with the question or with the reference's words before its
// negation, or its lack of one, says no or yes: one shared word of many
// is chance, and an unrelated passage says neither yes nor no.
const minTopicStems = 2

// oneUnitRE matches a single unit of time said with an article: "an
// hour", "a week", "un'ora", "una settimana".
var oneUnitRE = regexp.MustCompile(`(?i)\b(?:an?|una?|one)\s+(hour|day|week|month|year|minute|giorno|settimana|mese|anno|minuto)\b|\bun['’](ora)\b`)

// questionFiguresOf returns the figures a question gives, "an hour" and
// "un mese" among them: a reference that restates them ("under one
// hour") does not ask the answer to repeat them.
func questionFiguresOf(question string) []figure {
	return figuresOf(extract(oneUnitRE.ReplaceAllStringFunc(question, func(m string) string {
		g := oneUnitRE.FindStringSubmatch(m)
		return "1 " + g[1] + g[2]
	})))
}

// figureQuestionRE matches the English and Italian questions that ask for
// a figure: how many, how much, how long, when, what time, quanto, quando,
// a che ora, entro quando, and those that ask for a maximum or a minimum.
var figureQuestionRE = regexp.MustCompile(`(?i)\bhow (?:many|much|long|often|far|soon|old|big|large|fast)\b|\bwhen\b|\bwhat time\b|\bby what date\b|\bquant[oaie]\b|\bquando\b|\ba che ora\b|\bogni quanto\b|\bentro quando\b|\b(?:maximum|minimum|max|min|massim[oa]|minim[oa])\b`)

// asksForFigure reports whether a question asks for a figure, which an
// answer without it does not half answer.
//
// "When" and "quando" ask only when no other question word follows: in
// "When we copy backups, what permissions …" the when is a conjunction.
func asksForFigure(question string) bool {
	for _, m := range figureQuestionRE.FindAllStringIndex(question, -1) {
		w := strings.ToLower(question[m[0]:m[1]])
		// "When" before or after another question word opens a clause
		// ("When …, what …?", "What schedule am I on when I start?"):
		// the other word asks.
		if (w == "when" || w == "quando") && (laterQuestionWordRE.MatchString(question[m[1]:]) || laterQuestionWordRE.MatchString(question[:m[0]])) {
			continue
		}
		return true
	}
	return false
}

// laterQuestionWordRE matches a question word after a conjunction.
var laterQuestionWordRE = regexp.MustCompile(`(?i)\b(?:what|which|who|whom|where|how|why|cosa|quale|quali|chi|dove|come)\b|\bperch[ée](?:[^\p{L}]|$)`)

// minWordsForPartial is how many content words beyond its key facts a
// reference needs (when its figure is not what the question asks for) before the words alone, half of them
// found, make an answer partial ("Your line manager, then Finance"
// answered "your line manager"): one shared word is chance.
const minWordsForPartial = 2

// asideRE matches a parenthesised aside after a space, with one level
// of parentheses inside it ("(see gbp.conf(5))"): "$(DESTDIR)" is a
// name, not an aside.
var asideRE = regexp.MustCompile(`\s+\((?:[^()]|\([^()]*\))*\)`)

// exceptionRE matches an exception clause after a comma, to the end of
// its sentence: ", except for …", ", salvo …", ", tranne …".
//
// A relative clause after a comma (", which refuses to …", ", il quale
// …") says more about what the main clause named: it is an aside too.
var exceptionRE = regexp.MustCompile(`(?i),\s*(?:except|excepting|save for|apart from|other than|salvo|tranne|eccetto|fatta eccezione|a parte|which|il quale|la quale|i quali|le quali)\b[^.;,]*`)

// Judge decides whether answer states the key facts of reference, the
// answer a person wrote for question. abstained is true when the
// answering system itself reported abstaining.
func Judge(question, reference, answer string, abstained bool) Result {
	answer = withSubUnitsAsBounds(withActTypesInFull(plainText(answer)))
	question, reference = withActTypesInFull(question), withSubUnitsAsBounds(withActTypesInFull(reference))
	answer = withReferenceActsSlashed(reference, withReferenceCodesJoined(reference, withCodeAcronymsSpelled(reference, answer)))
	ld := leadOf(answer)
	r := Result{Lead: ld.text}
	if abstained {
		r.Verdict, r.Why = Abstained, "the answering system abstained"
		return r
	}
	if saysItDoesNotKnow(ld.sentence) {
		r.Verdict, r.Why = Abstained, "the answer says it does not know"
		return r
	}
	ref := readReference(question, reference)
	for _, f := range ref.facts {
		r.Facts = append(r.Facts, f.String())
	}
	if strings.TrimSpace(answer) == "" {
		r.Verdict, r.Why, r.Missing = Wrong, "the answer is empty", r.Facts
		return r
	}
	ans := readAnswer(answer)
	ans.statesJoined(reference)
	ans.statesCognates(reference, answer)
	// A bare number counts what the question names: "Sono 3" to "quali
	// opzioni" states 3 opzioni, "24." to "how many hours" 24 hours.
	for u := range readAnswer(question).units {
		ans.units[u] = true
	}
	questionFigures := questionFiguresOf(question)

	// What the lead contradicts: a span lead stands as the answer; a
	// sentence only when it is about the question.
	leadFacts := extract(withoutSeeAlso(ld.text))
	onTopic := about(ld.sentence, topicStems(question)) || about(ld.sentence, ref.words)
	opening, _ := openingYesNo(ld.sentence)
	if opening == "" && opensWithProhibition(ld.sentence, question) {
		opening = "no"
	}
	statesPolarity := len(ref.facts) > 0 && ref.facts[0].kind == polarityFact && ref.facts[0].key == opening
	r.Contradicted = append(r.Contradicted, leadFigureContradictions(ref, leadFacts, questionFigures, ld, statesPolarity, onTopic, asksForFigure(question))...)
	if ld.span || ld.direct || ld.first {
		r.Contradicted = append(r.Contradicted, otherCounts(figuresOf(leadFacts), questionFigures)...)
		r.Contradicted = append(r.Contradicted, listMiscounted(reference, ld.text)...)
		r.Contradicted = append(r.Contradicted, listWidened(reference, ld.text)...)
		r.Contradicted = append(r.Contradicted, onlySome(reference, ref, leadFacts, ld.text)...)
		r.Contradicted = append(r.Contradicted, onlyWidened(reference, ld.text)...)
		r.Contradicted = append(r.Contradicted, oneEndOfRange(reference, ld.text, leadFacts)...)
		r.Contradicted = append(r.Contradicted, boundTurned(ref, reference, leadFacts, ld.text)...)
		r.Contradicted = append(r.Contradicted, countedOtherwise(question, ld.text)...)
		r.Contradicted = append(r.Contradicted, onlyOneCase(reference, ld.text)...)
		r.Contradicted = append(r.Contradicted, otherAct(reference, ld.text)...)
		r.Contradicted = append(r.Contradicted, articleOfOtherAct(reference, ld.text)...)
		r.Contradicted = append(r.Contradicted, periodForEvent(reference, ld.text)...)
		r.Contradicted = append(r.Contradicted, rateAdded(ref, question, reference, leadFacts)...)
	}
	r.Contradicted = append(r.Contradicted, codeContradictions(question, ref, leadFacts, ld)...)
	r.Contradicted = append(r.Contradicted, asideLead(ref, leadFacts, ld)...)
	r.Contradicted = append(r.Contradicted, secondFigureLead(ref, leadFacts, ld)...)
	r.Contradicted = append(r.Contradicted, swappedBindings(ref, reference, answer)...)
	r.Contradicted = append(r.Contradicted, askedFigureClauses(question, ref, reference, answer)...)
	r.Contradicted = append(r.Contradicted, latinSuffixLead(ref, leadFacts, ld)...)
	r.Contradicted = append(r.Contradicted, listFirstFigure(ref, answer, ld)...)
	if ld.span || ld.direct || ld.first || onTopic {
		r.Contradicted = append(r.Contradicted, otherArticleOfAct(reference, ld.text)...)
	}

	// What the answer states.
	// A sentence without a yes, a no or a negation says yes only when it
	// is about what the question asks.
	for _, f := range ref.facts {
		found := false
		switch f.kind {
		case figureFact:
			found = ans.statesFigure(f.fig) || ld.direct && !ld.long && asksForFigure(question) && f.fig.unit.dim != "frequency" && bareValue(leadFacts, f.fig.value)
		case codeFact:
			found = ans.statesCode(f)
		case nameFact:
			found = ans.stems[f.key] && !onlyInCodes(ans.folded, fold(f.text)) && !strayNameWord(f.text, reference, answer) || strings.Contains(f.text, "-") && !onlyInCodes(ans.folded, fold(f.text)) && containsBounded(ans.spaced, unhyphen(fold(f.text))) ||
				nameAbbreviated(f.text, reference, withoutCitations(answer), ans.facts) || translatedName(f.text, reference, withoutCitations(answer)) || surnameStated(f.text, reference, withoutCitations(answer)) ||
				saysWeFor(f.text, reference, answer) || acronymSpelledOut(f.text, withoutCitations(answer))
		case polarityFact:
			// An opening yes or no says it; otherwise a sentence about
			// what the question asks says no by a negation and yes
			// without one. Only a negation contradicts, and only a bare
			// yes: a sentence without one may still mean no ("unused
			// comp time is forfeited"), and beside other facts ("No:
			// mypackage_1.0.tar.gz") naming them answers.
			p := polarityOf(ld.sentence, question)
			explicit := opening != ""
			if p == "yes" && !explicit && len(oppositeOfQuestion(question, ld.sentence)) > 0 {
				p = "no" // "you will need automatic recovery" to "can we recover by hand?"
			}
			// A one-sentence answer of its own that grants what the
			// question asks, sharing a word with it, says yes: "Si può
			// rimandare di 15 giorni".
			answersIt := ld.direct && !cited(answer) && p == "yes" && permissionRE.MatchString(ld.sentence) &&
				(sharedStems(topicStems(ld.sentence), topicStems(question)) > 0 || ellipticGrantRE.MatchString(ld.sentence))
			// A short answer of its own that denies says no: "It isn't
			// required unless the secret was exposed".
			answersIt = answersIt || (ld.direct && !ld.long || ld.first) && !cited(answer) && p == "no" &&
				verbNegationRE.MatchString(strings.ReplaceAll(ld.sentence, "’", "'")) && sharedStems(topicStems(ld.sentence), topicStems(question)) > 0
			switch {
			case f.key == "no" && p == "yes" && conditionalYesRE.MatchString(ld.sentence) && !referenceConditionRE.MatchString(asideRE.ReplaceAllString(reference, " ")):
				// "Only if the manager approves" to a no without a
				// condition grants on a condition what the reference
				// denies.
				r.Contradicted = append(r.Contradicted, "the lead grants on a condition, the reference says no")
			case f.key == "yes" && onlyIfRE.MatchString(ld.sentence) && !conditionWordRE.MatchString(reference):
				// "Only if it is a real leak" to a yes without a
				// condition says no for every other case.
				r.Contradicted = append(r.Contradicted, "the lead answers only on a condition, the reference yes without one")
			case f.key == "yes" && !cited(answer) && restrictingRE.MatchString(ld.sentence) && about(ld.sentence, topicStems(question)) && !conditionWordRE.MatchString(reference):
				// "Only real leaks need it recorded" to a yes without a
				// condition says no for the rest.
				r.Contradicted = append(r.Contradicted, "the lead grants only some cases, the reference yes without a condition")
			case !explicit && !onTopic && !answersIt:
			case p == f.key:
				found = true
				r.Contradicted = append(r.Contradicted, takesBack(question, reference, answer, f.key)...)
			case explicit || p == "no" && ref.polarityOnly() || answersIt:
				r.Contradicted = append(r.Contradicted, fmt.Sprintf("the lead says %s, the reference %s", p, f.key))
			}
		}
		if !found && (f.kind == nameFact || f.kind == codeFact) {
			found = aliasStated(f, reference, ans)
		}
		if found {
			r.Found = append(r.Found, f.String())
		} else {
			r.Missing = append(r.Missing, f.String())
		}
	}
	r.Found, r.Missing = countsStated(ref, r.Found, r.Missing, listItems(answer))
	r.Found, r.Missing = examplesStated(ref, reference, r.Found, r.Missing)
	r.Found, r.Missing = actDetailsStated(ref, reference, withoutCitations(answer), r.Found, r.Missing)
	// Beside a figure or a code, a yes or no the answer does not
	// contradict is implied when it states all the other facts ("No:
	// mypackage_1.0.tar.gz" answered "mypackage_1.0.tar.gz"); names alone
	// are more often the subject than the answer ("No, GSA SecOps can
	// award it").
	if len(r.Missing) == 1 && ref.facts[0].kind == polarityFact && r.Missing[0] == ref.facts[0].key && len(r.Contradicted) == 0 && ref.hasFigureOrCode() {
		r.Found, r.Missing = append([]string{r.Missing[0]}, r.Found...), nil
	}
	// So is a yes or no whose reason, as the reference gives it, the
	// answer states in its words: "There is no need to wait; SecOps
	// award it once confirmed" to "No, SecOps can award it once the
	// report is confirmed", "… sono tutte scelte pessime" to "No, è una
	// scelta pessima".
	if len(r.Missing) > 0 && ref.facts[0].kind == polarityFact && r.Missing[0] == ref.facts[0].key && len(r.Contradicted) == 0 && opening == "" &&
		len(ref.words) >= minReasonWords && coverage(ref.words, ans.stems) >= rightCoverage && !polarityOpposed(ref.facts[0].key, ld.sentence, question) && !saysAsked(question, ld.sentence) {
		r.Found, r.Missing = append([]string{r.Missing[0]}, r.Found...), r.Missing[1:]
	}
	if ld.span || ld.direct || ld.first {
		r.Contradicted = append(r.Contradicted, alternativeNames(question, reference, ref, leadFacts, ld.text)...)
		r.Contradicted = append(r.Contradicted, scopeContradictions(ref, reference, ld.sentence)...)
		r.Contradicted = append(r.Contradicted, otherVersions(ref, leadFacts, ld.text)...)
		r.Contradicted = append(r.Contradicted, oppositeWords(reference, ld.text)...)
		if !cited(answer) {
			r.Contradicted = append(r.Contradicted, opensWithOtherName(question, reference, ref, ld.sentence)...)
		}
		statesSome := len(r.Found) > 0 && !(len(r.Found) == 1 && ref.facts[0].kind == polarityFact && r.Found[0] == ref.facts[0].key)
		// A short answer of its own that misses the reference's first
		// name or code states its own in its place, whatever else it
		// repeats ("Use dumb-init as the entrypoint" for tini).
		if first := firstNameOrCode(ref); ld.direct && !ld.long && !cited(answer) && first != "" && !slices.Contains(r.Found, first) {
			statesSome = false
		}
		r.Contradicted = append(r.Contradicted, otherNamesStated(question, reference, ref, leadFacts, ld, statesSome)...)
		r.Contradicted = append(r.Contradicted, otherNamesFirst(question, reference, ref, answer, ld)...)
		r.Contradicted = append(r.Contradicted, firstClauseReplaced(question, reference, ref, answer, ld)...)
		r.Contradicted = append(r.Contradicted, doesWithout(reference, ld.sentence)...)
		r.Contradicted = append(r.Contradicted, swappedNameWords(question, reference, ld.text)...)
		r.Contradicted = append(r.Contradicted, ownHeadLead(question, reference, ld)...)
		r.Contradicted = append(r.Contradicted, oneWordSwapped(ref, reference, answer)...)
	}
	r.Contradicted = append(r.Contradicted, otherSidePicked(question, reference, ld.sentence)...)
	r.Contradicted = append(r.Contradicted, oneFigureSwapped(reference, answer)...)
	cov := coverage(ref.words, ans.stems)
	own := newWords(ld.sentence, question, reference)
	// A direct answer that misses most of the reference's words, or
	// replaces those it misses with as many of its own ("an incident
	// lead and a technical architect" for a communications lead), states
	// something else.
	// "When" asks for a figure only when the reference gives one: "Quando
	// il contratto le attribuisce i diritti" answers with a condition.
	figureAsked := asksForFigure(question) && ref.hasFigure()
	replaces := len(ref.words) == 0 || cov < partialCoverage || cov < rightCoverage && len(own) >= missingCount(ref.words, ans.stems)
	switch {
	case len(r.Contradicted) > 0:
		r.Verdict, r.Why = Misleading, "the lead contradicts the reference: "+strings.Join(r.Contradicted, "; ")
	case ld.direct && !ld.long && !cited(answer) && !ref.polarityOnly() && len(r.Found) == 0 && replaces &&
		(asksForFigure(question) && len(figuresOf(leadFacts)) > 0 || !figureAsked && (len(own) >= minNewWords || ref.hasNameOrCode() && ownInFrame(own, ld.sentence, question, reference))):
		r.Verdict = Misleading
		r.Why = fmt.Sprintf("the answer states none of the reference's facts (%s) and %.0f%% of its other words, but states something else as the answer (%s)",
			strings.Join(r.Missing, ", "), 100*coverageOrNone(ref.words, ans.stems), strings.Join(own, ", "))
	case definesOtherTerms(question, answer):
		r.Verdict, r.Why = Wrong, "the question asks what a term means; the answer defines other terms"
	case len(ref.facts) == 0 && len(ref.words) == 0:
		r.Verdict, r.Why = Wrong, "the reference has no fact or content word to find"
	case len(ref.facts) == 0:
		r.Verdict = coverageVerdict(cov)
		r.Why = fmt.Sprintf("the reference has no key facts; the answer holds %.0f%% of its content words", 100*cov)
		if r.Verdict == Wrong && statesAPart(question, reference, answer) {
			r.Verdict = Partial
			r.Why += ", one of its parts whole"
		}
	case len(r.Missing) == 0 && ref.polarityOnly() && ref.facts[0].key == "yes" && opening == "" && cited(answer) && cov < partialCoverage:
		// A quoted passage without a negation implies a yes at most;
		// with little of what the reference adds, it says neither.
		r.Verdict, r.Why = Wrong, fmt.Sprintf("the answer implies the reference's yes at most and holds %.0f%% of what it adds", 100*cov)
	case len(r.Missing) == 0 && ref.polarityOnly() && (len(ref.words) >= 2 || len(ref.words) == 1 && len(newWords(withoutCitations(answer), question, "")) == 0) && cov == 0 && !reasonInOtherLanguage(reference, answer):
		// A bare "Yes." or "No." to a reference that says more is
		// partial, however little more it says; so is one whose reason
		// shares none of the reference's words. One that keeps any of
		// them gives the reference's reason in its own words ("once a
		// few days have passed you can proceed on your own" for "after
		// waiting a few days … the author may go ahead alone"): a
		// paraphrase keeps few of a reason's words.
		r.Verdict = Partial
		r.Why = fmt.Sprintf("the answer states the reference's %s but only %.0f%% of what it adds", ref.facts[0].key, 100*cov)
	case len(r.Missing) == 0 && len(ref.words) >= minWordsBeyondFacts && cov < partialCoverage && !(ref.polarityOnly() && cov > 0): // a yes or no with its reason reworded, as above
		r.Verdict = Partial
		r.Why = fmt.Sprintf("the answer states every key fact but only %.0f%% of the %d other words of the reference", 100*cov, len(ref.words))
	case len(r.Missing) == 0:
		r.Verdict, r.Why = Right, "the answer states every key fact and leads with none that contradicts"
	case len(r.Found) == 1 && ref.facts[0].kind == polarityFact && r.Found[0] == "yes" && ref.facts[0].key == "yes" && opening == "":
		// A yes read from a sentence without a negation is too weak to
		// make an answer that states nothing else partial.
		r.Verdict, r.Why = Wrong, "the answer implies the reference's "+r.Found[0]+" at most and misses "+strings.Join(r.Missing, ", ")
	case len(r.Found) > 0:
		r.Verdict, r.Why = Partial, "the answer misses "+strings.Join(r.Missing, ", ")
	case len(linkedOnly(ref, ans)) > 0:
		r.Verdict, r.Why = Partial, "the answer names "+strings.Join(linkedOnly(ref, ans), ", ")+" only inside a link"
	case !(ref.hasFigureAsked(question) && asksForFigure(question)) && statesAPart(question, reference, answer):
		r.Verdict = Partial
		r.Why = fmt.Sprintf("the answer states none of the key facts (%s) but one part of the reference whole", strings.Join(r.Missing, ", "))
	case !(ref.hasFigureAsked(question) && asksForFigure(question)) && !ref.echoes && len(ref.words) >= minWordsForPartial && cov >= 0.5:
		r.Verdict = Partial
		r.Why = fmt.Sprintf("the answer states none of the key facts (%s) but %.0f%% of the reference's other words", strings.Join(r.Missing, ", "), 100*cov)
	case asksForFigure(question) && ref.hasFigure() && about(withoutCitations(answer), topicStems(question)) && len(otherFigureOfKind(ref, ans.figures, questionFigures)) > 0:
		// A passage about the question whose only figures of the kind
		// asked are others states one of them as the answer: "carry over
		// a maximum of 15 days" for 240 hours.
		r.Verdict = Misleading
		r.Why = "the answer states none of the key facts and another figure of the kind asked: " + otherFigureOfKind(ref, ans.figures, questionFigures)
	default:
		r.Verdict, r.Why = Wrong, "the answer states none of the key facts"
	}
	return r
}

// onlyIfRE matches an answer that opens by restricting a yes to a
// condition: "Only if …", "Only when …", "Solo se …", "Soltanto quando …".
var onlyIfRE = regexp.MustCompile(`(?i)^\W*(?:yes,?\s+|sì,?\s+|si,?\s+)?(?:but\s+|ma\s+)?(?:only|solo|soltanto|solamente|unicamente)\s+(?:if|when|where|provided|se|quando|qualora|nel caso|in caso|purché)\b`)

// verbNegationRE matches a negated verb, which denies a clause ("isn't
// required", "cannot", "non serve"), where "not specifically about" only
// narrows a phrase.
var verbNegationRE = regexp.MustCompile(`(?i)n't\b|\b(?:cannot|is not|are not|was not|were not|do not|does not|did not|can not|may not|must not|should not|will not|need not|non)\b`)

// conditionalYesRE matches the words that grant on a condition: only if,
// as long as, provided that, solo se, purché, a patto che.
var conditionalYesRE = regexp.MustCompile(`(?i)^\W*(?:only|solo|soltanto|solamente|unicamente)\s+(?:if|when|se|quando|qualora)\b|^\W*(?:only|solo|soltanto|solamente|unicamente)\s+(?:with|after|con|dopo)\s+(?:the\s+|a\s+|an\s+|l'|l’|la\s+|il\s+|un\s+|una\s+|)(?:approval|permission|consent|authori[sz]ation|sign-off|approvazione|autorizzazione|permesso|consenso|nulla osta)\b|\b(?:only if|only when|only provided|as long as|provided that|solo se|soltanto se|solo quando|solo qualora|a patto che|a condizione che)\b|(?:^|\s)purché\b`)

// referenceConditionRE matches a reference that sets a condition itself,
// which a conditional answer may repeat: "not without a justification"
// is "only with one".
var referenceConditionRE = regexp.MustCompile(`(?i)\b(?:if|unless|only|provided|except|se|solo|soltanto|salvo|tranne|a meno che|qualora|not without|non senza)\b|(?:^|\s)purché\b`)

// conditionWordRE matches the words that set a condition in a reference:
// if, when, unless, provided, se, quando, purché, solo, only, and a
// consent the yes depends on ("with your manager's agreement", "con
// l'approvazione del responsabile"), which "only if your manager
// agrees" says again.
var conditionWordRE = regexp.MustCompile(`(?i)\b(?:if|when|unless|provided|only|se|quando|qualora|purch|solo|soltanto|previa|previo|subject to|after|dopo)|` + consentRE)

// consentRE matches the English and Italian nouns of a consent:
// approval, agreement, permission, authorisation, sign-off, accordo,
// approvazione, autorizzazione, permesso, consenso, nulla osta,
// benestare.
const consentRE = `\b(?:approval|agreement|permission|consent|authori[sz]ation|sign-off|accord[oi]|approvazion[ei]|autorizzazion[ei]|permesso|consenso|nulla osta|benestare)\b`

// immediacyRE matches the words that say at once; delayRE those that
// put something off until later, "then" and "poi" among them ("Finish
// the changelog first, then ship").
var (
	// A wait denied is at once: "don't wait for …", "non bisogna
	// aspettare …".
	immediacyRE = regexp.MustCompile(`(?i)\b(?:immediately|right away|at once|straight away|without (?:delay|waiting)|as soon as|subito|immediatamente|senza (?:indugio|aspettare|attendere)|non appena|(?:not|non|don't|no need to)\s+(?:\p{L}+\s+)?(?:wait|aspettare|attendere))\b`)
	delayRE     = regexp.MustCompile(`(?i)\b(?:after|later|then|afterwards|wait|dopo|poi|più tardi|in seguito|successivamente|aspett|attend)`)
	// universalRE matches an answer that opens with any or all.
	universalRE = regexp.MustCompile(`(?i)^\W*(?:any|all|every|qualsiasi|qualunque|tutti|tutte|ogni)\b`)
	// restrictedRE matches a reference that restricts its answer.
	restrictedRE = regexp.MustCompile(`(?i)\b(?:only|solo|soltanto|unicamente|esclusivamente)\b`)
)

// includesRE and excludesRE match what a text includes and leaves out,
// with the thing's first content word: "including the migration cost",
// "compreso il costo", "excluding the cost", "escluso il costo".
var (
	includesRE = regexp.MustCompile(`(?i)\b(?:including|included|inclusive of|compres[oaie]|inclus[oaie])\s+(?:the\s+|il\s+|lo\s+|la\s+|i\s+|gli\s+|le\s+|l'|l’)?(\p{L}+(?:\s+\p{L}+){0,3})`)
	excludesRE = regexp.MustCompile(`(?i)\b(?:excluding|excluded|except|without|esclus[oaie]|escludendo|tranne|eccetto|senza)\s+(?:(?:counting|considering|including|considerare|contare|calcolare|includere|tenere conto d\p{L}*)\s+)?(?:the\s+|il\s+|lo\s+|la\s+|i\s+|gli\s+|le\s+|l'|l’)?(\p{L}+)`)
)

// scopeContradictions returns what a direct answer says against the
// reference's scope: at once where the reference makes one wait (or the
// reverse: "subito" against "dopo alcuni giorni"), and any or all where
// the reference allows only some ("Qualsiasi provider" for three
// options).
func scopeContradictions(ref reference, reference, lead string) []string {
	main := asideRE.ReplaceAllString(reference, " ")
	timing := func(t string) (now, later bool) {
		return immediacyRE.MatchString(t), delayRE.MatchString(immediacyRE.ReplaceAllString(t, " "))
	}
	ansNow, ansLater := timing(lead)
	refNow, refLater := timing(main)
	var out []string
	switch {
	case ansNow && !ansLater && refLater && !refNow:
		out = append(out, "the lead says at once, the reference after a wait")
	case ansLater && !ansNow && refNow && !refLater:
		out = append(out, "the lead puts off what the reference does at once")
	}
	// "escluso il costo di migrazione" against "compreso il costo di
	// migrazione": the same thing left out that the reference includes.
	for _, pair := range [][2]*regexp.Regexp{{includesRE, excludesRE}, {excludesRE, includesRE}} {
		for _, m := range pair[0].FindAllStringSubmatch(main, -1) {
			for _, n := range pair[1].FindAllStringSubmatch(lead, -1) {
				// The thing included may be named by any of its words
				// ("compreso il costo di migrazione", "senza
				// considerare la migrazione").
				if sharedStems(contentStems(m[1]), contentStems(n[1])) > 0 {
					out = append(out, fmt.Sprintf("the lead says %q, the reference %q", strings.TrimSpace(n[0]), strings.TrimSpace(m[0])))
				}
			}
		}
	}
	restricted := restrictedRE.MatchString(main)
	for _, f := range ref.facts {
		restricted = restricted || f.kind == figureFact && !f.fig.unit.known() && f.fig.label == "" && f.fig.clock < 0 && f.fig.value >= 2 && f.pos == 0 // "Tre opzioni: …"
	}
	if universalRE.MatchString(lead) && restricted {
		out = append(out, "the lead allows any, the reference only some")
	}
	return out
}

// permissionRE matches the English and Italian words that grant
// something: can, may, is allowed, si può, è consentito.
var permissionRE = regexp.MustCompile(`(?i)(?:^|[^\p{L}])(?:can|may|could|(?:is|are) (?:allowed|permitted)|si può|può|possono|puoi|potete|possiamo|è (?:possibile|consentito|permesso|ammesso))(?:[^\p{L}]|$)`)

// cited reports whether an answer carries citation marks: a quoted
// passage, whose unrelated content a reader does not take for the
// answer.
func cited(answer string) bool { return citationRE.MatchString(answer) }

// minNewWords is how many content words of its own a direct answer
// without citations must state, beyond the question's and the
// reference's, to state something else as the answer; to a question
// that asks for a figure, it must state a figure ("Once a year, as part of the annual review" for
// "monthly or quarterly"); fewer restate the question ("The incubator
// has an organisation of its own").
const minNewWords = 2

// newWords returns the content stems of a lead that neither the question
// nor the reference (asides included) holds.
func newWords(lead, question, reference string) []string {
	known := map[string]bool{}
	for _, s := range append(contentStems(question), contentStems(reference)...) {
		known[s] = true
	}
	// The words of a code or path ("/etc/cron.daily") name it, and it
	// is judged as a code.
	var plain []string
	for _, w := range strings.Fields(lead) {
		if _, isNumber := wordNumber(fold(trimWord(w))); codeClass(trimWord(w)) == "" && !isNumber && fold(trimWord(w)) != "hundred" && !abbreviatesWords(trimWord(w), reference) {
			plain = append(plain, w) // number words state a figure, judged as one
		}
	}
	var out []string
	for _, s := range contentStems(strings.Join(plain, " ")) {
		if !hasStem(known, s) {
			out = append(out, s)
		}
	}
	return out
}

// coverageOrNone is coverage, 0 for no stems.
func coverageOrNone(stems []string, set map[string]bool) float64 {
	if len(stems) == 0 {
		return 0
	}
	return coverage(stems, set)
}

// missingCount counts the stems not found in set.
func missingCount(stems []string, set map[string]bool) int {
	n := 0
	for _, s := range stems {
		if !hasStem(set, s) {
			n++
		}
	}
	return n
}

// coverageVerdict judges by the share of the reference's content words an
// answer holds, for references without key facts.
func coverageVerdict(cov float64) Verdict {
	switch {
	case cov >= rightCoverage:
		return Right
	case cov >= partialCoverage:
		return Partial
	}
	return Wrong
}

// reference is what a reference answer requires.
type reference struct {
	facts  []fact   // key facts outside asides, polarity first
	asides []fact   // facts of the asides: not required, not to contradict
	words  []string // content stems outside asides and key facts
	// echoes is set when every word of the reference is the question's,
	// so that words stand for words only where nothing else does.
	echoes bool
}

// countsStated moves to found a reference's bare count ("Only three:
// A, B and C") that the answer states by naming as many of the
// reference's names and codes, all of them found, or by listing as many
// items (items) and every name and code of the reference.
func countsStated(ref reference, found, missing []string, items int) ([]string, []string) {
	isFound := map[string]bool{}
	for _, f := range found {
		isFound[f] = true
	}
	named, namedFound := 0, 0
	for _, f := range ref.facts {
		if f.kind == nameFact || f.kind == codeFact {
			named++
			if isFound[f.String()] {
				namedFound++
			}
		}
	}
	var still []string
	for _, m := range missing {
		counted := false
		for _, f := range ref.facts {
			if f.kind != figureFact || f.String() != m || f.fig.label != "" || f.fig.clock >= 0 || f.fig.value < 2 || namedFound != named {
				continue
			}
			// A bare count by the names; a count of things ("3
			// opzioni") by a list of as many items.
			bare := f.fig.unit.empty() && equalValues(f.fig.value, float64(named))
			listed := !f.fig.unit.known() && equalValues(f.fig.value, float64(items))
			counted = counted || bare || listed
		}
		if counted {
			found = append(found, m)
		} else {
			still = append(still, m)
		}
	}
	return found, still
}

// hasFigure reports whether the reference states a figure.
func (r reference) hasFigure() bool {
	for _, f := range r.facts {
		if f.kind == figureFact {
			return true
		}
	}
	return false
}

// whenOnlyRE matches a question that asks when; amountQuestionRE one
// that asks how many, how much, how long or how often.
var (
	whenOnlyRE       = regexp.MustCompile(`(?i)\b(?:when|quando|by what date|entro quando)\b`)
	amountQuestionRE = regexp.MustCompile(`(?i)\bhow (?:many|much|long|often)\b|\bquant[oaie]\b|\bogni quanto\b`)
)

// hasFigureAsked reports whether the reference states a figure of the
// kind the question asks for: a time, a date or a period to "when"
// ("After each change, against the top 10 risks" gives none), any
// figure to the other figure words.
func (r reference) hasFigureAsked(question string) bool {
	if !whenOnlyRE.MatchString(question) || amountQuestionRE.MatchString(question) {
		return r.hasFigure()
	}
	for _, f := range r.facts {
		if f.kind == figureFact && (f.fig.clock >= 0 || f.fig.unit.isMonth() || f.fig.unit.dim == "time" || f.fig.unit.dim == "workday" || f.fig.unit.dim == "frequency" || isYear(f.fig.value)) {
			return true
		}
	}
	return false
}

// hasFigureOrCode reports whether the reference states a figure or a
// code.
func (r reference) hasFigureOrCode() bool {
	for _, f := range r.facts {
		if f.kind == figureFact || f.kind == codeFact {
			return true
		}
	}
	return false
}

// polarityOnly reports whether the reference's only key fact is its yes or
// no.
// hasNameOrCode reports whether the reference names a thing: a name or
// a code among its key facts.
func (r reference) hasNameOrCode() bool {
	for _, f := range r.facts {
		if f.kind == nameFact || f.kind == codeFact {
			return true
		}
	}
	return false
}

func (r reference) polarityOnly() bool { return len(r.facts) == 1 && r.facts[0].kind == polarityFact }

// readReference reads the key facts of a reference answer. Names the
// question already gives ("London" in a question about London) are the
// question's, not facts the answer must repeat, and so are its figures
// ("the 2025 shutdowns") and its words; a name that is a figure's unit
// ("31 March") is one fact with the figure; a fact the reference denies
// ("not orig.tar.gz") is no fact to state.
func readReference(question, text string) reference {
	var ref reference
	main := asideRE.ReplaceAllString(text, " ")
	// An exception the reference adds after a comma ("EUPL v1.2, salvo
	// le eccezioni per le librerie") is context, as an aside is.
	for _, m := range exceptionRE.FindAllString(main, -1) {
		ref.asides = append(ref.asides, extract(m)...)
	}
	main = exceptionRE.ReplaceAllString(main, " ")
	var lastUnit unit // of the last figure before the asides: "14 characters (20 for service accounts)"
	for _, f := range extract(main) {
		if f.kind == figureFact && !f.fig.unit.empty() {
			lastUnit = f.fig.unit
		}
	}
	for _, m := range asideRE.FindAllString(text, -1) {
		m = strings.TrimSpace(m)
		for _, f := range extract(m[1 : len(m)-1]) {
			if f.kind == figureFact && f.fig.unit.empty() && f.fig.label == "" && f.fig.clock < 0 {
				f.fig.unit = lastUnit
				f.text = describe(f.fig)
			}
			ref.asides = append(ref.asides, f)
		}
	}
	if p, alone := openingYesNo(main); p != "" && alone {
		ref.facts = append(ref.facts, fact{kind: polarityFact, key: p, text: p})
		main = afterFirstWord(main)
	}
	given := map[string]bool{} // stems of names the question or a figure already holds
	for _, s := range stemsOf(question) {
		given[s] = true
	}
	givenCaps := map[string]bool{} // stems of the question's words in capitals
	for _, a := range acronymsOf(question) {
		given[stem(fold(a))] = true // "recovery time objective" gives RTO
		givenCaps[stem(fold(a))] = true
	}
	for _, w := range letterWords(question) {
		if allCaps(w) {
			givenCaps[stem(fold(dropElision(w)))] = true
		}
	}
	facts := dedupe(extract(main))
	if len(facts) == 0 {
		facts = oneWordAnswer(main)
	}
	for _, f := range facts {
		if f.kind == figureFact && !f.fig.unit.known() && f.fig.unit.name != "" {
			given[f.fig.unit.name] = true // "31 March" holds the month once, as the figure's unit
		}
	}
	questionFigures := questionFiguresOf(question)
	factStems := map[string]bool{}
	apps := map[string]bool{} // "Slack" of "#incident Slack channel"
	for _, m := range channelAppRE.FindAllStringSubmatch(main, -1) {
		apps[m[1]+m[2]] = true
	}
	pinpointsAsked := pinpointRE.MatchString(question)
	for _, f := range facts {
		// A name in capitals that the question writes as a common word
		// is a name of its own: the file LICENCE, not the licence.
		givenName := given[f.key] && (!allCaps(f.text) || givenCaps[f.key])
		if f.kind == nameFact && givenName || f.kind == figureFact && matchesAny(f.fig, questionFigures) || f.negated {
			continue
		}
		// An article's or section's number ("previste dall'art. 4 della
		// Direttiva") says where a rule is written, unless the question
		// asks where; the app of a named channel says what the channel
		// is. Both are asides.
		if f.kind == figureFact && pinpointLabels[f.fig.label] && !pinpointsAsked && !opensWithPinpoint(text, f.fig.value) || f.kind == nameFact && apps[f.text] {
			ref.asides = append(ref.asides, f)
			continue
		}
		ref.facts = append(ref.facts, f)
		for _, s := range stemsOf(f.text) {
			factStems[s] = true
		}
		if f.kind == figureFact && f.fig.label != "" {
			factStems[f.fig.label] = true // "fase" of "macro fase 3" is the figure's
		}
	}
	// The words a reference adds to its question; all of its words when
	// it adds none.
	var all []string
	for _, s := range contentStems(main) {
		if !factStems[s] {
			all = append(all, s)
			if !given[s] {
				ref.words = append(ref.words, s)
			}
		}
	}
	if len(ref.words) == 0 {
		ref.words, ref.echoes = all, true
	}
	countedByQuestion(question, ref.facts)
	return ref
}

// weRE matches the first person plural in English and Italian: we,
// our, ours, us, noi, nostro.
var weRE = regexp.MustCompile(`(?i)\b(?:we|our|ours|us|noi|nostr[oaie])\b`)

// saysWeFor reports whether an answer says "we" or "our" for a name that
// opens a clause of the reference ("…; GDS tag names use UpperCamelCase"
// answered "our tag names use UpperCamelCase"): the organisation whose
// handbook answers speaks of itself.
func saysWeFor(name, reference, answer string) bool {
	opens := regexp.MustCompile(`(?:^|[;.:]\s+)` + regexp.QuoteMeta(name) + `\s+\p{L}`)
	return opens.MatchString(asideRE.ReplaceAllString(reference, " ")) && weRE.MatchString(answer)
}

// pinpointLabels are the stems of the words that number an article,
// paragraph or section of a text: art., articolo, comma, section,
// sezione, paragraph, paragrafo, clause.
var pinpointLabels = setOf("art articl artico comm sectio sezion paragr claus par")

// openingPinpointRE matches a reference that opens with an article's,
// paragraph's or section's number: "L'art. 21 del …", "Article 6 of …".
var openingPinpointRE = regexp.MustCompile(`(?i)^\W*(?:l'|l’|the\s+)?(?:art\.|artt\.|articolo|article|section|sezione|comma|paragraph|paragrafo)\s*(\d+)\b`)

// opensWithPinpoint reports whether a reference opens with the number
// v of an article, paragraph or section: then the number is what it
// answers with, not where a rule it states is written.
func opensWithPinpoint(reference string, v float64) bool {
	m := openingPinpointRE.FindStringSubmatch(reference)
	return m != nil && m[1] == strconv.FormatFloat(v, 'f', -1, 64)
}

// pinpointRE matches a question that asks for an article, paragraph or
// section.
var pinpointRE = regexp.MustCompile(`(?i)\b(?:art\.|articl|articol|comma|section|sezion|paragra|clause)`)

// channelAppRE matches a chat channel with its app's name beside it:
// "#incident Slack channel", "canale Slack #supporto".
var channelAppRE = regexp.MustCompile(`#[\p{L}\d_-]+\s+(\p{Lu}[\p{L}]+)\s+(?:channel|canale)\b|\b(?:channel|canale)\s+(\p{Lu}[\p{L}]+)\s+#[\p{L}\d_-]+`)

// allCaps reports whether a word of two letters or more is written in
// capitals.
func allCaps(w string) bool {
	letters := 0
	for _, r := range w {
		if unicode.IsLower(r) {
			return false
		}
		if unicode.IsLetter(r) {
			letters++
		}
	}
	return letters >= 2
}

// acronymsOf returns the initials of each run of two to five words of
// text, in capitals: a question that says "recovery time objective" has
// named its RTO.
func acronymsOf(text string) []string {
	var out []string
	var run []rune // initials of the current run of content words
	flush := func() {
		for n := 2; n <= 5; n++ {
			for i := 0; i+n <= len(run); i++ {
				out = append(out, string(run[i:i+n]))
			}
		}
		run = run[:0]
	}
	for _, w := range letterWords(text) {
		f := fold(w)
		if len([]rune(f)) < 3 || stopwords[f] {
			flush() // a function word ends the run
			continue
		}
		run = append(run, unicode.ToUpper([]rune(f)[0]))
	}
	flush()
	return out
}

// oneWordAnswer returns the single word of a reference that is nothing
// else ("anacron.", "build-essential", "testing"): the name asked for,
// however it is written.
func oneWordAnswer(text string) []fact {
	var words []string
	for _, w := range strings.Fields(text) {
		if hasLetter(w) || hasDigit(w) { // "uv ." once its aside is gone
			words = append(words, w)
		}
	}
	if len(words) != 1 {
		return nil
	}
	w := trimWord(words[0])
	if !hasLetter(w) || stopwords[fold(w)] {
		return nil
	}
	return []fact{{kind: codeFact, class: "code", text: w, key: strings.ToLower(w)}}
}

// afterFirstWord returns text without its first word and the punctuation
// after it: "No, only on Fridays." gives "only on Fridays.".
func afterFirstWord(text string) string {
	t := strings.TrimLeft(strings.TrimSpace(text), "\"'«“*_")
	i := strings.IndexFunc(t, func(r rune) bool { return !unicode.IsLetter(r) })
	if i < 0 {
		return ""
	}
	return strings.TrimLeft(t[i:], " .,;:!—–-")
}

// dedupe drops repeated facts, keeping the first.
func dedupe(fs []fact) []fact {
	seen := map[string]bool{}
	var out []fact
	for _, f := range fs {
		k := fmt.Sprint(f.kind, "|", f.key, "|", f.class, "|", describe(f.fig), "|", f.fig.label)
		if f.kind == figureFact {
			k = fmt.Sprint(f.kind, "|", describe(f.fig))
		}
		if !seen[k] {
			seen[k] = true
			out = append(out, f)
		}
	}
	return out
}

// answerText is what an answer states, ready for lookups.
type answerText struct {
	facts   []fact
	figures []figure
	stems   map[string]bool // stems of every word, stopwords included
	units   map[string]bool // units the answer names anywhere
	lower   string          // lowercased, spaces collapsed
	spaced  string          // lowercased, hyphens as spaces
	folded  string          // folded, spaces collapsed
	digits  string          // digits only, for telephone numbers
}

func readAnswer(text string) answerText {
	clean := withoutCitations(text)
	a := answerText{facts: extract(clean), stems: map[string]bool{}, units: map[string]bool{},
		lower: normalSpace(strings.ToLower(clean)), spaced: unhyphen(fold(clean)), folded: normalSpace(fold(clean)), digits: onlyDigits(clean)}
	a.figures = append(figuresOf(a.facts), proportions(clean)...)
	a.figures = append(a.figures, monthEnds(clean)...)
	// "direttiva 8/2009" states the directive's number 8 and its year.
	for _, f := range a.facts {
		if m := numberOfYearRE.FindStringSubmatch(f.key); f.kind == codeFact && m != nil {
			for _, part := range m[1:] {
				v, _ := strconv.ParseFloat(part, 64)
				a.figures = append(a.figures, figure{value: v, clock: -1})
			}
		}
	}
	for _, w := range letterWords(clean) {
		f := fold(dropElision(w))
		a.stems[stem(f)] = true
		if u, ok := lookupUnit(f); ok {
			a.units[u.dim] = true
		} else {
			a.units[stem(f)] = true
		}
	}
	for _, w := range strings.Fields(clean) { // "€", "%"
		if u, ok := lookupUnit(strings.Trim(w, ".,;:")); ok {
			a.units[u.dim] = true
		}
	}
	// "not permitted" states forbidden, "non obbligatorio" optional.
	for st := range negatedOpposites(clean) {
		a.stems[st] = true
	}
	// "read-only" is written "readonly" as often: a hyphenated word
	// states its joined form too.
	for _, w := range hyphenatedRE.FindAllString(clean, -1) {
		a.stems[stem(fold(strings.ReplaceAll(w, "-", "")))] = true
	}
	return a
}

// hyphenatedRE matches words joined by hyphens: "read-only", "e-mail".
var hyphenatedRE = regexp.MustCompile(`\p{L}+(?:-\p{L}+)+`)

// statesJoined adds to the answer's stems the stems of the reference's
// hyphenated words that the answer writes joined ("readonly" for
// read-only).
func (a answerText) statesJoined(reference string) {
	words := map[string]bool{}
	for _, w := range letterWords(a.folded) {
		words[w] = true
	}
	for _, w := range hyphenatedRE.FindAllString(reference, -1) {
		if words[fold(strings.ReplaceAll(w, "-", ""))] {
			for _, part := range strings.Split(w, "-") {
				a.stems[stem(fold(part))] = true
			}
		}
	}
}

// stemsOf returns the stems of every word of text, stopwords included.
func stemsOf(text string) []string {
	var out []string
	for _, w := range letterWords(text) {
		out = append(out, stem(fold(dropElision(w))))
	}
	return out
}

func figuresOf(fs []fact) []figure {
	var out []figure
	for _, f := range fs {
		if f.kind == figureFact {
			out = append(out, f.fig)
		}
	}
	return out
}

// statesFigure reports whether the answer states figure f: the same
// value in the same unit or one that converts to it, or the bare number
// where the answer names f's unit elsewhere.
func (a answerText) statesFigure(f figure) bool {
	for _, g := range a.figures {
		if sameFigure(f, g, a.units) {
			return true
		}
	}
	return false
}

// sameFigure reports whether figure g states reference figure f. units
// are the units named in g's text, which let a bare number stand for a
// figure whose unit is said elsewhere ("the cap is 250; amounts in euro").
func sameFigure(f, g figure, units map[string]bool) bool {
	f, g = inCurrency(f, g)
	if !sameRate(f, g) {
		return false // "3 giorni al mese" for 3 giorni a settimana
	}
	if f.clock >= 0 || g.clock >= 0 {
		return sameClock(f, g)
	}
	switch {
	case f.label == "top" && g.label == "top":
		// A ranked list is named by its size ("the OWASP top 10"); the
		// noun after it says what it ranks, in any words.
		return equalValues(f.value, g.value)
	case f.unit == workingDay || g.unit == workingDay:
		// Plain days state working days (a qualifier left out), calendar
		// days and hours do not; nor do working days state plain days
		// (a qualifier added: "60 giorni lavorativi" for 60 giorni).
		other := g.unit
		if g.unit == workingDay {
			other = f.unit
		}
		return (other == workingDay || other.name == "day" && f.unit == workingDay) && equalValues(f.value, g.value)
	case f.unit.known() && g.unit.known():
		return f.unit.dim == g.unit.dim && equalValues(f.value*f.unit.factor, g.value*g.unit.factor)
	case !f.unit.empty() && !g.unit.empty():
		return f.unit.name == g.unit.name && equalValues(f.value, g.value)
	case f.unit.empty():
		return equalValues(f.value, g.value)
	default: // g bare, f with a unit
		key := f.unit.dim
		if !f.unit.known() {
			key = f.unit.name
		}
		// A number that another word names ("capitolo 3") is not a
		// count whose unit is said elsewhere.
		return equalValues(f.value, g.value) && units != nil && units[key] && (g.label == "" || g.label == f.label)
	}
}

// sameClock compares times of day, where a whole hour may be written as a
// bare number ("from 9 to 17") or as Italian "14.30".
func sameClock(f, g figure) bool {
	return clockOrHour(f) >= 0 && clockOrHour(f) == clockOrHour(g)
}

// clockOrHour returns a figure's minutes after midnight: its time of day,
// or a bare number read as an hour ("9", "14.30"), else -1.
func clockOrHour(f figure) int {
	if f.clock >= 0 {
		return f.clock
	}
	if !f.unit.empty() && f.unit.name != "hour" || f.value < 0 || f.value > 24 {
		return -1
	}
	h := int(f.value)
	m := int((f.value-float64(h))*100 + 0.5)
	if m >= 60 {
		return -1
	}
	return h*60 + m
}

// statesCode reports whether the answer holds a code, address, telephone
// number, quoted label or path.
func (a answerText) statesCode(f fact) bool {
	switch f.class {
	case "url":
		for _, g := range a.facts {
			if g.class == "url" && g.key == f.key {
				return true
			}
		}
		return containsBounded(a.lower, f.key)
	case "phone":
		return strings.Contains(a.digits, f.key)
	case "key", "ip":
		for _, g := range a.facts {
			if g.class == f.class && g.key == f.key {
				return true
			}
		}
		return false
	case "quoted":
		return containsBounded(a.folded, f.key)
	case "quoted1":
		for _, g := range a.facts {
			if g.class == f.class && g.key == f.key {
				return true
			}
		}
		return false
	case "path":
		// Words joined by a slash may be alternatives ("libero/open"
		// written "libero o open"): every word stated states them.
		if wordPairRE.MatchString(f.text) {
			all, any := true, false
			for _, w := range strings.Split(f.text, "/") {
				all = all && a.stems[stem(fold(w))]
				any = any || a.stems[stem(fold(w))]
			}
			if all || any && alternativesRE.MatchString(f.text) {
				return true
			}
		}
		if codePairStated(f.text, a.lower) {
			return true
		}
	}
	if m := versionRE.FindStringSubmatch(f.key); m != nil && versionSuffixStated(a.facts, m[1]) {
		return true // "v1.2" written "EUPL-1.2"
	}
	if m := numberOfYearRE.FindStringSubmatch(f.key); m != nil && numberOfYearStated(a.lower, m[1], m[2]) {
		return true // "237/2017" written "n. 237 del 2017"
	}
	if m := versionRE.FindStringSubmatch(f.key); m != nil && versionStated(a.lower, m[1]) {
		return true // "v1.2" written "versione 1.2"
	}
	if m := versionedCodeRE.FindStringSubmatch(f.key); m != nil && baseCodeStated(a.lower, m[1]) {
		return true // "CC-BY-4.0" written "CC BY, versione 4.0"; another version is contradicted apart
	}
	// A code the answer says in words ("four and a half to one" for
	// 4.5:1) is among its facts, not in its text.
	for _, g := range a.facts {
		if g.kind == codeFact && g.class == f.class && g.key == f.key {
			return true
		}
	}
	if siteNamed(f.key, a.folded) {
		return true
	}
	// A link to the address is the address: "https://www.example.org/"
	// names example.org.
	for _, g := range a.facts {
		if g.class == "url" && strings.Contains(f.key, ".") && g.key == f.key {
			return true
		}
	}
	// "CC-BY-4.0" is written "CC BY 4.0" as often, but not inside a
	// longer code ("CC-BY-SA"). A file named only inside a link
	// ("…/italia/publiccode.yml") is where the link leads, not a file
	// the answer names.
	lower := a.lower
	for _, g := range a.facts {
		if g.class == "url" {
			lower = strings.ReplaceAll(lower, strings.ToLower(g.text), " ")
		}
	}
	return containsBounded(lower, f.key) || strings.Contains(f.key, "-") && !onlyInCodes(lower, f.key) && baseCodeStated(fold(lower), f.key)
}

// linkedOnly returns the reference's codes that the answer writes only
// inside a link: it points to them without saying what to do.
func linkedOnly(ref reference, a answerText) []string {
	var out []string
	for _, f := range ref.facts {
		if f.kind != codeFact || f.class == "url" || a.statesCode(f) {
			continue
		}
		for _, g := range a.facts {
			if g.class == "url" && strings.Contains(strings.ToLower(g.text), f.key) {
				out = append(out, f.text)
				break
			}
		}
	}
	return out
}

// versionSuffixStated reports whether a code of facts ends with version
// n after a hyphen, as SPDX and package names write it: "EUPL-1.2".
func versionSuffixStated(facts []fact, n string) bool {
	for _, f := range facts {
		if m := versionedCodeRE.FindStringSubmatch(f.key); f.kind == codeFact && m != nil && m[2] == n {
			return true
		}
	}
	return false
}

// numberOfYearRE matches the number of an act within its year, as laws,
// decrees and determinations are cited in both languages: "237/2017",
// "8/2009".
var numberOfYearRE = regexp.MustCompile(`^(\d{1,5})/((?:19|20)\d\d)$`)

// numberOfYearStated reports whether text gives act number n of year y in
// words: "n. 237 del 2017", "no. 8 of 2009", "115 del 9 maggio 2019".
func numberOfYearStated(text, n, y string) bool {
	return regexp.MustCompile(`(?:^|[^\d./])` + n + `\s+(?:del|dell'|of|from|dated|,)\s*[^;:\n]{0,20}?(?:^|[^\d])` + y + `(?:[^\d]|$)`).MatchString(text)
}

// versionLabels are the stems of the words that say a number is a
// version.
var versionLabels = map[string]bool{"versio": true, "version": true, "releas": true}

// otherVersions returns the figures of a lead that give another version
// than a reference's "v1.2": a number with a fraction ("EUPL 1.1") or
// one the lead calls a version.
func otherVersions(ref reference, lead []fact, leadText string) []string {
	var out []string
	text := strings.ToLower(leadText)
	for _, f := range ref.facts {
		// "CC-BY 3.0" or "CC-BY-3.0" for CC-BY-4.0.
		if m := versionedCodeRE.FindStringSubmatch(f.key); f.kind == codeFact && m != nil {
			want, _ := strconv.ParseFloat(m[2], 64)
			re := regexp.MustCompile(`(?:^|[^\w-])` + regexp.QuoteMeta(m[1]) + `[- ](\d+(?:\.\d+)?)\b`)
			for _, g := range re.FindAllStringSubmatch(text, -1) {
				if v, err := strconv.ParseFloat(g[1], 64); err == nil && !equalValues(v, want) {
					out = append(out, m[1]+" "+g[1]+" against "+f.text)
				}
			}
		}
		m := versionRE.FindStringSubmatch(f.key)
		if f.kind != codeFact || m == nil {
			continue
		}
		v, _ := strconv.ParseFloat(m[1], 64)
		for _, g := range lead {
			if g.kind == figureFact && g.fig.unit.empty() && g.fig.clock < 0 && (g.fig.value != float64(int(g.fig.value)) || versionLabels[g.fig.label]) && !equalValues(g.fig.value, v) {
				out = append(out, g.text+" against "+f.text)
			}
		}
	}
	return out
}

// baseCodeStated reports whether text names code base (a versioned
// code without its version), its parts joined by a hyphen or a space, and
// not as the start of a longer code: "cc by" and "CC-BY 4.0" state
// cc-by, "CC BY-SA" does not.
func baseCodeStated(text, base string) bool { return baseCodeAt(text, base) >= 0 }

// extension is a longer code found in a text, and where.
type extension struct {
	text string
	at   int
}

// codeExtensions returns where text runs code (its parts joined by a
// hyphen or a space) on into a longer code: "cc by-sa" extends cc-by.
func codeExtensions(text, code string) []extension {
	re := codePartsRE(code, `(-\p{L}+)`)
	if re == nil {
		return nil
	}
	var out []extension
	for _, m := range re.FindAllStringIndex(text, -1) {
		out = append(out, extension{text: strings.TrimLeft(text[m[0]:m[1]], " ([\"'`"), at: m[0]})
	}
	return out
}

// baseCodeAt returns where text first names code as baseCodeStated
// reads it, or -1.
func baseCodeAt(text, code string) int {
	re := codePartsRE(code, `(?:$|[^\w-]|-\d)`)
	if re == nil {
		return -1
	}
	if m := re.FindStringIndex(text); m != nil {
		return m[0]
	}
	return -1
}

// codeBase is a code without its trailing version, its parts joined by
// hyphens: "CC BY 4.0" and "cc-by-4.0" are both cc-by.
func codeBase(code string) string {
	c := strings.Join(strings.FieldsFunc(strings.ToLower(code), func(r rune) bool { return r == '-' || r == ' ' }), "-")
	return trailingVersionRE.ReplaceAllString(c, "")
}

// codePartsRE matches code's parts joined by a hyphen or a space, not
// inside a longer word, followed by what tail matches; nil for no parts.
func codePartsRE(code, tail string) *regexp.Regexp {
	parts := strings.FieldsFunc(code, func(r rune) bool { return r == '-' || r == ' ' })
	if len(parts) == 0 {
		return nil
	}
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile(`(?:^|[^\w-])` + strings.Join(parts, `[\s-]`) + tail)
}

// versionedCodeRE matches a code that ends with its version: "cc-by-4.0",
// "eupl-1.2".
var versionedCodeRE = regexp.MustCompile(`^(.*[a-z].*?)-(\d+(?:\.\d+)?)$`)

// versionRE matches a version written with a v: "v1.2", "v3".
var versionRE = regexp.MustCompile(`^v(\d+(?:\.\d+)*)$`)

// versionStated reports whether text gives version number n after a word
// for version: "version 1.2", "versione 1.2", "release 1.2".
func versionStated(text, n string) bool {
	return regexp.MustCompile(`\b(?:version[ei]?|release|rel\.?)\s+` + regexp.QuoteMeta(n) + `\b`).MatchString(text)
}

// onlyInCodes reports whether a name occurs in text only as part of a
// code ("LICENCE" in "LICENCE.md").
func onlyInCodes(text, name string) bool {
	seen := false
	for off := 0; name != ""; {
		i := strings.Index(text[off:], name)
		if i < 0 {
			return seen
		}
		i += off
		j := i + len(name)
		if !(i > 0 && joinsBefore(text, i) || j < len(text) && joinsAfter(text, j)) {
			return false
		}
		seen, off = true, i+1
	}
	return false
}

// unhyphen writes hyphens between words as spaces.
func unhyphen(s string) string { return normalSpace(strings.ReplaceAll(s, "-", " ")) }

// containsBounded reports whether s holds sub where neither side runs on
// into a letter or digit.
func containsBounded(s, sub string) bool { return indexBounded(s, sub) >= 0 }

// indexBounded returns where s first holds sub with neither side running
// on into a letter or digit, or -1.
func indexBounded(s, sub string) int {
	if sub == "" {
		return -1
	}
	for off := 0; ; {
		i := strings.Index(s[off:], sub)
		if i < 0 {
			return -1
		}
		i += off
		j := i + len(sub)
		if (i == 0 || !isWordByte(s, i-1, sub[0]) && !joinsBefore(s, i)) && (j == len(s) || !isWordByte(s, j, sub[len(sub)-1]) && !joinsAfter(s, j)) {
			return i
		}
		off = i + 1
	}
}

// joiners continue a code across a match's edge when a letter or digit
// follows them: "LICENCE" is not stated by "LICENCE.md", nor "--force"
// by "--force-with-lease".
const joiners = ".-_"

// joinsAfter reports whether s continues the code that ends before j.
func joinsAfter(s string, j int) bool {
	if s[j] == '-' && j+1 < len(s) && isDigit(s[j+1]) {
		return false // a version after a hyphen: "CC-BY-4.0" is CC-BY
	}
	return strings.IndexByte(joiners, s[j]) >= 0 && j+1 < len(s) && isWordByte(s, j+1, 'a')
}

// joinsBefore reports whether s continues the code that starts at i.
func joinsBefore(s string, i int) bool {
	return strings.IndexByte(joiners, s[i-1]) >= 0 && i >= 2 && isWordByte(s, i-2, 'a')
}

// isWordByte reports whether the byte at i continues a word across a
// match's edge: only letters and digits join, and only when the match's
// own edge is one.
func isWordByte(s string, i int, edge byte) bool {
	isWord := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 0x80 }
	return isWord(edge) && isWord(s[i])
}

// leadFigureContradictions returns figureContradictions, and for a lead
// of two clauses (split at its first semicolon) whose first gives
// another figure of the kind asked and the right one only after it
// ("Entro 5 giorni lavorativi; per …, entro due"), that first figure:
// the lead leads with it.
func leadFigureContradictions(ref reference, leadFacts []fact, question []figure, ld lead, statesPolarity, aboutIt, asksFigure bool) []string {
	all := figureContradictions(ref, figuresOf(leadFacts), question, ld, statesPolarity, aboutIt, asksFigure)
	first, _, split := strings.Cut(ld.text, ";")
	if !split || !(ld.span || ld.direct || ld.first) || len(all) > 0 {
		return all
	}
	main := figuresOf(ref.facts)
	firstFigs := figuresOf(extract(first))
	for _, g := range firstFigs {
		if matchesAny(g, main) || matchesAny(g, figuresOf(ref.asides)) || matchesAny(g, question) {
			continue
		}
		for _, f := range main {
			if !matchesAny(f, firstFigs) && compatible(f, g, false) {
				return []string{describe(g) + " against " + describe(f) + ", the first clause's figure"}
			}
		}
	}
	return nil
}

// otherCounts returns the lead's counts of a thing the question counts
// otherwise: "Three roles" to "Which two roles …".
func otherCounts(lead, question []figure) []string {
	var out []string
	for _, g := range lead {
		for _, q := range question {
			if !g.unit.empty() && !g.unit.known() && !g.unit.isMonth() && g.unit.name == q.unit.name && g.clock < 0 && q.clock < 0 && !equalValues(g.value, q.value) {
				out = append(out, describe(g)+" against the question's "+describe(q))
			}
		}
	}
	return out
}

// listItemSepRE splits a reference that is a list: commas and the last
// "and", "e", "or", "o".
var listItemSepRE = regexp.MustCompile(`\s*,\s*(?:and\s+|e\s+|or\s+|o\s+)?|\s+(?:and|e|or|o)\s+`)

// countOpeningRE matches a lead that opens by counting its items: "Three
// headings: …", "Sono 4: …", "4 sezioni: …".
var countOpeningRE = regexp.MustCompile(`(?i)^\W*(?:(?:there are|they are|sono|ce ne sono)\s+)?([\p{L}\d]+)(?:\s+[\p{L}]+)?\s*:`)

// maxListItemWords is the longest item of a reference read as a list.
const maxListItemWords = 4

// listMiscounted returns a lead's count of items where the reference is
// a bare list of another number of short items ("Three headings: …" for
// "Breaking changes, new features, deprecated features and bug fixes").
func listMiscounted(reference, lead string) []string {
	ref := strings.TrimRight(strings.TrimSpace(asideRE.ReplaceAllString(reference, " ")), ".")
	if strings.ContainsAny(ref, ";:.") {
		return nil
	}
	items := listItemSepRE.Split(ref, -1)
	if len(items) < 3 {
		return nil
	}
	for _, it := range items {
		if n := len(strings.Fields(it)); n == 0 || n > maxListItemWords {
			return nil
		}
	}
	m := countOpeningRE.FindStringSubmatch(lead)
	if m == nil {
		return nil
	}
	n, ok := wordNumber(fold(m[1]))
	if !ok {
		v, isNumber := parseDigits(m[1])
		n, ok = v, isNumber
	}
	if !ok || equalValues(n, float64(len(items))) {
		return nil
	}
	return []string{fmt.Sprintf("the lead counts %s items, the reference lists %d", m[1], len(items))}
}

// bareListItems returns the items of text when it is a bare list of
// short items ("An incident lead and a communications lead"), else nil.
func bareListItems(text string) []string {
	t := strings.TrimRight(strings.TrimSpace(asideRE.ReplaceAllString(text, " ")), ".")
	if strings.ContainsAny(t, ";:.") {
		return nil
	}
	items := listItemSepRE.Split(t, -1)
	for _, it := range items {
		if n := len(strings.Fields(it)); n == 0 || n > maxListItemWords {
			return nil
		}
	}
	return items
}

// listWidened returns a lead that lists every item of a reference's bare
// list and more ("An incident lead, a communications lead and a scribe"
// for two roles): it states another count as the answer.
func listWidened(reference, lead string) []string {
	ref, got := bareListItems(reference), bareListItems(lead)
	if len(ref) < 2 || len(got) <= len(ref) {
		return nil
	}
	have := map[string]bool{}
	for _, st := range contentStems(lead) {
		have[st] = true
	}
	for _, it := range ref {
		for _, st := range contentStems(it) {
			if !have[st] {
				return nil
			}
		}
	}
	return []string{fmt.Sprintf("the lead lists %d items, the reference %d", len(got), len(ref))}
}

// exampleRE matches the words that introduce examples: such as, e.g.,
// for example, like, come, ad esempio, per esempio.
var exampleRE = regexp.MustCompile(`(?i)\b(?:such as|e\.g\.|for example|for instance|like|ad esempio|per esempio|come ad esempio|p\. ?es\.|es\.)(?:[^\p{L}]|$)`)

// onlyOpeningRE matches a lead that opens by restricting: "Only …",
// "Solo …".
var onlyOpeningRE = regexp.MustCompile(`(?i)^\W*(?:only|just|solo|soltanto|solamente|unicamente|esclusivamente)\b`)

// onlySome returns a lead that allows only some of the reference's names
// and codes ("Solo i PSN." for three options): "only" excludes the
// others.
func onlySome(reference string, ref reference, lead []fact, leadText string) []string {
	// "Only if …" restricts a condition, not a list of names.
	if !onlyOpeningRE.MatchString(leadText) || onlyIfRE.MatchString(leadText) {
		return nil
	}
	text := strings.ToLower(leadText)
	examples := ""
	if loc := exampleRE.FindStringIndex(reference); loc != nil {
		examples = strings.ToLower(reference[loc[0]:])
	}
	var stated, missed []string
	for _, f := range ref.facts {
		if f.kind != nameFact && f.kind != codeFact || containsBounded(examples, strings.ToLower(f.text)) {
			continue // "such as 18.x or 20.x" illustrates, it does not list
		}
		// "Solo i Poli Strategici Nazionali" names PSN by its words.
		in := containsBounded(text, strings.ToLower(f.text)) || nameAbbreviated(f.text, reference, leadText, lead)
		for _, g := range lead {
			in = in || g.kind == f.kind && g.key == f.key
		}
		if in {
			stated = append(stated, f.text)
		} else {
			missed = append(missed, f.text)
		}
	}
	if len(stated) == 0 || len(missed) == 0 {
		return nil
	}
	return []string{"the lead allows only " + strings.Join(stated, ", ") + ", the reference also " + strings.Join(missed, ", ")}
}

// onlyRE matches what a reference restricts its answer to: "only write
// permissions", "solo lettura".
var onlyRE = regexp.MustCompile(`(?i)\b(?:only|solo|soltanto|unicamente|esclusivamente)\s+([\p{L}]+)`)

// pairRE matches two words joined by and, or or a comma: "read and
// write", "lettura e scrittura".
var pairRE = regexp.MustCompile(`(?i)([\p{L}]+)\s*(?:,|\s(?:and|or|&|e|o|ed|oppure))\s+([\p{L}]+)`)

// onlyWidened returns what a lead adds beside the one thing a reference
// allows ("Read and write permissions" for only write permissions).
func onlyWidened(reference, lead string) []string {
	var out []string
	for _, m := range onlyRE.FindAllStringSubmatch(asideRE.ReplaceAllString(reference, " "), -1) {
		x := fold(m[1])
		if stopwords[x] {
			continue
		}
		for _, p := range pairRE.FindAllStringSubmatchIndex(lead, -1) {
			a, b := fold(lead[p[2]:p[3]]), fold(lead[p[4]:p[5]])
			other := ""
			switch {
			case stem(a) == stem(x) && stem(b) != stem(x):
				other = b
			case stem(b) == stem(x) && stem(a) != stem(x):
				other = a
			}
			before := strings.Fields(fold(lead[:p[0]]))
			negated := len(before) > 0 && negators[before[len(before)-1]]
			if other != "" && !stopwords[other] && len([]rune(other)) >= 3 && !negated && !negators[a] {
				out = append(out, fmt.Sprintf("the lead adds %s to the reference's only %s", other, m[1]))
			}
		}
	}
	return out
}

// figureContradictions returns the figures of the lead that contradict
// the reference, where the lead gives the answer (a span lead, one that
// states a main figure or the reference's yes or no) or is about the
// question (aboutIt); elsewhere an unrelated
// passage's figures ("12 months" of service) are not claims about what
// was asked. A lead figure that is none of the reference's main figures
// (nor the question's own) contradicts a main figure the lead does not
// state when it claims to be it (see compatible): "180 euro" for 250 euro,
// "3 mesi" (an aside's figure) for 6 mesi. It contradicts an aside's
// figure likewise, but not in a lead merely about the question: an
// aside's subject ("Bologna opens 8:00-13:00") is not the lead's.
func figureContradictions(ref reference, lead, question []figure, ld lead, statesPolarity, aboutIt, asksFigure bool) []string {
	main, asides := figuresOf(ref.facts), figuresOf(ref.asides)
	// A bare number claims to be the figure asked for when it stands
	// alone as the answer ("Cinque.", "1 —") or is the only figure of a
	// lead about the question ("a maximum line length of <= 79").
	unlabelled := 0
	for _, g := range lead {
		if g.unit.empty() && g.label == "" && g.clock < 0 {
			unlabelled++
		}
	}
	bare := ld.span && len(lead) == 1 && len(strings.Fields(ld.text)) <= 2 ||
		unlabelled == 1 && (ld.direct && !ld.long || ld.first || aboutIt && asksFigure && len(main) == 1)
	answers := ld.span || ld.direct && (!ld.long || aboutIt) || ld.first || statesPolarity
	for _, f := range main {
		answers = answers || matchesAny(f, lead)
	}
	if !answers && !aboutIt {
		return nil
	}
	var out []string
	for _, g := range lead {
		if f, ok := qualifierAdded(g, main); ok && !matchesAny(g, question) {
			out = append(out, describe(g)+" against "+describe(f))
			continue
		}
		if matchesAny(g, main) || matchesAny(g, question) {
			continue
		}
		against := main
		if versionLabels[g.label] {
			// A version is not the count of the reference's names
			// ("Solo tre: CC0-1.0, CC-BY-4.0 e CC-BY-SA-4.0").
			against = withoutNameCounts(ref, main)
		}
		if f, ok := contradicted(g, against, lead, bare); ok {
			out = append(out, describeRate(g)+" against "+describeRate(f))
			continue
		}
		if matchesAny(g, asides) || !answers || onlyInContrast(g, ld.text) {
			continue
		}
		if f, ok := contradicted(g, asides, lead, bare); ok {
			out = append(out, describe(g)+" against "+describe(f))
		}
	}
	return out
}

// withoutNameCounts returns figures without those that count the
// reference's names and codes: a bare number equal to how many it names.
func withoutNameCounts(ref reference, figures []figure) []figure {
	named := 0
	for _, f := range ref.facts {
		if f.kind == nameFact || f.kind == codeFact {
			named++
		}
	}
	var out []figure
	for _, f := range figures {
		if f.unit.empty() && f.label == "" && f.clock < 0 && f.value >= 2 && equalValues(f.value, float64(named)) {
			continue
		}
		out = append(out, f)
	}
	return out
}

// bareValue reports whether a lead's only figure is a bare number of
// value v: "A hundred and twenty." to a question that asks for a length
// of 120 characters states it, the unit left to the question.
func bareValue(lead []fact, v float64) bool {
	figs := figuresOf(lead)
	return len(figs) == 1 && v >= 2 && figs[0].unit.empty() && figs[0].label == "" && figs[0].clock < 0 && equalValues(figs[0].value, v)
}

// contradicted returns the first of figures that lead figure g claims to
// be, among those the lead does not state.
func contradicted(g figure, figures, lead []figure, bare bool) (figure, bool) {
	for _, f := range figures {
		if !matchesAny(f, lead) && compatible(f, g, bare) {
			return f, true
		}
	}
	return figure{}, false
}

// matchesAny reports whether figure g is one of fs, in either direction
// (a bare number matches a figure of the same value).
func matchesAny(g figure, fs []figure) bool {
	for _, f := range fs {
		if sameFigure(f, g, nil) || sameFigure(g, f, nil) || f.unit.empty() != g.unit.empty() && equalValues(f.value, g.value) && f.clock < 0 && g.clock < 0 {
			return true
		}
	}
	return false
}

// compatible reports whether lead figure g, which is not reference figure
// f, claims to be it: both times of day; units of one dimension or one
// word; the same number in another known unit ("12 months" for 12
// weeks); the same label ("level 1" for level 3); or a bare number
// standing alone as a span lead.
func compatible(f, g figure, bareSpan bool) bool {
	f, g = inCurrency(f, g)
	switch {
	case f.clock >= 0 && g.clock >= 0:
		return true
	case f.unit.known() && g.unit.known():
		timeLike := func(u unit) bool { return u.dim == "time" || u.dim == "workday" }
		return f.unit.dim == g.unit.dim || timeLike(f.unit) && timeLike(g.unit) || equalValues(f.value, g.value) && !f.article && !g.article
	case isYear(f.value) && isYear(g.value) && f.unit.empty() && g.unit.empty():
		return true // another year
	case !f.unit.empty() && !g.unit.empty():
		// One unit word, or the same number counting something else
		// ("120 lines" for 120 characters).
		// An unknown unit may be any word ("3 elenca"): the same number
		// claims another unit only beside a unit the table knows.
		// Two days of the calendar are two dates: "5 settembre" for 9
		// maggio.
		return f.unit.name == g.unit.name || equalValues(f.value, g.value) && (f.unit.known() || g.unit.known()) || f.unit.isMonth() && g.unit.isMonth()
	case f.label != "" && f.label == g.label:
		return true
	case f.unit.empty() && g.unit.empty() && versionLabels[g.label]:
		return true // "versione 3.0" for CC-BY 4.0
	}
	return bareSpan && g.unit.empty() && g.label == ""
}

// contradictingClasses are the classes of code a lead can state another
// of: an address, a link, a telephone number, a path, a chat channel.
var contradictingClasses = map[string]bool{"url": true, "email": true, "phone": true, "path": true, "channel": true, "ip": true, "key": true}

// routeOf groups the classes of code that say how to reach someone: an
// address, a link, a telephone number and a chat channel are each a way
// to reach them, so one stated for another is another way ("email them
// at …" for the #user-support channel). A path is only a path.
func routeOf(class string) string {
	if class == "path" || class == "ip" || class == "key" {
		return class
	}
	return "route"
}

// codeContradictions returns the addresses, links, numbers and paths of
// the lead that differ from the reference's of the same class where the
// lead states none of those, and a span lead that is one other name or
// code where the reference's answer is a name or code.
func codeContradictions(question string, ref reference, lead []fact, ld lead) []string {
	var out []string
	inLead := func(f fact) bool {
		for _, g := range lead {
			if g.kind == f.kind && g.key == f.key {
				return true
			}
		}
		return false
	}
	for _, g := range lead {
		if g.kind != codeFact || !contradictingClasses[g.class] {
			continue
		}
		for _, f := range append(ref.facts, ref.asides...) {
			if f.kind == codeFact && routeOf(f.class) == routeOf(g.class) && f.key != g.key && !inLead(f) && !refHas(ref, g) && !unrelatedWordPairs(f, g) {
				out = append(out, g.text+" against "+f.text)
				break
			}
		}
	}
	// "dependabot" for no-dependabot: the name without its negation
	// says the reverse.
	text := strings.ToLower(ld.text)
	// "CC BY-SA" for CC-BY: the reference's code run on into another,
	// stated before the code itself if at all.
	refBases := map[string]bool{}
	for _, f := range ref.facts {
		if f.kind == codeFact {
			refBases[codeBase(f.key)] = true
		}
	}
	for _, f := range ref.facts {
		if f.kind != codeFact || !strings.ContainsAny(f.key, "- ") {
			continue
		}
		base := codeBase(f.key)
		for _, e := range codeExtensions(fold(text), base) {
			if refBases[codeBase(e.text)] {
				continue // "CC BY-SA" where the reference lists CC-BY-SA too
			}
			if at := baseCodeAt(fold(text), base); at < 0 || at > e.at {
				out = append(out, e.text+" against "+f.text)
				break
			}
		}
	}
	for _, f := range ref.facts {
		if f.kind != codeFact || !negatedNameRE.MatchString(f.text) || containsBounded(text, f.key) {
			continue
		}
		// The question's own word is what it asks about, not the name
		// without its negation: "training budget" to non-training books.
		if bare := f.key[strings.IndexByte(f.key, '-')+1:]; containsBounded(text, bare) && !containsBounded(strings.ToLower(question), bare) {
			out = append(out, bare+" against "+f.text)
		}
	}
	if ld.span && len(lead) == 1 && len(strings.Fields(ld.text)) == 1 && (lead[0].kind == nameFact || lead[0].kind == codeFact) && !refHas(ref, lead[0]) {
		for _, f := range ref.facts {
			if f.kind == nameFact || f.kind == codeFact {
				out = append(out, lead[0].text+" against "+f.text)
				break
			}
		}
	}
	return out
}

// otherNamesStated returns what a direct answer or a span lead states as
// the answer in place of the reference's names and codes: a code of the
// same form as one of the reference's that it does not state ("18.x" for
// 20.x, "115/2019" for 237/2017), and, when it states none of the
// reference's key facts (statesSome), any name or code that neither the
// reference nor the question holds, of the kind of one of the
// reference's ("Amazon SES." for GOV.UK Notify; a name for a figure); a
// one-word answer is such a code however it is written ("alphagov.").
func otherNamesStated(question, reference string, ref reference, lead []fact, ld lead, statesSome bool) []string {
	var target []fact
	for _, f := range ref.facts {
		if f.kind == nameFact || f.kind == codeFact || f.kind == figureFact {
			target = append(target, f)
		}
	}
	if len(target) == 0 {
		return nil
	}
	if len(lead) == 0 && ld.direct {
		lead = oneWordAnswer(ld.text)
	}
	inLead := func(f fact) bool {
		for _, g := range lead {
			if g.kind == f.kind && g.key == f.key {
				return true
			}
		}
		return false
	}
	qLower, qStems := strings.ToLower(question), map[string]bool{}
	for _, st := range stemsOf(question) {
		qStems[st] = true
	}
	for _, a := range acronymsOf(question) {
		qStems[stem(fold(a))] = true
	}
	leadExamples := sharedExamples(ref, reference, ld.text)
	var out []string
	for _, g := range lead {
		if g.kind != nameFact && g.kind != codeFact || refHas(ref, g) || g.negated || g.kind == codeFact && spellsReferenceName(g, reference) || abbreviatesWords(g.text, reference) || translatesAName(g, ref, reference, ld.text) {
			continue
		}
		if g.kind == codeFact && containsBounded(leadExamples, strings.ToLower(g.text)) {
			continue
		}
		if g.kind == nameFact && qStems[g.key] || g.kind == codeFact && (containsBounded(qLower, g.key) || namesQuestionCode(g, qLower)) {
			continue
		}
		for _, f := range target {
			if f.kind == figureFact || inLead(f) {
				continue
			}
			fk := strings.ToLower(f.text)
			sameForm := f.kind == codeFact && g.kind == codeFact && (codeShape(f.key) == codeShape(g.key) || oneSegmentApart(f.key, g.key))
			// A code that extends the reference's is another code:
			// "CC-BY-SA" for CC-BY, "LICENSE.md" for LICENSE.
			extends := g.kind == codeFact && onlyInCodes(strings.ToLower(g.text), fk)
			if sameForm || extends {
				out = append(out, g.text+" against "+f.text)
				break
			}
		}
		if len(out) == 0 && g.kind == nameFact && (nextToFoundName(g, lead, ref) || listedWithFoundName(g, lead, ref, ld.text)) && missesAName(ref, lead) {
			// "Google Analytics" for Web Analytics Italia: a name of
			// the answer's own joined to one of the reference's.
			out = append(out, g.text+" against "+ref.facts[0].String())
			continue
		}
		if statesSome || len(out) > 0 {
			continue
		}
		for _, f := range target {
			// A code of digits alone ("6.3.8", a section) is a number,
			// not a name of the kind of one with letters.
			if f.kind != figureFact && nameFamily(f) == nameFamily(g) && (hasLetter(g.text) || !hasLetter(f.text)) && !unrelatedWordPairs(f, g) {
				out = append(out, g.text+" against "+f.text)
				break
			}
		}
		if len(out) == 0 && target[0].kind == figureFact && g.kind == nameFact {
			out = append(out, g.text+" against "+target[0].text)
		}
	}
	return out
}

// alternativeGapRE matches what stands between two options offered as
// equal: "or", "o", "oppure", "in alternativa", with a version number
// before it and up to three words after it ("EUPL 1.2 oppure la GPL",
// "--force-with-lease, or plain git push --force").
var alternativeGapRE = regexp.MustCompile(`(?i)^[\s\d.,;:]*(?:or|either|otherwise|alternatively|o|oppure|altrimenti|in alternativa)[\s,;:]+(?:[\p{L}'’]+[\s,;:]+){0,3}$`)

// quotesAsSpaces maps the backticks, quotes and emphasis marks around
// codes to spaces: "`git push --force-with-lease` or `git push
// --force`" offers two options as plainly as without them.
func quotesAsSpaces(r rune) rune {
	if strings.ContainsRune("`\"'“”«»*_", r) {
		return ' '
	}
	return r
}

// trailingVersionRE matches the version that ends a code after a
// separator: "-1.0" of "CC0-1.0", " v1.2".
var trailingVersionRE = regexp.MustCompile(`[- ]v?\d+(?:\.\d+)*$`)

// alternativeNames returns the names and codes a lead offers as an
// option beside the reference's ("Amazon SES, or GOV.UK Notify"; "EUPL
// 1.2 oppure la GPL-3.0"; "Su GitHub o su Developers Italia"), where
// they are of the kind of the reference's and neither the reference nor
// the question holds them: the reader is told another answer is as
// good.
func alternativeNames(question, reference string, ref reference, lead []fact, leadText string) []string {
	qLower, qStems := strings.ToLower(question), map[string]bool{}
	for _, st := range stemsOf(question) {
		qStems[st] = true
	}
	var parts []string // the words of the reference's codes: "cc" and "by" of CC-BY
	for _, f := range append(ref.facts, ref.asides...) {
		if f.kind == codeFact {
			parts = append(parts, strings.FieldsFunc(f.key, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })...)
		}
	}
	families := map[string]bool{}
	for _, f := range ref.facts {
		if f.kind == nameFact || f.kind == codeFact {
			families[nameFamily(f)] = true
		}
	}
	isRefs := func(g fact) bool {
		if refHas(ref, g) {
			return true
		}
		for _, f := range append(ref.facts, ref.asides...) {
			if (f.kind == codeFact || f.kind == nameFact) &&
				trailingVersionRE.ReplaceAllString(strings.ToLower(f.text), "") == trailingVersionRE.ReplaceAllString(strings.ToLower(g.text), "") {
				return true
			}
		}
		for _, p := range parts {
			if p == strings.ToLower(g.text) {
				return true
			}
		}
		for _, run := range nameRuns(reference) {
			if initials(run) == g.text {
				return true
			}
		}
		return false
	}
	text := strings.ToLower(leadText)
	var refs, others []fact
	for _, f := range append(ref.facts, ref.asides...) {
		if (f.kind == nameFact || f.kind == codeFact) && containsBounded(text, strings.ToLower(f.text)) {
			refs = append(refs, f) // at a sentence's start too: "Sphinx or …"
		}
	}
	// A capitalised first word may be a name too ("Poetry, or uv").
	if w := strings.Fields(leadText); len(w) > 0 {
		first := trimWord(w[0])
		if r := []rune(first); len(r) > 1 && unicode.IsUpper(r[0]) && isLetters(first) && !stopwords[fold(first)] {
			lead = append([]fact{{kind: nameFact, text: first, key: stem(fold(first))}}, lead...)
		}
	}
	for _, g := range lead {
		switch {
		case g.kind != nameFact && g.kind != codeFact || g.negated:
		case isRefs(g):
			refs = append(refs, g)
		case g.kind == nameFact && qStems[g.key] || g.kind == codeFact && (containsBounded(qLower, g.key) || spellsReferenceName(g, reference)) || !families[nameFamily(g)]:
		default:
			others = append(others, g)
		}
	}
	leadExamples := sharedExamples(ref, reference, leadText)
	for _, g := range others {
		if g.kind == codeFact && containsBounded(leadExamples, strings.ToLower(g.text)) {
			continue
		}
		pg := indexBounded(text, strings.ToLower(g.text))
		for _, h := range refs {
			ph := indexBounded(text, strings.ToLower(h.text))
			if pg < 0 || ph < 0 || pg == ph {
				continue
			}
			gap := ""
			if pg < ph {
				gap = text[min(pg+len(g.text), ph):ph]
			} else {
				gap = text[min(ph+len(h.text), pg):pg]
			}
			if alternativeGapRE.MatchString(strings.Map(quotesAsSpaces, gap)) {
				return []string{"the lead offers " + g.text + " as an option beside " + h.text}
			}
		}
	}
	return nil
}

// nextToFoundName reports whether name g of the lead stands right
// beside one of the reference's names in the lead, as one name of
// several words.
func nextToFoundName(g fact, lead []fact, ref reference) bool {
	for _, h := range lead {
		if h.kind == nameFact && (h.pos == g.pos+1 || h.pos == g.pos-1) && refHas(ref, h) {
			return true
		}
	}
	return false
}

// missesAName reports whether the lead leaves out one of the reference's
// names: a name of its own beside the others then stands in its place.
func missesAName(ref reference, lead []fact) bool {
	for _, f := range ref.facts {
		if f.kind != nameFact {
			continue
		}
		found := false
		for _, g := range lead {
			found = found || g.kind == nameFact && g.key == f.key
		}
		if !found {
			return true
		}
	}
	return false
}

// nameFamily is the kind of thing a name or code names, so that only
// another of its kind stands in its place: names, codes and quoted labels
// name things (tools, teams, files); addresses, links, numbers, paths and
// channels each only their own kind.
func nameFamily(f fact) string {
	if f.kind == nameFact || f.class == "code" || f.class == "quoted" {
		return "thing"
	}
	return f.class
}

// codeShape is a code's form with each run of digits written 9: "18.x"
// and "20.x" share "9.x", "237/2017" and "115/2019" share "9/9".
func codeShape(code string) string {
	var b strings.Builder
	digits := false
	for _, r := range code {
		if unicode.IsDigit(r) {
			if !digits {
				b.WriteByte('9')
			}
			digits = true
			continue
		}
		digits = false
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// refHas reports whether the reference holds fact g, asides included.
func refHas(ref reference, g fact) bool {
	for _, f := range append(ref.facts, ref.asides...) {
		if f.kind == g.kind && f.key == g.key {
			return true
		}
	}
	return false
}

// about reports whether a sentence is about the topic whose content
// stems are given: it shares minTopicStems of them, or half if they are
// fewer than four.
func about(sentence string, topic []string) bool {
	return len(topic) > 0 && sharedStems(topicStems(sentence), topic) >= min(minTopicStems, (len(topic)+1)/2)
}

// topicStems are the content stems of text that say what it is about:
// units ("days", "months") are not a topic.
func topicStems(text string) []string {
	var kept []string
	for _, w := range letterWords(text) {
		if _, isUnit := lookupUnit(w); !isUnit {
			kept = append(kept, w)
		}
	}
	return contentStems(strings.Join(kept, " "))
}

// sharedStems counts the stems of a found in b.
func sharedStems(a, b []string) int {
	set := map[string]bool{}
	for _, s := range b {
		set[s] = true
	}
	n := 0
	for _, s := range a {
		if set[s] {
			n++
		}
	}
	return n
}

// coverage is the share of stems found in set; 1 for no stems.
func coverage(stems []string, set map[string]bool) float64 {
	if len(stems) == 0 {
		return 1
	}
	n := 0
	for _, s := range stems {
		if set[s] {
			n++
		}
	}
	return float64(n) / float64(len(stems))
}

// listItemRE matches a list item's bullet, at a line's start or, as a
// passage flattened to one line writes it, after a colon or semicolon.
var listItemRE = regexp.MustCompile(`(?m)(?:^|[:;]\s)\s*[-•*]\s+\S`)

// listItems counts the items of the lists in an answer.
func listItems(answer string) int { return len(listItemRE.FindAllString(answer, -1)) }

// sharedExamples returns the lead's examples (see examplesOf) when they
// hold one of the reference's example codes, else "": another example
// beside one of the reference's ("like 20.x or 22.x" for "such as 18.x
// or 20.x") illustrates the same thing, and is neither another answer
// nor another option.
func sharedExamples(ref reference, reference, lead string) string {
	refExamples, leadExamples := examplesOf(reference), examplesOf(lead)
	for _, f := range ref.facts {
		if f.kind == codeFact && containsBounded(refExamples, strings.ToLower(f.text)) && containsBounded(leadExamples, strings.ToLower(f.text)) {
			return leadExamples
		}
	}
	return ""
}

// examplesOf returns, in lower case, the part of text from its first
// word that introduces examples ("such as", "like", "ad esempio") to the
// end of that sentence, or "" without one.
func examplesOf(text string) string {
	loc := exampleRE.FindStringIndex(text)
	if loc == nil {
		return ""
	}
	return strings.ToLower(firstSentence(text[loc[0]:]))
}

// examplesStated moves to found the reference's example codes ("such as
// 18.x or 20.x") the answer leaves out when it states another of them:
// one example illustrates as well as two.
func examplesStated(ref reference, reference string, found, missing []string) ([]string, []string) {
	examples := examplesOf(reference)
	if examples == "" || len(missing) == 0 {
		return found, missing
	}
	isExample := map[string]bool{}
	for _, f := range ref.facts {
		if f.kind == codeFact && containsBounded(examples, strings.ToLower(f.text)) {
			isExample[f.String()] = true
		}
	}
	one := false
	for _, f := range found {
		one = one || isExample[f]
	}
	if !one {
		return found, missing
	}
	var still []string
	for _, m := range missing {
		if isExample[m] {
			found = append(found, m)
		} else {
			still = append(still, m)
		}
	}
	return found, still
}

// minCodeSegments is how many segments two codes need before one word
// apart makes them two of a family: "cc-by-nc-4.0" and "cc-by-sa-4.0".
const minCodeSegments = 3

// oneSegmentApart reports whether two codes of as many segments (split
// at - _ . / and spaces) differ in one word alone: "CC-BY-NC-4.0" is
// another licence than CC-BY-SA-4.0, as "18.x" is another version than
// 20.x.
func oneSegmentApart(a, b string) bool {
	split := func(s string) []string {
		return strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune("-_./ ", r) })
	}
	sa, sb := split(a), split(b)
	if len(sa) < minCodeSegments {
		return false
	}
	differ := oneApart(sa, sb, func(x, y string) bool { return x == y })
	return differ >= 0 && isLetters(sa[differ]) && isLetters(sb[differ])
}

// firstNameOrCode returns the reference's first name or code, as Found
// and Missing write it, or "".
func firstNameOrCode(ref reference) string {
	for _, f := range ref.facts {
		if f.kind == nameFact || f.kind == codeFact {
			return f.String()
		}
	}
	return ""
}

// otherFigureOfKind returns the first of an answer's figures, none of the
// question's, that claims to be one of the reference's: a unit of the
// same dimension, another time of day, another date.
func otherFigureOfKind(ref reference, figures, question []figure) string {
	for _, g := range figures {
		if matchesAny(g, question) || g.unit.empty() && g.clock < 0 {
			continue
		}
		for _, f := range figuresOf(ref.facts) {
			if compatible(f, g, false) {
				return describe(g) + " against " + describe(f)
			}
		}
	}
	return ""
}
