package answer

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fonte-rag/fonte"
)

// Supported reports whether every content key of answer occurs among the
// keys of the chunks' text: seed 002's word-containment check, a crude but
// mechanical test of whether the retrieved text could have produced the
// answer. Numeric citation markers such as [2] or [1, 3] are ignored. An
// answer can be right and unsupported (seed 002's phone number); that is
// still a defect, because the same code will invent the next one.
func (k Keys) Supported(answer string, chunks []fonte.Chunk) bool {
	return len(k.missing(answer, k.context(chunks))) == 0
}

// Unsupported returns the sentences of answer (split by Sentences) that
// have at least one content key absent from the chunks' text, in order: the
// claims the product should flag. It returns nil when every sentence is
// supported.
func (k Keys) Unsupported(answer string, chunks []fonte.Chunk) []string {
	ctx := k.context(chunks)
	var out []string
	for _, s := range Sentences(answer) {
		if len(k.missing(s, ctx)) > 0 {
			out = append(out, s)
		}
	}
	return out
}

func (k Keys) context(chunks []fonte.Chunk) map[string]bool {
	ctx := make(map[string]bool)
	for _, c := range chunks {
		for key := range k.Of(c.Text) {
			ctx[key] = true
		}
	}
	return ctx
}

// missing returns the keys of text, citation markers removed, absent from
// ctx.
func (k Keys) missing(text string, ctx map[string]bool) []string {
	var out []string
	for key := range k.Of(stripCitations(text)) {
		if !ctx[key] {
			out = append(out, key)
		}
	}
	return out
}

// Sentences splits an answer into sentences for per-claim checks: a
// sentence ends at ".", "!" or "?" followed by white space or the end of the
// text (so "5.5" and "v1.2" stay whole), keeping any citation markers right
// after the stop ("… 5 days. [1]"), and at every line break. Pieces are
// trimmed and empty ones dropped.
func Sentences(text string) []string { return pieces(text, sentenceSpans(text)) }

// pieces returns the pieces of text at spans.
func pieces(text string, spans [][2]int) []string {
	var out []string
	for _, sp := range spans {
		out = append(out, text[sp[0]:sp[1]])
	}
	return out
}

// sentenceSpans returns the byte spans of Sentences' pieces in text,
// trimmed of white space, empty ones left out.
func sentenceSpans(text string) [][2]int {
	var out [][2]int
	add := func(start, end int) {
		// Trimmed as strings.TrimSpace would, rune by rune.
		for start < end {
			r, n := utf8.DecodeRuneInString(text[start:end])
			if !unicode.IsSpace(r) {
				break
			}
			start += n
		}
		for end > start {
			r, n := utf8.DecodeLastRuneInString(text[start:end])
			if !unicode.IsSpace(r) {
				break
			}
			end -= n
		}
		if start < end {
			out = append(out, [2]int{start, end})
		}
	}
	start := 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\n':
			add(start, i)
			start = i + 1
		case '.', '!', '?':
			end := i + 1
			for {
				j := end
				for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
					j++
				}
				if _, n := citationAt(text[j:]); n > 0 {
					end = j + n
					continue
				}
				break
			}
			if end == len(text) || unicode.IsSpace(rune(text[end])) {
				add(start, end)
				start, i = end, end-1
			}
		}
	}
	add(start, len(text))
	return out
}

// Citations returns the source numbers cited in answer as [n] or [n, m],
// in order of first appearance, each once.
func Citations(answer string) []int {
	var out []int
	for i := 0; i < len(answer); i++ {
		if nums, n := citationAt(answer[i:]); n > 0 {
			for _, x := range nums {
				if !slices.Contains(out, x) {
					out = append(out, x)
				}
			}
			i += n - 1
		}
	}
	return out
}

// BadCitations returns, in increasing order, the cited numbers that name no
// source: below 1 or above sources. A model that cites [4] of three sources
// invented a reference.
func BadCitations(answer string, sources int) []int {
	var bad []int
	for _, n := range Citations(answer) {
		if n < 1 || n > sources {
			bad = append(bad, n)
		}
	}
	slices.Sort(bad)
	return bad
}

