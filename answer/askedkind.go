package answer

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/chunk"
)

// holdsAskedKind reports whether the passages an answer would be drawn
// from (the hits holding at least Coverage.MinHeld of the question's
// weight, all of them without coverage) hold a figure of the kind the
// question asks for, in a sentence that shares a word with the question:
// a duration for "how long", a frequency for "how often", money for "how
// much does it cost", a time of day for "what time", a figure with a
// unit for "how many". A question that asks for no such figure holds it
// trivially (true).
//
// A passage about the question's subject that states no figure of the
// asked kind does not answer it: "How long must backups be kept?" over
// a page on backups that gives no period is a question the documents do
// not cover, however many words they share.
func holdsAskedKind(question string, hits []fonte.Hit, c *Coverage) bool {
	if !checksKind(question) {
		return true
	}
	qt := QuestionType(question)
	m := askedMeasure(question, qt)
	want := ContentKeys(question)
	own := figures(question)
	for i, h := range hits {
		if c != nil && (i >= len(c.Held) || c.Held[i].Share < c.MinHeld) {
			continue
		}
		heading := ContentKeys(strings.Join(h.Chunk.Headings, " "))
		for _, sp := range chunk.SentenceSpans(h.Chunk.Text) {
			s := h.Chunk.Text[sp[0]:sp[1]]
			if !hasAny(ContentKeys(s), want) && !hasAny(heading, want) {
				continue
			}
			for _, f := range typedSpans(s, qt) {
				span := s[f[0]:f[1]]
				if ownFigure(span, own) {
					continue // the question's own condition
				}
				if vagueRE.MatchString(span) && countAskRE.MatchString(askedPart(question)) {
					continue // "alcuni giorni" does not say how many
				}
				if countWordRE.MatchString(span) {
					if _, named := (leader{want: want}).withNoun(s, [2]int{f[0], f[1]}); !named {
						continue // "one of them" counts nothing the question asks about
					}
				}
				if fits(span, m, true) {
					return true
				}
			}
		}
	}
	return false
}

// measureNames name each measure for a trace.
var measureNames = map[measure]string{
	anyMeasure: "a figure", durationMeasure: "a duration", frequencyMeasure: "a frequency",
	distanceMeasure: "a distance", ageMeasure: "an age", countMeasure: "a count",
	moneyMeasure: "money or a percentage", clockMeasure: "a time of day", dayMeasure: "a day or a date",
}

// askedKindName says which kind of figure the question asks for.
func askedKindName(question string) string {
	return measureNames[askedMeasure(question, QuestionType(question))]
}

// nameRE finds the tokens of a question that could be names: words with
// inner dots, dashes or digits kept whole ("Node.js", "1Password").
// An underscore joins an identifier's parts ("HANDLING_INSTRUCTIONS.md").
var nameRE = regexp.MustCompile(`[\p{L}\p{N}][\p{L}\p{N}.+/_-]*[\p{L}\p{N}]|[\p{L}\p{N}]`)

// commonCapitals are words written in capitals that name nothing ("Is it
// OK to …?").
var commonCapitals = map[string]bool{"OK": true, "O.K": true}

// nameOfCompound returns the name in a hyphenated compound that joins it
// to lower-case words ("SECRET-classified", "Java-based" name SECRET and
// Java: a passage says "classified as SECRET"); w itself otherwise.
func nameOfCompound(w string) string {
	if !strings.Contains(w, "-") {
		return w
	}
	parts := strings.Split(w, "-")
	var kept []string
	for _, p := range parts {
		if p != "" && p == strings.ToLower(p) && strings.IndexFunc(p, unicode.IsDigit) < 0 {
			continue
		}
		kept = append(kept, p)
	}
	if len(kept) == 0 || len(kept) == len(parts) {
		return w
	}
	return strings.Join(kept, "-")
}

