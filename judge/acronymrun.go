package judge

import (
	"strings"
	"unicode"
)

// A name of several capitalised words may run across its function
// words and elided articles ("Office of Public Finance", "Testo Unico
// dell'Edilizia"), and its acronym spells its capitalised words only
// ("OPF", "TUE"). An answer that names it by that acronym names it.

// spannedRuns returns text's runs of two capitalised words or more,
// read across function words and elided articles between them; each
// run holds only its capitalised words.
func spannedRuns(text string) [][]string {
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
		bare := dropElision(w)
		r := []rune(bare)
		switch {
		case bare == "" || strings.IndexFunc(bare, func(r rune) bool { return !unicode.IsLetter(r) }) >= 0:
			flush()
			continue
		case unicode.IsUpper(r[0]) && !stopwords[fold(bare)] && !personTitles[fold(bare)] && !strings.ContainsAny(f[:1], "(\"«“"):
			run = append(run, bare)
		case stopwords[fold(w)] && len(run) > 0:
			// A function word between two capitalised words.
		default:
			flush()
		}
		if w != f {
			flush()
		}
	}
	flush()
	return runs
}

// spannedAcronymStated reports whether answer holds, as a word of its
// own, the acronym of a spanned run of reference that holds name.
func spannedAcronymStated(name, reference, answer string) bool {
	words := map[string]bool{}
	for _, w := range letterWords(answer) {
		words[w] = true
	}
	for _, run := range spannedRuns(reference) {
		for _, w := range run {
			if fold(w) == fold(dropElision(name)) && words[initials(run)] {
				return true
			}
		}
	}
	return false
}
