package analysis

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Neutral is fonte's analyzer for text in a language it has no dedicated
// analysis for, and for the languages written without spaces between
// words (Chinese, Japanese, Korean, Thai):
//
//   - NeutralFold: the width variants NFKC folds (full-width Latin letters
//     and digits become ASCII, half-width katakana full-width), then Lower
//     with the final sigma as σ and "ß" as "ss", as case folding does;
//     accents are kept, as each language's spelling needs them;
//   - ScriptTokenizer: words of any alphabet (letters, digits and the
//     combining marks inside them) as whole tokens, identifiers kept whole
//     as IdentifierTokenizer keeps them, and runs of Han, Hiragana,
//     Katakana, Hangul or Thai characters as overlapping character
//     bigrams, as Lucene's CJKAnalyzer indexes them;
//   - no stemming and no stop words: BM25's idf discounts the frequent
//     words of any language, and a list for one language would remove
//     content words of another.
//
// A query in the same language produces the same bigrams, so a Chinese
// question finds a Chinese passage through the character pairs they share
// even when no whole "word" (there are none) matches.
func Neutral() *Chain {
	return &Chain{CharFilters: []CharFilter{NeutralFold{}}, Tokenizer: ScriptTokenizer{}}
}

// NeutralFold is Neutral's CharFilter: the width and compatibility
// variants that Unicode's NFKC folds and text really carries written in
// their ordinary form (full-width ASCII "Ｄｏｃｋｅｒ１２" as "Docker12",
// the ideographic space as a space, half-width katakana "ﾃﾞｰﾀ" as "データ",
// the Latin ligatures "ﬁ" "ﬂ" spelled out), then Lower, with the final
// sigma written as σ and "ß" as "ss", as Unicode case folding does.
// Decomposed accents are not composed (NFKC would): text in that form is
// rare outside file names.
type NeutralFold struct{}

// Map folds text. ASCII text is only lower-cased.
func (NeutralFold) Map(text string) string {
	i := 0
	for i < len(text) && text[i] < utf8.RuneSelf {
		i++
	}
	if i == len(text) {
		return Lower(text)
	}
	var b strings.Builder
	b.Grow(len(text))
	b.WriteString(text[:i])
	var last rune // the last rune written, for the half-width voicing marks
	for _, r := range text[i:] {
		switch {
		case r >= 0xff01 && r <= 0xff5e:
			r -= 0xfee0
		case r == 0x3000:
			r = ' '
		case r >= 0xff61 && r <= 0xff9d:
			r = halfwidthKana[r-0xff61]
		case r == 0xff9e || r == 0x3099 || r == 0x309b: // (half-width) dakuten
			if v, ok := voiced(last, 1); ok {
				replaceLast(&b, last, v)
				last = v
				continue
			}
		case r == 0xff9f || r == 0x309a || r == 0x309c: // (half-width) handakuten
			if v, ok := voiced(last, 2); ok {
				replaceLast(&b, last, v)
				last = v
				continue
			}
		case r >= 0xfb00 && r <= 0xfb06:
			b.WriteString(ligatures[r-0xfb00])
			last = 0
			continue
		}
		b.WriteRune(r)
		last = r
	}
	text = Lower(b.String())
	if strings.ContainsAny(text, "ςß") {
		text = strings.NewReplacer("ς", "σ", "ß", "ss").Replace(text)
	}
	return text
}

// halfwidthKana maps U+FF61–U+FF9D to their full-width forms.
var halfwidthKana = []rune("。「」、・ヲァィゥェォャュョッーアイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワン")

// voiced returns the kana r with its voicing mark: step 1 for dakuten
// ("カ" → "ガ", "ウ" → "ヴ"), 2 for handakuten ("ハ" → "パ").
func voiced(r rune, step int) (rune, bool) {
	switch {
	case r == 'ウ' && step == 1:
		return 'ヴ', true
	case r == 'う' && step == 1:
		return 'ゔ', true
	case step == 1 && (strings.ContainsRune("カキクケコサシスセソタチツテトかきくけこさしすせそたちつてと", r)):
		return r + 1, true
	case strings.ContainsRune("ハヒフヘホはひふへほ", r):
		return r + rune(step), true
	}
	return 0, false
}

// replaceLast rewrites the rune last, just written to b, as r.
func replaceLast(b *strings.Builder, last, r rune) {
	s := b.String()
	s = s[:len(s)-utf8.RuneLen(last)]
	b.Reset()
	b.Grow(len(s) + 8)
	b.WriteString(s)
	b.WriteRune(r)
}

// Script classes for ScriptTokenizer.
const (
	scriptNone = iota // separator
	scriptWord        // a letter, digit or '_' of a spaced script
	scriptCJK         // Han, Hiragana, Katakana, Hangul
	scriptThai        // Thai letters and signs
	scriptMark        // a combining mark: continues whatever precedes it
)