// citationAt parses a citation marker at the start of s: "[", one or more
// numbers separated by commas and spaces, "]". It returns the numbers and
// the marker's length, or 0 when s does not start with one.
func citationAt(s string) ([]int, int) {
	if s == "" || s[0] != '[' {
		return nil, 0
	}
	end := strings.IndexByte(s[:min(len(s), 64)], ']') // markers are short; bound the scan
	if end < 2 {
		return nil, 0
	}
	var nums []int
	for _, f := range strings.Split(s[1:end], ",") {
		f = strings.TrimSpace(f)
		n, err := strconv.Atoi(f)
		if err != nil || f == "" || f[0] == '+' || f[0] == '-' {
			return nil, 0
		}
		nums = append(nums, n)
	}
	return nums, end + 1
}

// stripCitations removes citation markers from text.
func stripCitations(text string) string {
	if !strings.Contains(text, "[") {
		return text
	}
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		if _, n := citationAt(text[i:]); n > 0 {
			b.WriteByte(' ')
			i += n - 1
			continue
		}
		b.WriteByte(text[i])
	}
	return b.String()
}

// numeralRe matches a written figure: digits, with "." or "," between
// digit groups ("1,000.50", "1.000,50", "5.6").
var numeralRe = regexp.MustCompile(`\d+(?:[.,]\d+)*`)

// Group-separated forms: English thousands with "," and Italian with ".".
var (
	groupedEN = regexp.MustCompile(`^\d{1,3}(?:,\d{3})+(?:\.\d+)?$`)
	groupedIT = regexp.MustCompile(`^\d{1,3}(?:\.\d{3})+(?:,\d+)?$`)
	decimalEN = regexp.MustCompile(`^\d+(?:\.\d+)?$`)
	decimalIT = regexp.MustCompile(`^\d+(?:,\d+)?$`)
)

// figureReadings returns the values a written figure can stand for, as
// canonical decimal strings: the figure as written (a version "1.3.1"),
// and its value read in English ("1,000.5") and in Italian ("1.000,5")
// format, when it is well formed in them. "1,000" reads as a thousand in
// English and "1,000" (one) in Italian, so either reading matches.
func figureReadings(f string) []string {
	out := []string{f}
	read := func(digits string) {
		v, err := strconv.ParseFloat(digits, 64)
		if err == nil {
			out = append(out, strconv.FormatFloat(v, 'f', -1, 64))
		}
	}
	if decimalEN.MatchString(f) || groupedEN.MatchString(f) {
		read(strings.ReplaceAll(f, ",", ""))
	}
	if decimalIT.MatchString(f) || groupedIT.MatchString(f) {
		read(strings.ReplaceAll(strings.ReplaceAll(f, ".", ""), ",", "."))
	}
	return out
}

// spelledFigures are the English and Italian words for figures that a
// source may write out ("two weeks", "dieci giorni"); "one", "uno" and
// "un" are left out, being also pronouns and articles.
var spelledFigures = map[string]string{
	"two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9", "ten": "10",
	"eleven": "11", "twelve": "12", "fifteen": "15", "twenty": "20", "thirty": "30", "forty": "40", "fifty": "50",
	"hundred": "100", "thousand": "1000", "dozen": "12",
	"due": "2", "tre": "3", "quattro": "4", "cinque": "5", "sei": "6", "sette": "7", "otto": "8", "nove": "9", "dieci": "10",
	"undici": "11", "dodici": "12", "quindici": "15", "venti": "20", "trenta": "30", "quaranta": "40", "cinquanta": "50",
	"cento": "100", "mille": "1000", "dozzina": "12",
}

