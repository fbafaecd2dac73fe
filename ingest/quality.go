package ingest

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// Thresholds of the extraction-quality check. They are deliberately loose:
// the check exists to stop text no reader could use (a PDF whose font has no
// Unicode map, a binary file with a text extension), not to grade prose.
const (
	// binarySniff is how many leading bytes are searched for NUL. No text
	// encoding we accept contains NUL (UTF-16 is decoded first), and Git
	// and grep use the same test on the first 8000 bytes.
	binarySniff = 8000
	// maxInvalidUTF8 is the largest share of bytes outside valid UTF-8
	// sequences still read as text (as Windows-1252). Legacy Latin-1 text
	// has a few percent (accented letters); compressed or random data has
	// around half.
	maxInvalidUTF8 = 0.10
	// maxReplacement is the largest share of U+FFFD among characters. A
	// clean extraction has none; a failed font decoding or a mis-decoded
	// file has many. 1% leaves room for a stray symbol in a long document.
	maxReplacement = 0.01
	// maxControl is the largest share of control characters (other than
	// newline and tab) among characters: PDF fonts without a Unicode map
	// yield raw glyph codes, many of them below 0x20.
	maxControl = 0.01
	// minLetters is the smallest share of letters among non-space
	// characters. Prose is around 80%, code and number-heavy tables 50–70%;
	// below 30% the text is mostly symbols or digits that neither BM25 nor
	// an embedding model can use.
	minLetters = 0.30
	// minWords is the smallest share of word-like tokens (letters or
	// digits making up at least half the token, at most 40 (parse.Stats)
	// characters). Garbled extraction shows up as runs of symbols or as
	// words glued together when a PDF lost its spaces.
	minWords = 0.50
	// minStats is how many non-space characters a text needs before the
	// share-based tests (letters, words) apply: a one-line note is judged
	// only by the empty, replacement and control tests.
	minStats = 20
)

// CheckBytes refuses raw bytes of a text format that are empty or binary:
// a NUL in the first 8000 bytes, or more than 10% of bytes outside valid
// UTF-8. It returns nil or a *Refusal.
func CheckBytes(path string, raw []byte) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		return &Refusal{Path: path, Reason: ReasonEmpty, Detail: fmt.Sprintf("%d bytes, no text", len(raw))}
	}
	if i := bytes.IndexByte(raw[:min(len(raw), binarySniff)], 0); i >= 0 {
		return &Refusal{Path: path, Reason: ReasonBinary, Detail: fmt.Sprintf("NUL byte at offset %d", i)}
	}
	invalid := 0
	for b := raw; len(b) > 0; {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			invalid++
		}
		b = b[size:]
	}
	if share := float64(invalid) / float64(len(raw)); share > maxInvalidUTF8 {
		return &Refusal{Path: path, Reason: ReasonBinary,
			Detail: fmt.Sprintf("%.0f%% of bytes are not UTF-8 (limit %.0f%%)", 100*share, 100*maxInvalidUTF8)}
	}
	return nil
}

// Check refuses a parsed document whose text is empty or garbled (see the
// threshold constants). It returns nil or a *Refusal.
func Check(p *Parsed) error {
	path := p.Doc.Source
	if path == "" {
		path = p.Doc.ID
	}
	return checkText(path, p.Doc.Text, p.Control)
}

// checkText applies the quality thresholds to extracted text; dropped is
// the number of control characters already removed from it.
func checkText(path, text string, dropped int) error {
	s := Stats(text)
	s.Control += dropped
	s.Runes += dropped
	refuse := func(reason Reason, format string, args ...any) error {
		return &Refusal{Path: path, Reason: reason, Detail: fmt.Sprintf(format, args...)}
	}
	if s.Letters+s.Digits == 0 {
		if s.Runes == 0 {
			return refuse(ReasonEmpty, "no text extracted")
		}
		return refuse(ReasonEmpty, "no letters or digits in %d characters", s.Runes)
	}
	if share := ratio(s.Replacement, s.Runes); share > maxReplacement {
		return refuse(ReasonGarbled, "%.1f%% replacement characters (U+FFFD, limit %.0f%%)", 100*share, 100*maxReplacement)
	}
	if share := ratio(s.Control, s.Runes); share > maxControl {
		return refuse(ReasonGarbled, "%.1f%% control characters (limit %.0f%%)", 100*share, 100*maxControl)
	}
	if s.NonSpace < minStats {
		return nil
	}
	if share := ratio(s.Letters, s.NonSpace); share < minLetters {
		return refuse(ReasonGarbled, "only %.0f%% letters (minimum %.0f%%)", 100*share, 100*minLetters)
	}
	if share := ratio(s.Words, s.Tokens); share < minWords {
		return refuse(ReasonGarbled, "only %.0f%% of %d tokens look like words (minimum %.0f%%)", 100*share, s.Tokens, 100*minWords)
	}
	return nil
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
