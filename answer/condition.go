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
