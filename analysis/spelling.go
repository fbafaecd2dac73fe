package analysis

import "strings"

// AmericanSpelling is a Filter that rewrites British spellings of English
// words as American ones, so that "tumour" meets "tumor", "haemoglobin"
// "hemoglobin" and "randomised" "randomized": English documents and
// questions come in both orthographies, and the Snowball stemmer leaves
// these pairs apart. Put it after the stop filter and before the stemmer
// (English does). Each part of a compound token ("anti-tumour",
// "gastro-oesophageal") is rewritten on its own. Tokens must be lower
// case.
//
// The rules are the regular correspondences, with lists where a rule
// alone would be wrong:
//
//   - -our → -or for the listed words and their derivatives (colour,
//     behaviour, tumour, favour, labour, neighbour…), never four, hour,
//     tour or your;
//   - the Greek and Latin digraphs of medicine: haem → hem and -aemi- →
//     -emi- anywhere (anaemia, glycaemic, leukaemia), paed, aetiol,
//     anaesth, oedem, faec, rrhoea and mediaev anywhere, and oestr, oesoph,
//     foet, gynaec, coeliac, caesar and palaeo at the start of a word only
//     (American "gastroesophageal" and "phytoestrogen" contain the British
//     forms);
//   - -ise, -ised, -ises, -ising, -isation(s), -iser(s) → -ize… on stems of
//     three letters or more, except the verbs that are -ise in American
//     English too (advise, exercise, promise, surprise, compromise,
//     supervise, otherwise…); -lyse, -lysed, -lysing, -lyser → -lyze…
//     (analyse, catalyse, hydrolyse), but not "lyse" itself, the same in
//     both, nor "-lyses", the plural of -lysis;
//   - -re → -er (-res, -red, -ring) for centre, metre, litre, fibre,
//     theatre, titre and the other listed stems, with their compounds
//     (kilometre, epicentre);
//   - single words: practise → practice, licence/defence/offence/pretence
//     → -ense, catalogue/analogue/homologue → -log, programme(s) →
//     program(s), sulph- → sulf-, grey → gray, mould → mold, -dgement →
//     -dgment, aluminium → aluminum, artefact → artifact, sceptic →
//     skeptic, enquir- → inquir-, jewellery → jewelry, plough → plow.
//
// Doubled consonants (travelled, modelling), -ement (enrolment) and
// ageing need no rule: the stemmer already joins them. A false positive
// is harmless as long as it joins no two different words, because queries
// and documents go through the same rules.
type AmericanSpelling struct{}

// Filter rewrites the tokens in place. Results are memoised in a
// process-wide cache bounded like the stemmers' (a word's spelling never
// changes, and a few thousand words make most of any text).
func (AmericanSpelling) Filter(tokens []string) []string {
	for i, t := range tokens {
		if v, ok := americanCache.m.Load(t); ok {
			tokens[i] = v.(string)
			continue
		}
		a := American(t)
		if americanCache.n.Load() < maxCached {
			// Clone: t may be a substring of a whole document.
			if _, loaded := americanCache.m.LoadOrStore(strings.Clone(t), strings.Clone(a)); !loaded {
				americanCache.n.Add(1)
			}
		}
		tokens[i] = a
	}
	return tokens
}

var americanCache stemCache

// American returns the American spelling of one lower-case token (see
// AmericanSpelling).
func American(token string) string {
	if !strings.ContainsAny(token, "-./") {
		return americanWord(token)
	}
	var b strings.Builder
	changed, start := false, 0
	for i := 0; i <= len(token); i++ {
		if i < len(token) && !isJoiner(token[i]) {
			continue
		}
		part := token[start:i]
		a := americanWord(part)
		changed = changed || a != part
		b.WriteString(a)
		if i < len(token) {
			b.WriteByte(token[i])
		}
		start = i + 1
	}
	if !changed {
		return token
	}
	return b.String()
}

// ourWords take -or in American English, with their derivatives.
var ourWords = strings.Fields(`ardour armour behaviour candour clamour colour demeanour endeavour
favour fervour flavour harbour honour humour labour neighbour odour parlour rancour rigour
rumour saviour savour splendour tumour valour vapour vigour`)

