package judge

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// stopwords are the English and Italian function words that carry no fact
// of their own: articles, prepositions, pronouns, auxiliaries and the
// commonest adverbs.
var stopwords = setOf(`a an the and or of to in on at for by with from as is are was were be been being it its
this that these those you your yours we our us they their them he she his her i me my can could may might
must shall should will would do does did done have has had not no yes if then than but so up out per each
every any all some there here what which who whom whose when where why how about into over under after
before between also only just more most less such own same other both either neither nor too very get gets
got please use used using one ones many much need needs needed even
il lo la gli le un uno una di da con su tra fra del dello della dei degli delle al allo alla ai agli alle
dal dallo dalla dai dagli dalle nel nello nella nei negli nelle sul sullo sulla sui sugli sulle e ed o od ma
che chi cui non sì si se come dove quando quanto quanta quanti quante quale quali è sono era erano essere
stato stata ha hanno ho hai abbiamo avete può possono puoi posso deve devono devi devo questo questa questi
queste quello quella quelli quelle suo sua suoi sue loro mio mia miei mie tuo tua tuoi tue ci vi ne mi ti
anche solo più meno molto ogni tutto tutta tutti tutte altro altra altri altre fare viene vengono va vanno
perché però quindi oppure ovvero cioè già ancora sempre`)

// italianMarkers are Italian function words that English text does not
// use; englishMarkers the converse. They tell a text's language apart
// where a word means different things in the two ("due", "sei").
var (
	italianMarkers = setOf(`il lo la gli le di da con su tra del della dei degli delle al alla ai nel nella nei sul
sulla che chi è sono non può deve questo questa per una uno anche più ogni entro dopo prima ore giorni`)
	englishMarkers = setOf(`the of and to is are you your for with be can must this that these by from at within
after before hours days it not`)
)

func setOf(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// looksItalian reports whether lowercase words are more Italian than
// English by their function words.
func looksItalian(words []string) bool {
	it, en := 0, 0
	for _, w := range words {
		if italianMarkers[w] {
			it++
		}
		if englishMarkers[w] {
			en++
		}
	}
	return it > en
}

// fold lowercases s and removes its accents, so that "è" and "e", "Città"
// and "citta" compare equal.
func fold(s string) string { return accents.Replace(strings.ToLower(s)) }

// accents maps the accented vowels of Italian (and the few English
// borrows) to their bare letters.
var accents = strings.NewReplacer("à", "a", "á", "a", "è", "e", "é", "e", "ì", "i", "í", "i",
	"ò", "o", "ó", "o", "ù", "u", "ú", "u", "ï", "i", "ç", "c", "ñ", "n")

// stem reduces a folded word to a crude common root of its English and
// Italian forms: the plural "s" and a final vowel go, and the rest is cut
// to six letters, so "characters" and "character", "giorni" and "giorno",
// "charging" and "charge" meet. Truncation is coarse but language-neutral,
// which is what a judge of two languages needs.
func stem(w string) string {
	s := rawStem(w)
	if head, ok := synonymOf[s]; ok {
		return head
	}
	return s
}

// rawStem is stem without synonyms.
func rawStem(w string) string {
	n := utf8.RuneCountInString(w)
	switch {
	case n > 4 && strings.HasSuffix(w, "ies"):
		w = strings.TrimSuffix(w, "ies") + "y"
	case n > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = strings.TrimSuffix(w, "s")
	}
	w = inflection(w)
	if utf8.RuneCountInString(w) > 3 && strings.ContainsAny(w[len(w)-1:], "aeio") {
		w = w[:len(w)-1]
	}
	if r := []rune(w); len(r) > 6 {
		w = string(r[:6])
	}
	return w
}

// italianElisions are the Italian articles and prepositions that elide
// into the next word ("l'ufficio", "dell'azienda").
var italianElisions = setOf(`l dell all dall nell sull un d quest quell c s m t v n po nessun buon`)

// dropElision returns a word without its Italian elided article, and
// without the English possessive ("alert's" is "alert").
func dropElision(w string) string {
	w = strings.ReplaceAll(w, "’", "'")
	if len(w) > 3 && (strings.HasSuffix(w, "'s") || strings.HasSuffix(w, "'S")) {
		w = w[:len(w)-2]
	}
	if i := strings.IndexByte(w, '\''); i > 0 && i < len(w)-1 && italianElisions[strings.ToLower(w[:i])] {
		return w[i+1:]
	}
	return w
}

// contentStems returns the stems of the content words of text: words of
// three letters or more that are not stopwords, without repeats, in order.
func contentStems(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range letterWords(text) {
		f := fold(dropElision(w))
		if utf8.RuneCountInString(f) < 3 || stopwords[f] || stopwords[strings.ToLower(w)] {
			continue
		}
		s := stem(f)
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// letterWords splits text into runs of letters and apostrophes.
func letterWords(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && r != '\'' && r != '’'
	})
}

// sharedPrefix is how many leading letters two stems of five or more
// must share to be one word's forms: a derived noun and its participle
// ("apertura", "aperto"), which stem's six-letter cut keeps apart.
const sharedPrefix = 5

// hasStem reports whether set holds stem s or another form of its word:
// a stem of sharedPrefix letters or more that begins as s does.
func hasStem(set map[string]bool, s string) bool {
	if set[s] {
		return true
	}
	r := []rune(s)
	if len(r) < sharedPrefix {
		return false
	}
	prefix := string(r[:sharedPrefix])
	for k := range set {
		if utf8.RuneCountInString(k) >= sharedPrefix && strings.HasPrefix(k, prefix) {
			return true
		}
	}
	return false
}
