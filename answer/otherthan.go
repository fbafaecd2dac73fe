package answer

import (
	"regexp"
	"strings"
)

// otherThanRE: a phrase that sets what follows it apart from what comes
// before it ("a buddy distinct from their line manager", "report to HR
// rather than your manager", "un referente diverso dal responsabile").
var otherThanRE = regexp.MustCompile(`(?i)\b(?:(?:distinct|separate|different) from|other than|rather than|instead of|distint[oaie] d|divers[oaie] d|separat[oaie] d|anziché|invece d)`)

// setApart reports whether s sets the question's words apart from one
// another: some of the question's content keys (want) stand before an
// otherThanRE phrase and others only after it, in the same clause. A
// yes/no question that joins them ("Should the buddy be the line
// manager?") is then answered no. A question that uses such a phrase
// itself asks about the difference, and gets nothing from this.
func setApart(question, s string, want map[string]bool) bool {
	if otherThanRE.MatchString(question) {
		return false
	}
	loc := otherThanRE.FindStringIndex(s)
	if loc == nil {
		return false
	}
	after := s[loc[1]:]
	if i := strings.IndexAny(after, ",;:.()"); i >= 0 {
		after = after[:i]
	}
	before, afterKeys := ContentKeys(s[:loc[0]]), ContentKeys(after)
	onlyAfter := false
	for k := range afterKeys {
		if want[k] && !before[k] {
			onlyAfter = true
		}
	}
	return onlyAfter && hasAny(before, want)
}
