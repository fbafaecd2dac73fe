package answer

import (
	"regexp"
	"slices"
)

// A command-line option in a question ("-o", "--force-with-lease") names
// exactly what is asked about, yet its content keys are too short or too
// common to count ("o" is an Italian stop word): a sentence that writes
// the same option is the one about it.

// optionRE: a command-line option, after a space, a quote or a bracket.
var optionRE = regexp.MustCompile(`(?:^|[\s"'(«“‘])(--?[A-Za-z][\w-]*)`)

// optionsOf returns the options text writes.
func optionsOf(text string) []string {
	var out []string
	for _, m := range optionRE.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}

// sharesOption reports whether sentence s writes one of the options.
func sharesOption(options []string, s string) bool {
	if len(options) == 0 {
		return false
	}
	return slices.ContainsFunc(optionsOf(s), func(o string) bool { return slices.Contains(options, o) })
}
