package analysis

import (
	"regexp"
	"strings"
	"testing"
)

// benchText is about 2 KB of mixed Italian and English prose with codes,
// typical of a chunk.
var benchText = strings.Repeat("Il rimborso delle spese di trasferta richiede la nota spese "+
	"compilata entro cinque giorni lavorativi dal rientro; l'uso dell'auto è ammesso. "+
	"An approved refund is returned to the original payment method within 5 working days "+
	"(see SOP-014, ERR-4012 and release v2.3.1). ", 7)

func benchTokenizer(b *testing.B, tok Tokenizer) {
	text := Lower(benchText)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		tok.Tokenize(text)
	}
}

func BenchmarkTokenizeWord(b *testing.B)       { benchTokenizer(b, WordTokenizer{}) }
func BenchmarkTokenizeIdentifier(b *testing.B) { benchTokenizer(b, IdentifierTokenizer{}) }
func BenchmarkTokenizeASCII(b *testing.B)      { benchTokenizer(b, ASCIITokenizer{}) }
func BenchmarkTokenizeCharWB45(b *testing.B)   { benchTokenizer(b, CharWBTokenizer{Min: 4, Max: 5}) }

// BenchmarkTokenizeRegexp is the baseline the hand scanner replaces: Go's
// regexp with the Unicode classes spelled out.
func BenchmarkTokenizeRegexp(b *testing.B) {
	re := regexp.MustCompile(`[\p{L}\p{N}_]{2,}`)
	benchTokenizer(b, TokenizerFunc(func(s string) []string { return re.FindAllString(s, -1) }))
}

func benchAnalyzer(b *testing.B, an Analyzer) {
	b.SetBytes(int64(len(benchText)))
	b.ReportAllocs()
	for b.Loop() {
		an.Analyze(benchText)
	}
}

func BenchmarkAnalyzeSklearn(b *testing.B) { benchAnalyzer(b, Sklearn()) }
func BenchmarkAnalyzeEnglish(b *testing.B) { benchAnalyzer(b, English()) }
func BenchmarkAnalyzeItalian(b *testing.B) { benchAnalyzer(b, Italian()) }

func BenchmarkLower(b *testing.B) {
	b.SetBytes(int64(len(benchText)))
	b.ReportAllocs()
	for b.Loop() {
		Lower(benchText)
	}
}

func BenchmarkFold(b *testing.B) {
	text := Lower(benchText)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		Fold{}.Map(text)
	}
}

// BenchmarkAmericanSpelling is the filter on a chunk's tokens, its cache
// warm as it is after the first documents.
func BenchmarkAmericanSpelling(b *testing.B) {
	tokens := (IdentifierTokenizer{}).Tokenize(Lower(benchText))
	buf := make([]string, len(tokens))
	b.ReportAllocs()
	for b.Loop() {
		copy(buf, tokens)
		AmericanSpelling{}.Filter(buf)
	}
}
