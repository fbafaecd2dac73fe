package pdf

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/fonte-rag/fonte/ingest/parse"
)

// The page check: extraction damage is rarely spread evenly over a PDF.
// One font without a Unicode map, or one producer's way of placing
// letters, spoils the pages set in it, and a document-wide share hides
// them. Each page is judged alone; a damaged page is flagged with what
// is wrong and what to do (parse.Parsed.Warnings, shown by fonte inspect and
// fonte index --report), and a document whose judged pages are mostly
// damaged is refused as garbled.

const (
	// minPageTokens is how many tokens a page needs to be judged: a page
	// of a title or a figure says too little.
	minPageTokens = 30
	// maxPageReplacement is the largest share of U+FFFD among a page's
	// non-space characters; at least minPageReplacement of them are
	// needed, so one odd symbol does not flag a page.
	maxPageReplacement = 0.005
	minPageReplacement = 3
	// gluedLen is the shortest all-letter token taken as words run
	// together: longer than all but a handful of English or Italian words
	// ("internationalization" is 20), typical of words that lost the
	// spaces between them. Identifiers in camelCase, TeX macros
	// (\textquotestraightbase) and compounds with hyphens are not taken
	// as glued.
	gluedLen = 21
	// maxGluedShare is the largest share of glued tokens on a page.
	maxGluedShare = 0.01
	// minWordShare is the smallest share of a page's tokens with letters
	// that read as words (letters, a vowel, shorter than gluedLen; tokens
	// of one letter are not counted, words of other scripts than Latin
	// count as words); code and tables stay above it, text in a font
	// decoded to the wrong letters falls below.
	minWordShare = 0.3
	// maxDamagedPages is the largest share of judged pages that may be
	// damaged before the document is refused.
	maxDamagedPages = 0.5
)

// pageProblem is what the check found wrong with one page.
type pageProblem struct {
	page   int
	reason string
}

// checkPDFPages judges the text of each page of blocks (by parse.Block.Page)
// and returns a warning per damaged page and, when most judged pages are
// damaged, a refusal of the document.
func checkPDFPages(name string, blocks []parse.Block) ([]string, error) {
	var pages []int
	text := map[int]*strings.Builder{}
	for _, b := range blocks {
		sb := text[b.Page]
		if sb == nil {
			sb = &strings.Builder{}
			text[b.Page] = sb
			pages = append(pages, b.Page)
		}
		sb.WriteString(b.Text)
		sb.WriteByte('\n')
	}
	var problems []pageProblem
	judged := 0
	for _, p := range pages {
		reason, ok := pageDamage(text[p].String())
		if !ok {
			continue
		}
		judged++
		if reason != "" {
			problems = append(problems, pageProblem{p, reason})
		}
	}
	var warnings []string
	for _, pr := range problems {
		warnings = append(warnings, fmt.Sprintf("page %d: %s", pr.page, pr.reason))
	}
	if judged > 0 && float64(len(problems)) > maxDamagedPages*float64(judged) {
		return warnings, &parse.Refusal{Path: name, Reason: parse.ReasonGarbled,
			Detail: fmt.Sprintf("%d of %d pages extracted badly (first: page %d: %s)", len(problems), judged, problems[0].page, problems[0].reason)}
	}
	return warnings, nil
}

// pageDamage judges one page's text: ok is false when the page has too
// few tokens to judge; reason is empty for a good page.
func pageDamage(text string) (reason string, ok bool) {
	tokens := strings.Fields(text)
	if len(tokens) < minPageTokens {
		return "", false
	}
	nonSpace, fffd := 0, 0
	for _, r := range text {
		if !unicode.IsSpace(r) {
			nonSpace++
		}
		if r == utf8.RuneError {
			fffd++
		}
	}
	if fffd >= minPageReplacement && float64(fffd) > maxPageReplacement*float64(nonSpace) {
		return fmt.Sprintf("%d characters its fonts do not map to Unicode (U+FFFD), so words with them cannot be found "+
			"(a font without a Unicode map, often fi/fl ligatures): re-export the PDF from its source, or OCR it", fffd), true
	}
	lettered, words, glued := 0, 0, 0
	example := ""
	for _, t := range tokens {
		core := strings.TrimFunc(t, func(r rune) bool { return !unicode.IsLetter(r) })
		if core == "" {
			continue // numbers and symbols are not judged
		}
		n, vowel, letters, latin, camel := 0, false, true, true, false
		prev := ' '
		for _, r := range core {
			n++
			if unicode.IsUpper(r) && unicode.IsLower(prev) {
				camel = true
			}
			prev = r
			if isVowel(r) {
				vowel = true
			}
			if !unicode.IsLetter(r) && r != '\'' && r != '’' && r != '-' {
				letters = false
			}
			if unicode.IsLetter(r) && !unicode.Is(unicode.Latin, r) {
				latin = false
			}
		}
		if n == 1 {
			continue // a lone letter: a variable, an initial, a glyph in a table
		}
		lettered++
		if !latin {
			// Words of other scripts are not judged by Latin vowels.
			words++
			continue
		}
		switch {
		case letters && n >= gluedLen && !camel && !strings.ContainsAny(core, "-'’") && !strings.HasPrefix(t, "\\"):
			glued++
			if example == "" {
				example = core
			}
		case letters && vowel:
			words++
		}
	}
	if lettered < minPageTokens/2 {
		return "", true // a table of numbers: nothing to say about words
	}
	if share := float64(glued) / float64(lettered); share > maxGluedShare {
		return fmt.Sprintf("%d of %d words look run together (%d+ letters, such as %q): the PDF places letters without spaces between words; "+
			"check the text with fonte inspect, and re-export the PDF from its source", glued, lettered, gluedLen, example), true
	}
	if share := float64(words) / float64(lettered); share < minWordShare {
		return fmt.Sprintf("only %.0f%% of its tokens read as words (letters with a vowel): its text layer is garbled "+
			"(fonts decoded to the wrong letters?): OCR the page or re-export the PDF", 100*share), true
	}
	return "", true
}

// isVowel reports whether r is a Latin vowel, accented or not.
func isVowel(r rune) bool {
	base, _ := utf8.DecodeRuneInString(norm.NFD.String(string(unicode.ToLower(r))))
	return strings.ContainsRune("aeiouy", base)
}
