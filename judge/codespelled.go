package judge

import (
	"regexp"
	"strings"
)

// A code that opens with an acronym may be written with the acronym's
// words in its place: "Creative Commons BY 4.0" is CC-BY 4.0, "Open
// Data Licence 2" ODL-2. The words read as names of their own against
// the code, though they name the same thing.

// codeAcronymRE matches a code that opens with an acronym of capitals
// and goes on after a hyphen: "CC-BY", "ODL-2".
var codeAcronymRE = regexp.MustCompile(`\b(\p{Lu}{2,})-([\p{L}\p{N}][\p{L}\p{N}.-]*)`)

// withCodeAcronymsSpelled writes, in answer, a reference code's opening
// acronym spelled by the capitalised words whose initials it is, and
// followed by the rest of the code, as the code itself.
func withCodeAcronymsSpelled(reference, answer string) string {
	for _, m := range codeAcronymRE.FindAllStringSubmatch(reference, -1) {
		acronym, rest := m[1], m[2]
		words := make([]string, 0, len(acronym))
		for _, r := range acronym {
			words = append(words, string(r)+`\p{Ll}+`)
		}
		re, err := regexp.Compile(`\b` + strings.Join(words, `\s+`) + `[\s-]+` + regexp.QuoteMeta(rest) + `\b`)
		if err != nil {
			continue
		}
		answer = re.ReplaceAllString(answer, strings.ReplaceAll(m[0], "$", "$$"))
	}
	return answer
}
