package answer

import (
	"maps"
	"regexp"
	"strings"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/chunk"
)

// A question that offers a choice ("Swift or Kotlin?", "daily or
// weekly?", "un mirror o un proxy?") is answered by the alternative a
// quoted sentence names: quoting a sentence that names one alternative
// reads as choosing it. Like a lead, that sentence must be bound to the
// question's case: one that names a single alternative but lacks a word
// of the question that the context gives the other alternative with
// ("Kotlin for Android", for a question on an Android app) states the
// choice of another case, and is not quoted. When the sentences of each
// alternative lack a word the other's hold, neither is quoted: the
// context does not settle the choice for the question's case, and only a
// sentence that weighs both alternatives answers it.

// choiceRE: the two words either side of the last "or" of a question
// (an article before the second skipped).
var choiceRE = regexp.MustCompile(`(?i)([\p{L}\d][\p{L}\d+#.-]*)\s+(?:or|o|oppure)\s+(?:(?:the|a|an|il|lo|la|i|gli|le|un|una|uno)\s+|l')?([\p{L}\d][\p{L}\d+#.-]*)\s*$`)

// alternatives returns the content keys of the two alternatives a
// question offers, or nil.
func alternatives(question string) []map[string]bool {
	m := choiceRE.FindStringSubmatch(askedPart(question))
	if m == nil {
		return nil
	}
	a, b := ContentKeys(m[1]), ContentKeys(m[2])
	if len(a) == 0 || len(b) == 0 || hasAny(a, b) {
		return nil
	}
	return []map[string]bool{a, b}
}

// named returns which of alts keys name: -1 for none, 2 for both.
func named(keys map[string]bool, alts []map[string]bool) int {
	switch a, b := hasAny(keys, alts[0]), hasAny(keys, alts[1]); {
	case a && b:
		return 2
	case a:
		return 0
	case b:
		return 1
	}
	return -1
}

// choices holds the sentences of a context that name an alternative of
// a choice question.
type choices struct {
	alts  []map[string]bool
	topic []map[string]bool // the question's topic words less the alternatives
	sents []choiceSentence
}

// choiceSentence is a sentence that names an alternative.
type choiceSentence struct {
	text string
	keys map[string]bool
	alt  int // named's answer
}

// newChoices reads the sentences of chunks that name an alternative of
// question; nil when the question offers no choice.
func newChoices(question string, chunks []fonte.Chunk) *choices {
	alts := alternatives(question)
	if alts == nil {
		return nil
	}
	c := &choices{alts: alts}
	for _, w := range topicWords(question) {
		if !hasAny(w, alts[0]) && !hasAny(w, alts[1]) {
			c.topic = append(c.topic, w)
		}
	}
	for _, ch := range chunks {
		for _, sp := range chunk.SentenceSpans(ch.Text) {
			s := strings.TrimSpace(ch.Text[sp[0]:sp[1]])
			keys := ContentKeys(s)
			if n := named(keys, alts); n >= 0 {
				c.sents = append(c.sents, choiceSentence{s, keys, n})
			}
		}
	}
	return c
}

// otherCase reports whether sentence s, framed by the keys of frame,
// names one alternative only and lacks a topic word of the question that
// a sentence naming the other alternative holds.
func (c *choices) otherCase(s string, frame map[string]bool) bool {
	if c == nil {
		return false
	}
	n := named(ContentKeys(s), c.alts)
	if n < 0 || n == 2 {
		return false
	}
	s = strings.TrimSpace(s)
	for _, o := range c.sents {
		if o.text == s || o.alt == n {
			continue
		}
		for _, w := range c.topic {
			if hasAny(o.keys, w) && !hasAny(frame, w) {
				return true
			}
		}
	}
	return false
}

// union returns a new set of the keys of a and b.
func union(a, b map[string]bool) map[string]bool {
	out := make(map[string]bool, len(a)+len(b))
	maps.Copy(out, a)
	maps.Copy(out, b)
	return out
}
