package judge

import (
	"regexp"
	"strings"
	"unicode"
)

// A code is the same code however its letter and number parts are
// joined: "GovS 007" is GovS007, "AES-256" is AES 256, "feature
// /featureName" is feature/featureName. A writer's spacing, or a
// passage's stray space, does not change what the code names, but the
// answer's pieces read as other codes ("GovS" against GovS007) or leave
// the reference's figure unstated.

// codeLike reports whether a word of the reference is a code whose
// parts a writer may join otherwise: letters and digits in one word
// ("GovS007"), or a slash between letters ("feature/featureName").
func codeLike(w string) bool {
	return hasLetter(w) && (hasDigit(w) || strings.Contains(strings.Trim(w, "/"), "/"))
}

// letterDigitPairs returns the reference's name-then-number pairs
// written as two words ("AES 256", "CC-BY 4.0"), which a writer may
// join with a hyphen.
func letterDigitPairs(reference string) []string {
	fields := strings.Fields(reference)
	var out []string
	for i := 0; i+1 < len(fields); i++ {
		name, num := fields[i], strings.TrimRight(fields[i+1], ".,;:!?)\"'»”")
		r := []rune(name)
		if len(r) < 2 || !unicode.IsUpper(r[0]) || strings.IndexFunc(name, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' }) >= 0 {
			continue
		}
		if num == "" || strings.IndexFunc(num, func(r rune) bool { return !unicode.IsDigit(r) && r != '.' && r != ',' }) >= 0 || !isDigit(num[0]) {
			continue
		}
		out = append(out, name+" "+num)
	}
	return out
}

// withReferenceCodesJoined writes, in answer, each of the reference's
// codes that the answer gives with its parts joined otherwise in the
// reference's own form; a form the reference itself writes is left as
// it is ("CC-BY 4.0" beside "CC-BY-4.0").
func withReferenceCodesJoined(reference, answer string) string {
	codes := letterDigitPairs(reference)
	for _, f := range strings.Fields(reference) {
		if w := strings.Trim(f, ".,;:!?()\"'«»“”"); codeLike(w) {
			codes = append(codes, w)
		}
	}
	for _, c := range codes {
		if containsBounded(answer, c) {
			continue
		}
		re, err := regexp.Compile(`(?i)(^|[^\p{L}\p{N}/_-])(` + spacedPattern(c) + `)($|[^\p{L}\p{N}/_.-]|[-/.](?:$|[^\p{L}\p{N}]))`)
		if err != nil {
			continue
		}
		answer = re.ReplaceAllStringFunc(answer, func(m string) string {
			g := re.FindStringSubmatch(m)
			if containsBounded(strings.ToLower(reference), strings.ToLower(g[2])) {
				return m
			}
			return g[1] + c + g[3]
		})
	}
	return answer
}

// spacedPattern matches code c with a space, a hyphen or nothing where
// its letters meet its digits, and spaces around a slash.
func spacedPattern(c string) string {
	var b strings.Builder
	rs := []rune(c)
	for i, r := range rs {
		switch {
		case r == ' ' || r == '-':
			b.WriteString(`[ -]?`)
			continue
		case r == '/':
			b.WriteString(` ?/ ?`)
			continue
		}
		if i > 0 && rs[i-1] != ' ' && rs[i-1] != '-' && rs[i-1] != '/' && unicode.IsDigit(r) != unicode.IsDigit(rs[i-1]) {
			b.WriteString(`[ -]?`)
		}
		b.WriteString(regexp.QuoteMeta(string(r)))
	}
	return b.String()
}
