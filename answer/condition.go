package answer

import (
	"regexp"
	"strings"
)

// conditionalIntroRE: a list intro that ends in a condition ("…, provided
// they:", "as long as you:", "purché:", "a condizione che:"). Its items
// are the conditions under which the intro's rule holds, not rules of
// their own.
var conditionalIntroRE = regexp.MustCompile(`(?i)(?:,\s*|\s)(?:provided(?: that)?|providing(?: that)?|as long as|so long as|on condition that|only if|if|unless|purché|a condizione che|a patto che|sempre che|solo se|se|qualora)(?:\s[^:.;]*)?:\s*$`)

// ruleOfItem returns the sentence whose yes or no a quote answers, when
// the quote's sentence sp is a list item quoted from span under its
// intro: for an intro that ends in a condition, the intro's rule without
// it ("Static websites are usually fine on GitHub Pages", not "do not
// break the terms for Pages", which is a condition of it and forbids
// nothing the question asks); the sentence sp itself otherwise.
func ruleOfItem(text string, span, sp [2]int) string {
	s := text[sp[0]:sp[1]]
	if span[0] >= sp[0] || !listItem(strings.TrimSpace(s)) {
		return s
	}
	intro := text[span[0]:sp[0]]
	if i := strings.IndexByte(intro, '\n'); i >= 0 {
		intro = intro[:i]
	}
	intro = strings.TrimSpace(intro)
	if loc := conditionalIntroRE.FindStringIndex(intro); loc != nil && loc[0] > 0 {
		return intro[:loc[0]]
	}
	return s
}

// conditionOpenRE: the words that open a condition on a rule ("if you
// travel abroad", "purché il responsabile approvi").
var conditionOpenRE = wordsRE(`if|only if|unless|provided|providing|as long as|so long as|on condition that|subject to|in case|se|solo se|soltanto se|purché|a condizione che|a patto che|qualora|nel caso in cui|salvo che|a meno che`)

// underCondition reports whether a clause of rule s that rules (forbids,
// allows or obliges) holds a condition whose words (up to the next
// comma, colon, semicolon, stop or bracket) name a content word the
// question (want) does not: whether the rule applies then depends on
// what the question leaves open, and a plain yes or no would answer for a
// case the question does not state. A condition made of the question's
// own words is the question's case, and one in a clause of its own past
// a contrast ("…by default, but if users choose to…") is an exception to
// the rule, not a condition on it.
func underCondition(s string, want map[string]bool) bool {
	from := 0
	for _, cut := range append(contrastRE.FindAllStringIndex(s, -1), []int{len(s), len(s)}) {
		clause := s[from:cut[0]]
		from = cut[1]
		if !forbidRE.MatchString(clause) && !allowRE.MatchString(clause) && !obligeRE.MatchString(clause) {
			continue
		}
		for _, m := range conditionOpenRE.FindAllStringIndex(clause, -1) {
			end := len(clause)
			if i := strings.IndexAny(clause[m[1]:], ",;:.()"); i >= 0 {
				end = m[1] + i
			}
			for k := range ContentKeys(clause[m[1]:end]) {
				if !want[k] {
					return true
				}
			}
		}
	}
	return false
}
