package answer

import (
	"regexp"
	"strings"
)

// A figure given as an example ("a period (e.g. 2015-2017)", "Ad esempio:
// Copyright (c) 2019 …") shows the form an answer takes, not the answer:
// the rule is the words around it ("the year the code was first
// published"). Leading with it would state an example as the fact asked
// for, so it never leads; the sentence may still be quoted.

var (
	// exampleRE: the words that open an example ("e.g.", "for
	// instance", "ad esempio", "per es."), and up to four words of it,
	// ending the text before a span.
	exampleRE = regexp.MustCompile(`(?i)(?:\be\.\s?g\.?|\bfor (?:example|instance)|\bad esempio|\bper esempio|\b(?:ad|per)\s?es\.)[,:]?(?:\s*[^\s;:.()|]+){0,4}?[\s,]*$`)
	// exampleIntroRE: a line that announces an example on the lines
	// after it ("For example:", "Ad esempio:").
	exampleIntroRE = regexp.MustCompile(`(?i)(?:\be\.\s?g\.?|\bfor (?:example|instance)|\bad esempio|\bper esempio|\b(?:ad|per)\s?es\.)\s*:\s*$`)
)

// illustrative reports whether a span that follows before is given as
// an example.
func illustrative(before string) bool { return exampleRE.MatchString(before) }

// shownAsExample reports whether the line of text that ends before
// offset at and reads line (an inner heading) comes after a line that
// announces an example: it is the example, not a heading.
func shownAsExample(text, line string, at int) bool {
	i := strings.LastIndex(text[:at], line)
	return line != "" && i >= 0 && exampleIntroRE.MatchString(strings.TrimSpace(text[:i]))
}
