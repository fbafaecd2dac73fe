package main

import "strings"

// snowballEnglish is the Snowball project's English stop list
// (snowballstem.org, algorithms/english/stop.txt), the companion of the
// Porter2 stemmer, without its apostrophe forms (the tokenizers split at
// the apostrophe, so "don't" never reaches a filter whole).
const snowballEnglish = `
i me my myself we our ours ourselves you your yours yourself yourselves he him
his himself she her hers herself it its itself they them their theirs
themselves what which who whom this that these those am is are was were be
been being have has had having do does did doing would should could ought a
an the and but if or because as until while of at by for with about against
between into through during before after above below to from up down in out
on off over under again further then once here there when where why how all
any both each few more most other some such no nor not only own same so than
too very cannot
`

// nltkExtra are the words NLTK's 179-word English list adds to Snowball's:
// "can", "will", "just", "now" and the fragments contractions leave.
const nltkExtra = `can will just now don ain aren couldn didn doesn hadn hasn haven isn
ma mightn mustn needn shan shouldn wasn weren won wouldn ll re ve`

// catenate adds, after each hyphenated compound of letters-only parts,
// the parts written together ("pro-inflammatory" also gives
// "proinflammatory"), as Lucene's WordDelimiterGraphFilter with
// catenateWords does, so the closed spelling of a compound meets the
// hyphenated one.
type catenate struct{}

func (catenate) Filter(tokens []string) []string {
	var out []string
	for _, t := range tokens {
		out = append(out, t)
		if strings.IndexByte(t, '-') > 0 && !strings.ContainsAny(t, "./0123456789_") {
			out = append(out, strings.ReplaceAll(t, "-", ""))
		}
	}
	return out
}
