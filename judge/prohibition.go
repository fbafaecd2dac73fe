package judge

import (
	"regexp"
	"strings"
)

// prohibitionRE matches a sentence that opens by forbidding or by
// denying that one can: "Not allowed.", "Forbidden.", "It's prohibited",
// "You can't.", "Non è consentito", "Vietato.", "Non si può.". A modal
// denied counts only alone ("You can't." but not "You can't use …"),
// where a clause follows it the sentence's negation is read as usual.
var prohibitionRE = regexp.MustCompile(`(?i)^\W*(?:` +
	`(?:(?:it|this|that)(?:'s|\s+is)\s+|(?:è|e')\s+)?` +
	`(?:(?:(?:it|this|that)\s+(?:isn't|is\s+not)\s+|not\s+)(?:allowed|permitted|authori[sz]ed)|forbidden|prohibited|banned|disallowed|vietat[oaie]|proibit[oaie]|non\s+(?:è\s+)?(?:consentit|permess|ammess|autorizzat)[oaie])(?:[^\p{L}]|$)` +
	`|(?:(?:you|we|they|one)\s+)?(?:can't|cannot|can not|may not|mustn't|must not)\s*(?:[.!;,—–]|$)` +
	`|non\s+(?:si\s+può|puoi|potete|possiamo|si\s+deve|devi|dovete)\s*(?:[.!;,—–]|$))`)

// prohibitionExceptRE matches what turns a prohibition into a
// condition: "unless", "except", "without", "a meno che", "salvo",
// "tranne", "senza", "se non".
var prohibitionExceptRE = regexp.MustCompile(`(?i)\b(?:unless|except|without|a meno|salvo|tranne|senza|se non)\b`)

// opensWithProhibition reports whether a sentence says no by forbidding
// what the question asks ("Not allowed." to "Can I work from abroad?"):
// a no as "No" opens one. To a question that asks whether something is
// forbidden ("È vietato …?") the same words say yes, and a prohibition
// with an exception grants on a condition: neither is read.
func opensWithProhibition(sentence, question string) bool {
	s := strings.ReplaceAll(sentence, "’", "'")
	if !prohibitionRE.MatchString(s) || prohibitionExceptRE.MatchString(s) {
		return false
	}
	q := fold(strings.ReplaceAll(question, "’", "'"))
	for _, p := range negativePredicates {
		if strings.Contains(q, p) {
			return false
		}
	}
	return !strings.Contains(q, "not allowed") && !strings.Contains(q, "not permitted") && !strings.Contains(q, "non e consentit") && !strings.Contains(q, "non e permess")
}

// ellipticGrantRE matches an answer that grants with a pronoun or a bare
// modal for what the question names: "They can use it freely.",
// "You may.", "Possono usarla liberamente.", "Si può.". Its words need
// not repeat the question's: the pronoun stands for them.
var ellipticGrantRE = regexp.MustCompile(`(?i)^\W*(?:(?:they|you|we|it|one|he|she)\s+(?:can|may|could|are allowed to|is allowed to|are free to|is free to)|(?:possono|può|puoi|potete|possiamo|si può|si possono)(?:[^\p{L}]|$))`)