// questionNames returns the names a question uses: a word capitalised
// inside a sentence ("Denver", "Trieste"), in capitals ("AWS"), in
// mixed case ("GitHub") or of letters and digits ("1Password"). A
// sentence's first word and bare figures are not names.
func questionNames(question string) []string {
	var out []string
	for _, loc := range nameRE.FindAllStringIndex(question, -1) {
		w := nameOfCompound(question[loc[0]:loc[1]])
		if commonCapitals[w] {
			continue
		}
		rs := []rune(w)
		letters, digits, upper, innerUpper := 0, 0, 0, false
		for i, r := range rs {
			switch {
			case unicode.IsDigit(r):
				digits++
			case unicode.IsLetter(r):
				letters++
				if unicode.IsUpper(r) {
					upper++
					innerUpper = innerUpper || i > 0 && unicode.IsLower(rs[i-1])
				}
			}
		}
		if letters == 0 || unicode.IsDigit(rs[0]) && upper == 0 {
			continue // a figure, or one with its unit ("8-year"): the question's condition, not a name
		}
		before := strings.TrimRight(question[:loc[0]], " \t\"'«(")
		initial := before == "" || strings.HasSuffix(before, ".") || strings.HasSuffix(before, "?") || strings.HasSuffix(before, "!") || strings.HasSuffix(before, ":")
		switch {
		case digits > 0, innerUpper, upper == letters && letters >= 2:
			out = append(out, w)
		case unicode.IsUpper(rs[0]) && !initial:
			out = append(out, w)
		}
	}
	return out
}

// missingName returns the first name the question uses (questionNames)
// that none of the passages an answer would be drawn from (as in
// holdsAskedKind) holds, in its text, title or headings, as written, run
// together or in an inflected form; "" when they hold every one. A
// question that names what it asks about ("a trip to Denver", "a
// 1Password licence") is not answered by passages that never name it:
// they state another case's rule.
func missingName(question string, hits []fonte.Hit, docs map[string]fonte.Document, c *Coverage) string {
	names := questionNames(question)
	if len(names) == 0 {
		return ""
	}
	var texts []string
	for i, h := range hits {
		if c != nil && (i >= len(c.Held) || c.Held[i].Share < c.MinHeld) {
			continue
		}
		texts = append(texts, strings.ToLower(chunk.Enriched(h.Chunk)+"\n"+docs[h.Chunk.DocID].Title))
	}
	// "PeopleOps" is held by "People Ops", "e-mail" by "email".
	compact := strings.NewReplacer(" ", "", "-", "", "\u00a0", "")
	for _, n := range names {
		low := strings.ToLower(strings.TrimSuffix(n, acronymPlural(n)))
		keys := ContentKeys(low)
		found := false
		for _, t := range texts {
			if strings.Contains(t, low) || strings.Contains(compact.Replace(t), compact.Replace(low)) || len(keys) > 0 && subsetOf(keys, ContentKeys(t)) || spelledOut(n, t) {
				found = true
				break
			}
		}
		if !found {
			return n
		}
	}
	return ""
}

// KindWords returns the words of question that ask for a kind of figure
// ("how quickly", "quanto tempo", "what is the maximum"), with the noun
// naming the measure and a hedge before them ("roughly what share",
// "the minimum length", measureAskRE and hedgeAskRE), each once and
// in the question's order, when its kind is checked (checksKind); nil
// otherwise. A passage answers such words with a figure of the kind
// rather than by repeating them, so the coverage of the question's words
// leaves them out and the kind check stands in for them. A unit of time
// the question counts in ("how many weeks") is not among them: the
// passage that answers says it too.
func KindWords(question string) []string {
	if !checksKind(question) {
		return nil
	}
	q := askedPart(question)
	asking := map[int]bool{} // the byte offsets of the asking words
	for _, re := range []*regexp.Regexp{askingRE, frequencyAskRE, durationAskRE, distanceAskRE, ageAskRE, countAskRE, clockAskRE, dayAskRE, measureAskRE, hedgeAskRE} {
		// Matches may overlap ("dopo quanto", "quanto tempo"): each
		// search starts at the word after the previous match's start.
		for at := 0; at < len(q); at = nextWord(q, at) {
			loc := re.FindStringIndex(q[at:])
			if loc == nil {
				break
			}
			at += loc[0]
			for w := at; w < at+loc[1]-loc[0]; w = nextWord(q, w) {
				asking[w] = true
			}
		}
	}
	var out []string
	for w := 0; w < len(q); w = nextWord(q, w) {
		word := q[w:nextWordEnd(q, w)]
		if asking[w] && timeUnits[word] == "" {
			out = append(out, word)
		}
	}
	return out
}

