package judge

import (
	"regexp"
	"strings"
)

// A question that offers a choice ("the author or the reviewer?",
// "Swift o Kotlin?") is answered by picking one side. A reference that
// picks one side is contradicted by an answer whose first sentence
// names only the other: a reader takes that side as its answer, however
// few of the reference's words it has left to compare.

// choiceRE matches the words joined by "or", "o" or "oppure" at the end
// of a question: up to three words on either side.
var choiceRE = regexp.MustCompile(`(?i)((?:[\p{L}\d'’.+#-]+\s+){0,2}[\p{L}\d'’.+#-]+)\s+(?:or|o|oppure)\s+((?:[\p{L}\d'’.+#-]+\s+){0,2}[\p{L}\d'’.+#-]+)\s*\?\s*$`)

// comparedRE matches the words that set one thing against another:
// than, rather than, instead of, over, rispetto a, invece di, piuttosto
// che, anziché.
var comparedRE = regexp.MustCompile(`(?i)\b(?:than|instead of|rather|over|versus|vs|rispetto|invece|piuttosto|anzich)`)

// choiceForms returns the content words of text, folded and without an
// English plural's "s": the sides of a choice are told apart by their
// words, where stems would join "reviewer" and "review".
func choiceForms(text string) []string {
	var out []string
	for _, w := range letterWords(text) {
		f := fold(dropElision(w))
		if len(f) < 2 || stopwords[f] {
			continue
		}
		if len(f) > 3 && strings.HasSuffix(f, "s") && !strings.HasSuffix(f, "ss") {
			f = f[:len(f)-1]
		}
		out = append(out, f)
	}
	return out
}

// choiceSides returns the content words only one side of the question's
// choice has, or nothing when the question offers none.
func choiceSides(question string) (a, b map[string]bool) {
	m := choiceRE.FindStringSubmatch(strings.TrimSpace(question))
	if m == nil {
		return nil, nil
	}
	a, b = stemSet(choiceForms(m[1])), stemSet(choiceForms(m[2]))
	for s := range a {
		if b[s] {
			delete(a, s)
			delete(b, s)
		}
	}
	if len(a) == 0 || len(b) == 0 {
		return nil, nil
	}
	return a, b
}

func stemSet(stems []string) map[string]bool {
	out := map[string]bool{}
	for _, s := range stems {
		out[s] = true
	}
	return out
}

func meets(stems []string, set map[string]bool) bool {
	for _, s := range stems {
		if set[s] {
			return true
		}
	}
	return false
}

// otherSidePicked returns the side of the question's choice that the
// answer's first sentence names alone where the reference names only
// the other.
func otherSidePicked(question, reference, sentence string) []string {
	a, b := choiceSides(question)
	if a == nil {
		return nil
	}
	// The side a sentence puts against another ("more efficient than a
	// local mirror", "invece di un mirror") is not the one it picks.
	if loc := comparedRE.FindStringIndex(sentence); loc != nil {
		sentence = sentence[:loc[0]]
	}
	ref, ans := choiceForms(reference), choiceForms(sentence)
	if meets(ref, b) && !meets(ref, a) {
		a, b = b, a
	}
	if !meets(ref, a) || meets(ref, b) || !meets(ans, b) || meets(ans, a) {
		return nil
	}
	return []string{"the answer picks the question's other choice"}
}
