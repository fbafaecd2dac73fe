package judge

import (
	"regexp"
	"slices"
	"strings"
)

// Italian acts are cited by a type that is written in full, abbreviated
// or translated: "D. Lgs.", "D.Lgs.", "d.lgs.", "decreto legislativo",
// "Legislative Decree" are one type. Left as written, the abbreviation's
// capitals read as a name ("Lgs") that the other spellings miss or
// contradict, and its full stop as a sentence's end. The judge reads
// every spelling as the type written in full.

// actTypes are the spellings of each act type, with the type in full.
var actTypes = []struct {
	re   *regexp.Regexp
	full string
}{
	{regexp.MustCompile(`(?i)\bd\.\s?lgs\.?|\bdlgs\b\.?|\bdecreto legislativo\b|\blegislative decree\b`), "decreto legislativo"},
	{regexp.MustCompile(`(?i)\bd\.\s?p\.\s?r\.?|\bdpr\b|\bdecreto del presidente della repubblica\b|\bpresidential decree\b`), "decreto del presidente della repubblica"},
	{regexp.MustCompile(`(?i)\bd\.\s?l\.\s|\bdecreto[- ]legge\b|\bdecree[- ]law\b`), "decreto legge "},
}

// withActTypesInFull writes every act type of text in full.
func withActTypesInFull(text string) string {
	for _, t := range actTypes {
		text = t.re.ReplaceAllString(text, t.full)
	}
	return text
}

// An act is named by its number and year: "50/2016", "n. 50 del
// 18/04/2016", "Legislative Decree 50 of 18 April 2016", "30 giugno
// 2003, n. 196". Another number or year in the answer's lead names
// another act, whatever its type.
var (
	actSlashRE     = regexp.MustCompile(`\b(\d{1,4})/((?:19|20)\d{2})\b`)
	actNumberRE    = regexp.MustCompile(`(?i)(?:\bn(?:r|o|um)?\.?|\bnumero|\bnumber|decreto legislativo|decreto legge|\blegge|\blaw|\bdecree)\s*(\d{1,4})\s+(?:del|dell'|of|from)\s+(?:il\s+|the\s+)?(?:\d{1,2}(?:°|st|nd|rd|th)?[\s/.-]+(?:\p{L}+|\d{1,2})[\s/.-]+)?((?:19|20)\d{2})\b`)
	actYearFirstRE = regexp.MustCompile(`(?i)\b((?:19|20)\d{2}),?\s+(?:n(?:r|o|um)?\.?|numero|number)\s*(\d{1,4})\b`)
)

// actsOf returns the acts text names by number and year, as "n/year".
func actsOf(text string) []string {
	var out []string
	for _, m := range actSlashRE.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1]+"/"+m[2])
	}
	return append(out, datedActsOf(text)...)
}

// datedActsOf returns the acts text names by a number and a date that
// gives their year ("n. 50 del 18/04/2016", "30 giugno 2003, n. 196"),
// as "n/year".
func datedActsOf(text string) []string {
	var out []string
	for _, m := range actNumberRE.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1]+"/"+m[2])
	}
	for _, m := range actYearFirstRE.FindAllStringSubmatch(text, -1) {
		out = append(out, m[2]+"/"+m[1])
	}
	return out
}

// otherAct returns the act the lead names where the reference names
// another, when the lead names none of the reference's.
func otherAct(reference, lead string) []string {
	refActs, leadActs := actsOf(reference), actsOf(lead)
	if len(refActs) == 0 || len(leadActs) == 0 {
		return nil
	}
	for _, a := range leadActs {
		if slices.Contains(refActs, a) {
			return nil
		}
	}
	return []string{"the lead names act " + leadActs[0] + ", the reference " + refActs[0]}
}

// actMarkerRE matches a number after "n.", "no.", "nr.": "n. 547".
var actMarkerRE = regexp.MustCompile(`(?i)\bn(?:r|o|um)?\.\s*(\d{1,4})\b`)

// actIssuerRE matches the capitalised words that name an act's type and
// issuer before its number: "Determinazione AGID n. 547".
var actIssuerRE = regexp.MustCompile(`((?:\p{Lu}[\p{L}.]*\s+){1,3})(?:n(?:r|o|um)?\.|numero|number)\s*(\d{1,4})\b`)