// prefixes are rewritten at the start of a word.
var prefixes = func() [][2]string {
	p := [][2]string{
		{"oestr", "estr"}, {"oesoph", "esoph"}, {"foet", "fet"}, {"gynaec", "gynec"},
		{"coeliac", "celiac"}, {"caesar", "cesar"}, {"palaeo", "paleo"},
		{"licenc", "licens"}, {"defenc", "defens"}, {"offenc", "offens"}, {"pretenc", "pretens"},
		{"grey", "gray"}, {"mould", "mold"}, {"aluminium", "aluminum"}, {"artefact", "artifact"},
		{"sceptic", "skeptic"}, {"enquir", "inquir"}, {"jewellery", "jewelry"}, {"plough", "plow"},
		{"practis", "practic"},
	}
	for _, w := range ourWords {
		p = append(p, [2]string{w, strings.TrimSuffix(w, "our") + "or"})
	}
	return p
}()

// infixes are rewritten wherever they occur, in order.
var infixes = [][2]string{
	{"haem", "hem"}, {"aemi", "emi"}, {"paed", "ped"}, {"aetiol", "etiol"}, {"anaesth", "anesth"},
	{"oedem", "edem"}, {"faec", "fec"}, {"rrhoea", "rrhea"}, {"mediaev", "mediev"},
	{"sulph", "sulf"}, {"dgement", "dgment"},
}

// exact words and their American forms.
var exactWords = map[string]string{
	"programme": "program", "programmes": "programs",
	"catalogue": "catalog", "catalogues": "catalogs", "catalogued": "cataloged", "cataloguing": "cataloging",
	"analogue": "analog", "analogues": "analogs", "homologue": "homolog", "homologues": "homologs",
	"orthologue": "ortholog", "orthologues": "orthologs", "paralogue": "paralog", "paralogues": "paralogs",
}

// reStems end the words whose British -re (-res, -red, -ring) is American
// -er (-ers, -ered, -ering), also at the end of a compound word.
var reStems = strings.Fields(`cent met lit fib theat calib sab somb spect lust meag tit mit scept`)

// iseExact are the -is- stems that keep -ise in American English (the
// word minus its -e, -ed, -es, -ing, -er); iseSuffix are those that do
// also at the end of a longer stem ("unsupervised", "stepwise").
var (
	iseExact = NewWordSet(strings.Fields(`abscis advis anis apprais brais bruis ceris chemis
cruis demis devis excis incis liais mortis nois pois prais rais repris revis upris valis
vis wis`)...)
	iseSuffix = strings.Fields(`advertis apprais chastis circumcis compromis concis despis disguis
enterpris exercis expertis franchis improvis malais merchandis paradis porpois precis premis
pris promis rais supervis surmis tortois treatis turquois vis wis`)
)

var (
	iseEndings  = []string{"isations", "isation", "isers", "iser", "ising", "ised", "ises", "ise"}
	lyseEndings = []string{"lysing", "lysers", "lyser", "lysed", "lyse"}
	reEndings   = [][2]string{{"ring", "ering"}, {"res", "ers"}, {"red", "ered"}, {"re", "er"}}
)

func americanWord(w string) string {
	if len(w) < 4 {
		return w
	}
	if a, ok := exactWords[w]; ok {
		return a
	}
	for _, p := range prefixes {
		if strings.HasPrefix(w, p[0]) {
			w = p[1] + w[len(p[0]):]
			break
		}
	}
	for _, p := range infixes {
		if strings.Contains(w, p[0]) {
			w = strings.ReplaceAll(w, p[0], p[1])
		}
	}
	if a, ok := americanIse(w); ok {
		return a
	}
	return americanRe(w)
}

// americanIse rewrites the -ise and -lyse families.
func americanIse(w string) (string, bool) {
	for _, end := range lyseEndings {
		if strings.HasSuffix(w, end) {
			if len(w)-len(end) < 3 {
				return w, false
			}
			return w[:len(w)-len(end)] + "lyz" + end[3:], true
		}
	}
	for _, end := range iseEndings {
		if !strings.HasSuffix(w, end) {
			continue
		}
		stem := w[:len(w)-len(end)]
		if len(stem) < 3 || iseExact.Has(stem+"is") {
			return w, false
		}
		for _, s := range iseSuffix {
			if strings.HasSuffix(stem+"is", s) {
				return w, false
			}
		}
		return stem + "iz" + end[2:], true
	}
	return w, false
}

// americanRe rewrites the -re family of reStems.
func americanRe(w string) string {
	for _, end := range reEndings {
		if !strings.HasSuffix(w, end[0]) {
			continue
		}
		stem := w[:len(w)-len(end[0])]
		for _, s := range reStems {
			if strings.HasSuffix(stem, s) {
				return stem + end[1]
			}
		}
		return w
	}
	return w
}
