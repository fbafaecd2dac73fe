package judge

import (
	"strings"
	"unicode"
)

// A name of several words is often written by its initials ("WAI" for
// Web Analytics Italia, "CC" for Creative Commons) and an acronym by its
// words ("Poli Strategici Nazionali" for PSN, "long-term support" for
// LTS, "total cost of ownership" for TCO); a site's address spells the
// name it hosts ("developers.italia.it"). Each is the same name.

// nameRuns returns the runs of two or more capitalised words of text, as
// written: "Web Analytics Italia", "Creative Commons". Punctuation after
// a word ends its run, and a function word ("On", "La") is none of it.
func nameRuns(text string) [][]string { return capitalisedRuns(text, false) }

// capitalisedRuns is nameRuns, with words holding dots ("GOV.UK") among
// the run's words when dotted is set.
func capitalisedRuns(text string, dotted bool) [][]string {
	var runs [][]string
	var run []string
	flush := func() {
		if len(run) >= 2 {
			runs = append(runs, run)
		}
		run = nil
	}
	for _, f := range strings.Fields(text) {
		w := trimWord(f)
		r := []rune(w)
		if w == "" || strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !(dotted && r == '.') }) >= 0 || !unicode.IsUpper(r[0]) || stopwords[fold(w)] || personTitles[fold(w)] || strings.ContainsAny(f[:1], "(\"«“'") {
			flush()
			continue
		}
		run = append(run, w)
		if w != f {
			flush()
		}
	}
	flush()
	return runs
}

// runsOf returns the runs of text that hold name.
func runsOf(text, name string) [][]string {
	var out [][]string
	for _, run := range nameRuns(text) {
		for _, w := range run {
			if fold(w) == fold(name) {
				out = append(out, run)
				break
			}
		}
	}
	return out
}

// initials are a run's first letters in capitals.
func initials(run []string) string {
	var b strings.Builder
	for _, w := range run {
		b.WriteRune(unicode.ToUpper([]rune(w)[0]))
	}
	return b.String()
}

// nameAbbreviated reports whether answer states name (a word of
// reference) otherwise than by the word itself: by the initials of its
// run of capitalised words, by the words of an acronym, or by an address
// that spells its run.
func nameAbbreviated(name, reference, answer string, codes []fact) bool {
	words := map[string]bool{}
	for _, w := range letterWords(answer) {
		words[w] = true
	}
	if spannedAcronymStated(name, reference, answer) {
		return true
	}
	for _, run := range runsOf(reference, name) {
		if words[initials(run)] {
			return true
		}
		if spellsRun(codes, run) {
			return true
		}
	}
	if allCaps(name) && len([]rune(name)) >= 3 {
		want := strings.ToUpper(fold(name))
		for _, a := range expansionsOf(answer) {
			if a == want {
				return true
			}
		}
	}
	return false
}

// spellsRun reports whether one of codes (an address, a handle) holds a
// run's words joined: "developers.italia.it" spells Developers Italia.
func spellsRun(codes []fact, run []string) bool {
	joined := fold(strings.Join(run, ""))
	for _, c := range codes {
		if c.kind == codeFact && strings.Contains(lettersOnly(fold(c.text)), joined) {
			return true
		}
	}
	return false
}

// spellsReferenceName reports whether code g spells a run of capitalised
// words of the reference: the name's address, not another name.
func spellsReferenceName(g fact, reference string) bool {
	for _, run := range nameRuns(reference) {
		if spellsRun([]fact{g}, run) {
			return true
		}
	}
	return false
}

// lettersOnly drops everything of s that is not a letter.
func lettersOnly(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) {
			return r
		}
		return -1
	}, s)
}

// expansionsOf returns the initials of each run of two to six content
// words of text, function words inside a run skipped ("total cost of
// ownership" gives TCO) as well as kept, in capitals.
func expansionsOf(text string) []string {
	out := acronymsOf(text)
	var run []rune
	skipped := 0 // function words in a row inside the run
	flush := func() {
		for n := 2; n <= 6; n++ {
			for i := 0; i+n <= len(run); i++ {
				out = append(out, string(run[i:i+n]))
			}
		}
		run, skipped = run[:0], 0
	}
	for _, w := range letterWords(text) {
		f := fold(w)
		switch {
		case stopwords[f] && len(run) > 0 && skipped < 2:
			skipped++
		case len([]rune(f)) < 3 || stopwords[f]:
			flush()
		default:
			run, skipped = append(run, unicode.ToUpper([]rune(f)[0])), 0
		}
	}
	flush()
	return out
}

// digitInitials are the initials of the number words a digit of an
// acronym stands for: "2FA" is two-factor authentication.
var digitInitials = map[rune]string{'1': "OU", '2': "TD", '3': "T", '4': "FQ", '5': "FC", '6': "SS", '7': "S", '8': "EO", '9': "N"}

// abbreviatesWords reports whether acronym (letters, perhaps with a
// digit: "2FA", "MFA") is the initials of consecutive words of text,
// hyphenated words counted word by word: the reference's own words,
// shortened.
func abbreviatesWords(acronym, text string) bool {
	a := []rune(strings.ToUpper(acronym))
	if len(a) < 2 || len(a) > 6 {
		return false
	}
	ws := strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) })
	for start := 0; start+len(a) <= len(ws); start++ {
		ok := true
		for i, c := range a {
			first := unicode.ToUpper([]rune(ws[start+i])[0])
			if unicode.IsDigit(c) {
				ok = ok && strings.ContainsRune(digitInitials[c], first)
			} else {
				ok = ok && (unicode.IsLetter(c) && c == first)
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// strayNameWord reports whether the answer holds a word of a name of
// several words ("User" of "GDS User Support") only as a common word,
// in lower case and apart from the name's other words ("service users
// … the level of support"): a passage on another subject that uses the
// word does not name the name.
func strayNameWord(name, reference, answer string) bool {
	runs := runsOf(reference, name)
	if len(runs) == 0 {
		return false
	}
	words := strings.Fields(withoutCitations(answer))
	key := stem(fold(name))
	for i, f := range words {
		w := trimWord(f)
		if w == "" || stem(fold(dropElision(w))) != key {
			continue
		}
		if unicode.IsUpper([]rune(w)[0]) {
			return false
		}
		for _, run := range runs {
			for _, other := range run {
				o := stem(fold(other))
				if o == key {
					continue
				}
				if i > 0 && stem(fold(trimWord(words[i-1]))) == o || i+1 < len(words) && stem(fold(trimWord(words[i+1]))) == o {
					return false
				}
			}
		}
	}
	return true
}

// surnameStated reports whether an answer names the person whose first
// name is name by a title and the surname that ends its run in the
// reference ("Ms Rossi", "la dottoressa Rossi" for Maria Rossi).
func surnameStated(name, reference, answer string) bool {
	words := strings.Fields(answer)
	for _, run := range runsOf(reference, name) {
		if len(run) != 2 || fold(run[0]) != fold(name) {
			continue
		}
		for i := 1; i < len(words); i++ {
			if fold(trimWord(words[i])) == fold(run[1]) && personTitles[strings.TrimSuffix(fold(trimWord(words[i-1])), ".")] {
				return true
			}
		}
	}
	return false
}