// actDetailsStated moves to found the facts of the reference that only
// describe an act the answer names by its number: the day and month of
// the date that gives its year when the answer gives its number and year
// ("d.lgs. 196/2003" for "Decreto legislativo 30 giugno 2003, n. 196"),
// and its type and
// issuer when the answer gives its number ("la determinazione n. 547"
// for "Determinazione AGID n. 547"). The number identifies the act.
func actDetailsStated(ref reference, reference, answer string, found, missing []string) ([]string, []string) {
	byNumber := map[string]bool{}
	for _, a := range actsOf(answer) {
		byNumber[strings.Split(a, "/")[0]] = true
	}
	for _, m := range actNumberRE.FindAllStringSubmatch(answer, -1) {
		byNumber[m[1]] = true
	}
	for _, m := range actMarkerRE.FindAllStringSubmatch(answer, -1) {
		byNumber[m[1]] = true
	}
	// A date that only gives the year of a number ("n. 50 del
	// 18/04/2016") is stated by the number and year; one beside a number
	// with its year ("n. 115/2019 del 9 maggio 2019") is a fact of its own.
	sameAct := false
	for _, a := range datedActsOf(reference) {
		sameAct = sameAct || slices.Contains(actsOf(answer), a)
	}
	issuers := map[string]bool{}
	for _, m := range actIssuerRE.FindAllStringSubmatch(reference, -1) {
		if byNumber[m[2]] {
			for _, w := range strings.Fields(m[1]) {
				issuers[strings.Trim(w, ".")] = true
			}
		}
	}
	var still []string
	for _, f := range ref.facts {
		s := f.String()
		if !slices.Contains(missing, s) {
			continue
		}
		if sameAct && f.kind == figureFact && f.fig.unit.isMonth() || f.kind == nameFact && issuers[f.text] {
			found = append(found, s)
			continue
		}
		still = append(still, s)
	}
	for _, s := range missing { // what is not a fact of its own ("3 opzioni" counted)
		if !slices.Contains(still, s) && !slices.Contains(found, s) {
			still = append(still, s)
		}
	}
	return found, still
}

// articleOfRE matches an article and the act it belongs to by its
// acronym: "art. 53 del CAD", "Article 6 of the GDPR".
var articleOfRE = regexp.MustCompile(`\b(?:[Aa]rt\.|[Aa]rticolo|[Aa]rticle)\s*(\d+)\s+(?:del|dell'|dell’|of the|of)\s*(\p{Lu}{2,}[\p{Lu}\d-]*)\b`)

// articleOfOtherAct returns the act the lead gives the reference's
// article to where the reference gives it to another: "l'art. 53 del
// GDPR" for "l'art. 53 del CAD" is another rule, with the same number.
func articleOfOtherAct(reference, lead string) []string {
	for _, r := range articleOfRE.FindAllStringSubmatch(reference, -1) {
		for _, l := range articleOfRE.FindAllStringSubmatch(lead, -1) {
			if l[1] == r[1] && fold(strings.Trim(l[2], ".")) != fold(strings.Trim(r[2], ".")) && !containsBounded(fold(reference), fold(strings.Trim(l[2], "."))) {
				return []string{"the lead gives article " + l[1] + " to " + strings.Trim(l[2], ".") + ", the reference to " + strings.Trim(r[2], ".")}
			}
		}
	}
	return nil
}

// otherArticleOfAct returns the article of the reference's act that the
// lead cites in place of the reference's own: "l'art. 12 del GDPR" for
// "ai sensi dell'art. 30 del GDPR" names another rule of the same act.
// The article may be an aside of the reference; a lead that contradicts
// an aside still misleads (README rule 6).
func otherArticleOfAct(reference, lead string) []string {
	cited := map[string]bool{} // act and article pairs the lead names
	for _, l := range articleOfRE.FindAllStringSubmatch(lead, -1) {
		cited[fold(strings.Trim(l[2], "."))+" "+l[1]] = true
	}
	for _, r := range articleOfRE.FindAllStringSubmatch(reference, -1) {
		act := fold(strings.Trim(r[2], "."))
		if cited[act+" "+r[1]] {
			continue
		}
		for _, l := range articleOfRE.FindAllStringSubmatch(lead, -1) {
			if fold(strings.Trim(l[2], ".")) == act {
				return []string{"the lead cites article " + l[1] + " of " + strings.Trim(l[2], ".") + ", the reference article " + r[1]}
			}
		}
	}
	return nil
}

// withReferenceActsSlashed writes after each act the answer names by a
// number and a date ("Circolare AGID 18 aprile 2017, n. 2", "n. 2 del
// 2017") the reference's "number/year" form of the same act ("2/2017"),
// so the reference's act is found stated. An act the reference does not
// write with a slash, or another act, is left as it is.
func withReferenceActsSlashed(reference, answer string) string {
	var slashed []string
	for _, m := range actSlashRE.FindAllStringSubmatch(reference, -1) {
		slashed = append(slashed, m[1]+"/"+m[2])
	}
	if len(slashed) == 0 {
		return answer
	}
	add := func(re *regexp.Regexp, act func(m []string) string) {
		answer = re.ReplaceAllStringFunc(answer, func(s string) string {
			if a := act(re.FindStringSubmatch(s)); slices.Contains(slashed, a) && !strings.Contains(answer, a) {
				return s + " (" + a + ")"
			}
			return s
		})
	}
	add(actNumberRE, func(m []string) string { return m[1] + "/" + m[2] })
	add(actYearFirstRE, func(m []string) string { return m[2] + "/" + m[1] })
	return answer
}