// sourceNumberWords are words that stand for a figure in a source but
// are not taken as figures in an answer: months ("31 March" holds the 3
// of "31/03") and ordinals ("the third floor" holds "3rd floor"). Words
// that are mostly something else are left out: "may", "second", Italian
// "prima" (before) and "secondo" (according to).
var sourceNumberWords = map[string]string{
	"january": "1", "february": "2", "march": "3", "april": "4", "june": "6", "july": "7",
	"august": "8", "september": "9", "october": "10", "november": "11", "december": "12",
	"gennaio": "1", "febbraio": "2", "marzo": "3", "aprile": "4", "maggio": "5", "giugno": "6", "luglio": "7",
	"agosto": "8", "settembre": "9", "ottobre": "10", "novembre": "11", "dicembre": "12",
	"first": "1", "third": "3", "fourth": "4", "fifth": "5", "sixth": "6", "seventh": "7", "eighth": "8", "ninth": "9", "tenth": "10",
	"primo": "1", "terzo": "3", "terza": "3", "quarto": "4", "quarta": "4",
	"quinto": "5", "quinta": "5", "sesto": "6", "sesta": "6", "settimo": "7", "settima": "7", "ottavo": "8", "ottava": "8",
	"nono": "9", "nona": "9", "decimo": "10", "decima": "10",
}

// ambiguousNumberWords are number words that are also common words of
// the other language or of their own ("due" in English, "sei" = "you are"
// in Italian): a source's use of them counts as the figure, an answer's
// does not make them a figure to check.
var ambiguousNumberWords = map[string]bool{"due": true, "sei": true}

// figureSet returns the readings of every figure of text: its numerals
// (figureReadings) and, when words is set, its number words, months and
// ordinals.
func figureSet(text string, words bool) map[string]bool {
	out := map[string]bool{}
	for _, f := range numeralRe.FindAllString(text, -1) {
		for _, r := range figureReadings(f) {
			out[r] = true
		}
	}
	if words {
		for _, w := range lowerWords(text) {
			if d, ok := spelledFigures[w]; ok {
				out[d] = true
			}
			if d, ok := sourceNumberWords[w]; ok {
				out[d] = true
			}
		}
	}
	return out
}

// Figures returns the figures text states, as written: its numerals and
// its unambiguous number words ("two", "dieci").
func Figures(text string) []string {
	out := numeralRe.FindAllString(text, -1)
	for _, w := range lowerWords(text) {
		if _, ok := spelledFigures[w]; ok && !ambiguousNumberWords[w] {
			out = append(out, w)
		}
	}
	return out
}

// figureHeld reports whether figure f (as Figures returns it) is among
// the readings held.
func figureHeld(f string, held map[string]bool) bool {
	if d, ok := spelledFigures[f]; ok {
		return held[d]
	}
	for _, r := range figureReadings(f) {
		if held[r] {
			return true
		}
	}
	return false
}

// lowerWords splits text into its lower-cased words of letters.
func lowerWords(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) })
}

// stemPrefix is how many leading letters two stems must share to count
// as one word: derivations of a root ("accrue"/"accrual",
// "rimborso"/"rimborsabile") keep their first five letters where the
// stemmers do not bring them together.
const stemPrefix = 5

// keyIndex holds a text's content keys for lookups that forgive
// derivation: a key is found when the text holds it or another key with
// the same first stemPrefix letters.
type keyIndex struct {
	keys     map[string]bool
	prefixes map[string]bool
}

func newKeyIndex(keys map[string]bool) keyIndex {
	ix := keyIndex{keys: keys, prefixes: map[string]bool{}}
	for k := range keys {
		if p, ok := keyPrefix(k); ok {
			ix.prefixes[p] = true
		}
	}
	return ix
}

func (ix keyIndex) has(k string) bool {
	if ix.keys[k] {
		return true
	}
	p, ok := keyPrefix(k)
	return ok && ix.prefixes[p]
}

// hasWord reports whether the index holds any of a word's keys.
func (ix keyIndex) hasWord(keys []string) bool {
	return slices.ContainsFunc(keys, ix.has)
}

// keyPrefix returns the first stemPrefix letters of a key of letters
// only; false for a shorter key or one holding other characters (codes
// and names must match whole).
func keyPrefix(k string) (string, bool) {
	n := 0
	for i, r := range k {
		if !unicode.IsLetter(r) {
			return "", false
		}
		if n == stemPrefix {
			return k[:i], true
		}
		n++
	}
	return k, n == stemPrefix
}