// scriptOf classifies r.
func scriptOf(r rune) int {
	if r < utf8.RuneSelf {
		if asciiWord[r] {
			return scriptWord
		}
		return scriptNone
	}
	switch {
	case IsCJK(r):
		return scriptCJK
	case unicode.In(r, unicode.Mn, unicode.Mc, unicode.Me):
		return scriptMark // Thai vowel signs and tone marks too: they join their letter
	case r >= 0x0e01 && r <= 0x0e4e && r != 0x0e3f: // Thai letters, vowels, tone marks (not ฿)
		return scriptThai
	case unicode.IsLetter(r) || unicode.IsNumber(r):
		return scriptWord
	}
	return scriptNone
}

// IsCJK reports whether r is written in a script without spaces between
// words whose text Neutral indexes by bigrams of characters: Han
// (including the iteration mark 々), Hiragana, Katakana (including the
// prolonged sound mark ー) or Hangul. Thai, bigrammed too, is not
// included.
func IsCJK(r rune) bool {
	if r < 0x1100 {
		return false
	}
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) ||
		r == 0x30fc || r == 0x3005 || r == 0xff70
}

// IsThai reports whether r is a Thai letter or spacing vowel (Thai's
// combining vowel signs and tone marks are marks, which join the letter
// before them).
func IsThai(r rune) bool { return scriptOf(r) == scriptThai }

// ScriptTokenizer splits text of any script into tokens:
//
//   - maximal runs of letters, digits, '_' and combining marks of spaced
//     scripts (Latin, Cyrillic, Greek, Arabic, Hebrew, Devanagari ...) are
//     words, emitted when they are at least two code points long, with
//     identifiers ("sop-014", "v2.3.1") emitted whole before their parts
//     as IdentifierTokenizer does; apostrophes split words, so "l'homme"
//     gives "homme";
//   - a run of Han, Hiragana, Katakana and Hangul characters (see IsCJK)
//     gives its overlapping bigrams ("情報検索" gives "情報", "報検",
//     "検索"), and a run of one character that character, as Lucene's
//     CJKBigramFilter does; a run of Thai characters likewise (a character
//     with its vowel signs and tone marks), since segmenting Thai into
//     words needs a dictionary.
//
// Apply it to folded text (NeutralFold).
type ScriptTokenizer struct{}

// Tokenize returns the tokens of text in order.
func (ScriptTokenizer) Tokenize(text string) []string {
	tokens := make([]string, 0, len(text)/5+1)
	var runStarts []int // byte offsets of the runes of the current CJK or Thai run
	i := 0
	for i < len(text) {
		r, size := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError && size == 1 {
			i++
			continue
		}
		switch class := scriptOf(r); class {
		case scriptWord:
			i = scriptWords(text, i, &tokens)
		case scriptCJK, scriptThai:
			runStarts = runStarts[:0]
			for i < len(text) {
				r, size := utf8.DecodeRuneInString(text[i:])
				c := scriptOf(r)
				if c == scriptMark && len(runStarts) > 0 {
					i += size // a mark joins the character before it
					continue
				}
				if c != class {
					break
				}
				runStarts = append(runStarts, i)
				i += size
			}
			end := i
			if len(runStarts) == 1 {
				tokens = append(tokens, text[runStarts[0]:end])
				continue
			}
			for k := 0; k+1 < len(runStarts); k++ {
				stop := end
				if k+2 < len(runStarts) {
					stop = runStarts[k+2]
				}
				tokens = append(tokens, text[runStarts[k]:stop])
			}
		default:
			i += size
		}
	}
	return tokens
}

// spacedWord returns the end of the word of a spaced script starting at
// text[i] (a scriptWord rune): its letters, digits, '_' and the marks
// that follow them, and how many code points it has.
func spacedWord(text string, i int) (end, runes int) {
	for i < len(text) {
		r, size := utf8.DecodeRuneInString(text[i:])
		if c := scriptOf(r); c != scriptWord && c != scriptMark {
			break
		}
		i += size
		runes++
	}
	return i, runes
}

// scriptWordAt reports whether a word of a spaced script starts at text[i].
func scriptWordAt(text string, i int) bool {
	r, _ := utf8.DecodeRuneInString(text[i:])
	return scriptOf(r) == scriptWord
}

// scriptWords appends the word (or identifier and its parts) starting at
// text[start] to tokens and returns where it ends.
func scriptWords(text string, start int, tokens *[]string) int {
	end, runes := spacedWord(text, start)
	stop := end
	for stop+1 < len(text) && isJoiner(text[stop]) && scriptWordAt(text, stop+1) {
		stop, _ = spacedWord(text, stop+1)
	}
	if stop == end {
		if runes >= 2 {
			*tokens = append(*tokens, text[start:end])
		}
		return end
	}
	*tokens = append(*tokens, text[start:stop])
	for j := start; j < stop; {
		if !scriptWordAt(text, j) {
			j++ // a joiner
			continue
		}
		e, n := spacedWord(text, j)
		if n >= 2 {
			*tokens = append(*tokens, text[j:e])
		}
		j = e
	}
	return stop
}