// measureAskRE finds the noun that names the measure a question asks
// for, with the words that ask it ("what share", "what is the minimum
// length", "che percentuale"): the passage that answers states the
// figure ("14 characters", "30%"), it need not name the measure.
var measureAskRE = regexp.MustCompile(`\b(?:what|which|che|quale)(?:(?:'s| is| are) the (?:minimum|maximum|total|average))? (?:share|percentage|proportion|fraction|length|size|amount|percentuale|quota|proporzione|lunghezza|dimensione|importo)\b`)

// hedgeAskRE finds a hedge before the words that ask for a figure
// ("roughly how many", "circa quanti"): it asks for the figure too, and
// the passage that answers states it, hedged or not.
var hedgeAskRE = regexp.MustCompile(`\b(?:roughly|approximately|circa|approssimativamente) (?:how|what|which|quant[oaie]|che|quale)\b`)

// checksKind reports whether holdsAskedKind checks question's kind: a
// question of quantity, or one of time that asks for a particular
// measure (a time of day, a day).
func checksKind(question string) bool {
	qt := QuestionType(question)
	return qt == QuantityAnswer || qt == TimeAnswer && askedMeasure(question, qt) != anyMeasure
}

// nextWord returns the start of the word after the one at byte at of s,
// len(s) when there is none.
func nextWord(s string, at int) int {
	i := at
	for i < len(s) && !isSpace(s[i]) {
		i++
	}
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}

// nextWordEnd returns the end of the word at byte at of s.
func nextWordEnd(s string, at int) int {
	i := at
	for i < len(s) && !isSpace(s[i]) {
		i++
	}
	return i
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' }

// acronymRE: an acronym, in capitals, with an English plural's "s"
// ("SLIs", "APIs").
var acronymRE = regexp.MustCompile(`^\p{Lu}{2,}(s?)$`)

// acronymPlural returns the plural "s" of an acronym ("SLIs"), which the
// passages may not write ("an SLI"); "" for other names.
func acronymPlural(name string) string {
	if m := acronymRE.FindStringSubmatch(name); m != nil {
		return m[1]
	}
	return ""
}

// spelledOut reports whether the lower-cased text writes the acronym
// name out: words whose initials spell it, in order ("CDN" in "content
// delivery network", "PSN" in "poli strategici nazionali"). Function
// words between them are skipped ("Data Protection Officer", "Cloud
// della PA").
func spelledOut(name, text string) bool {
	if acronymRE.FindStringSubmatch(name) == nil {
		return false
	}
	letters := []rune(strings.ToLower(strings.TrimSuffix(name, acronymPlural(name))))
	if len(letters) < 2 || len(letters) > 6 {
		return false
	}
	words := strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for i := range words {
		k, j := 0, i
		for j < len(words) && k < len(letters) {
			w := []rune(words[j])
			switch {
			case w[0] == letters[k]:
				k++
			case k > 0 && connectives[words[j]]:
			default:
				j = len(words) // the run breaks
				continue
			}
			j++
		}
		if k == len(letters) {
			return true
		}
	}
	return false
}

// connectives are the function words an acronym skips when spelled out.
var connectives = map[string]bool{"of": true, "and": true, "for": true, "the": true, "to": true, "di": true, "del": true, "della": true, "dei": true, "delle": true, "per": true, "e": true, "il": true, "la": true, "al": true, "alla": true}
