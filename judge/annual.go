package judge

// "Annual" and "annuale" name things more often than a frequency
// ("annual leave", "ferie annuali"), so the table of frequencies leaves
// them out. Beside another frequency, joined by "or", "and", "o", "e"
// ("quarterly or annual", "mensile o annuale"), the word is one of a
// list of frequencies and means yearly.

// annualWords are the adjectives of a year.
var annualWords = setOf("annual annuale annuali")

// frequencyJoiners join two frequencies of a list.
var frequencyJoiners = setOf("or and o e oppure")

// annualBesideFrequency reads word i as the yearly frequency when it is
// an adjective of a year joined to a frequency of the table right
// before or right after it, in the same sentence.
func annualBesideFrequency(toks []token, lower []string, i int) (figure, bool) {
	if !annualWords[lower[i]] {
		return figure{}, false
	}
	isFrequency := func(j int) bool {
		_, ok := frequencies[lower[j]]
		return ok
	}
	before := i >= 2 && !toks[i].sentStart && !toks[i-1].sentStart && frequencyJoiners[lower[i-1]] && isFrequency(i-2)
	after := i+2 < len(lower) && !toks[i+1].sentStart && !toks[i+2].sentStart && frequencyJoiners[lower[i+1]] && isFrequency(i+2)
	if !before && !after {
		return figure{}, false
	}
	return figure{value: 1, unit: frequencies["yearly"], clock: -1}, true
}
