package main

import (
	"strings"
	"unicode/utf8"

	"github.com/fonte-rag/fonte/analysis"
	"github.com/fonte-rag/fonte/lexical"
)

// Variant is one named configuration of the lexical leg: an analysis, BM25
// parameters and a scorer.
type Variant struct {
	Name     string
	Analysis string // key into analyses
	Opts     lexical.BM25Options
	Scorer   Scorer
}

// anserini is fonte's BM25 parameters (retrieve.BM25Params), Anserini's
// defaults.
var anserini = lexical.BM25Options{K1: 0.9, B: 0.4}

// analyses are the analysis candidates by name. "v1" is the product's
// analysis before this study (analysis.English without Fold and
// AmericanSpelling); "base" is analysis.English and analysis.Italian as
// they are now. The others change one thing of v1 (English side unless
// the comment says otherwise).
var analyses = map[string]func() Analysis{
	"v1": func() Analysis {
		return both(en(nil, analysis.IdentifierTokenizer{}, lucene(), nil, stem2()), analysis.Italian())
	},
	"base": func() Analysis { return both(analysis.English(), analysis.Italian()) },
	// Porter instead of Porter2 (Lucene's EnglishAnalyzer, Anserini).
	"porter": func() Analysis {
		return both(en(nil, analysis.IdentifierTokenizer{}, lucene(), nil, analysis.PorterStemmer()), analysis.Italian())
	},
	// surface: every token indexed twice, as its stem and as its
	// unstemmed form (marked), so an exact form match scores on top of the
	// stem match: one index standing for a stemmed and a surface field;
	// both languages.
	"surface": func() Analysis {
		return both(surface(analysis.LuceneEnglishStopWords, stem2()), surface(italianStops(), analysis.ItalianStemmer()))
	},
	// fold: analysis.Fold (accents, Greek letters, Unicode hyphens).
	"fold": func() Analysis {
		return both(en(analysis.Fold{}, analysis.IdentifierTokenizer{}, lucene(), nil, stem2()), analysis.Italian())
	},
	// us: analysis.AmericanSpelling before the stemmer.
	"us": func() Analysis {
		return both(en(nil, analysis.IdentifierTokenizer{}, lucene(), analysis.AmericanSpelling{}, stem2()), analysis.Italian())
	},
	// parts: a compound of purely alphabetic parts of 3+ letters
	// ("long-term") is indexed by its parts only; codes keep their
	// compound; both languages.
	"parts": func() Analysis {
		return both(chain(analysis.IdentifierTokenizer{}, alphaCompounds{}, analysis.NewStopFilter(analysis.LuceneEnglishStopWords), stem2()),
			chain(analysis.IdentifierTokenizer{}, alphaCompounds{}, analysis.NewStopFilter(italianStops()), analysis.ItalianStemmer()))
	},
	// catenate: a hyphenated compound also gives its parts written
	// together ("proinflammatory").
	"catenate": func() Analysis {
		return both(chain(analysis.IdentifierTokenizer{}, catenate{}, analysis.NewStopFilter(analysis.LuceneEnglishStopWords), stem2()), analysis.Italian())
	},
	// words: no compounds at all (WordTokenizer); both languages.
	"words": func() Analysis {
		return both(chain(analysis.WordTokenizer{}, analysis.NewStopFilter(analysis.LuceneEnglishStopWords), stem2()),
			chain(analysis.WordTokenizer{}, analysis.NewStopFilter(italianStops()), analysis.ItalianStemmer()))
	},
	// digits / single: one-character parts kept, digits only or any; both
	// languages.
	"digits": func() Analysis {
		return both(chain(idTok{oneDigit: true}, analysis.NewStopFilter(analysis.LuceneEnglishStopWords), stem2()),
			chain(idTok{oneDigit: true}, analysis.NewStopFilter(italianStops()), analysis.ItalianStemmer()))
	},
	"single": func() Analysis {
		return both(chain(idTok{oneAny: true}, analysis.NewStopFilter(analysis.LuceneEnglishStopWords), stem2()),
			chain(idTok{oneAny: true}, analysis.NewStopFilter(italianStops()), analysis.ItalianStemmer()))
	},
	// Stop lists: Snowball's English list (the Porter2 stemmer's
	// companion), NLTK's, scikit-learn's.
	"snowball-stops": func() Analysis {
		return both(en(nil, analysis.IdentifierTokenizer{}, analysis.NewWordSet(strings.Fields(snowballEnglish)...), nil, stem2()), analysis.Italian())
	},
	"nltk-stops": func() Analysis {
		return both(en(nil, analysis.IdentifierTokenizer{}, analysis.NewWordSet(strings.Fields(snowballEnglish+nltkExtra)...), nil, stem2()), analysis.Italian())
	},
	"sklearn-stops": func() Analysis {
		return both(en(nil, analysis.IdentifierTokenizer{}, analysis.SklearnEnglishStopWords, nil, stem2()), analysis.Italian())
	},
	// base with Snowball's stop list, and with Porter.
	"base+snowball-stops": func() Analysis {
		return both(analysis.NewEnglish(analysis.NewWordSet(strings.Fields(snowballEnglish)...)), analysis.Italian())
	},
	"base+porter": func() Analysis {
		return both(en(analysis.Fold{}, analysis.IdentifierTokenizer{}, lucene(), analysis.AmericanSpelling{}, analysis.PorterStemmer()), analysis.Italian())
	},
}

func stem2() analysis.Stemmer { return analysis.EnglishStemmer() }

func lucene() analysis.WordSet { return analysis.LuceneEnglishStopWords }

// en builds an English chain: Lower, an optional char filter, the
// tokenizer, the stop list, an optional filter, the stemmer.
func en(cf analysis.CharFilter, tok analysis.Tokenizer, stops analysis.WordSet, f analysis.Filter, st analysis.Stemmer) *analysis.Chain {
	c := &analysis.Chain{Lowercase: true, Tokenizer: tok}
	if cf != nil {
		c.CharFilters = []analysis.CharFilter{cf}
	}
	c.Filters = append(c.Filters, analysis.NewStopFilter(stops))
	if f != nil {
		c.Filters = append(c.Filters, f)
	}
	c.Filters = append(c.Filters, st)
	return c
}

func both(en, it analysis.Analyzer) Analysis {
	return Analysis{ByLang: map[string]analysis.Analyzer{"en": en, "it": it}, Default: en}
}

func chain(tok analysis.Tokenizer, filters ...analysis.Filter) *analysis.Chain {
	return &analysis.Chain{Lowercase: true, Tokenizer: tok, Filters: filters}
}

// italianStops is analysis.Italian's stop list (unexported there).
func italianStops() analysis.WordSet {
	return analysis.ItalianStopWords.Union(analysis.NewWordSet("coll", "pell", "gl", "quest", "quell"))
}

// surface analyses like the product chain, then emits each token's stem
// followed by "=" and its unstemmed form.
func surface(stops analysis.WordSet, stem analysis.Stemmer) analysis.Analyzer {
	c := chain(analysis.IdentifierTokenizer{}, analysis.NewStopFilter(stops))
	return analysis.AnalyzerFunc(func(text string) []string {
		toks := c.Analyze(text)
		forms := make([]string, len(toks))
		for i, t := range toks {
			forms[i] = "=" + t
		}
		stems := stem.Filter(toks)
		out := make([]string, 0, 2*len(toks))
		for i := range stems {
			out = append(out, stems[i], forms[i])
		}
		return out
	})
}

// alphaCompounds drops a compound token whose parts are all letters-only
// runs of three or more code points.
type alphaCompounds struct{}

func (alphaCompounds) Filter(tokens []string) []string {
	out := tokens[:0]
	for _, t := range tokens {
		if strings.ContainsAny(t, "-./") && alphaParts(t) {
			continue
		}
		out = append(out, t)
	}
	return out
}

func alphaParts(t string) bool {
	for _, p := range strings.FieldsFunc(t, func(r rune) bool { return r == '-' || r == '.' || r == '/' }) {
		if utf8.RuneCountInString(p) < 3 {
			return false
		}
		for _, r := range p {
			if r >= '0' && r <= '9' || r == '_' {
				return false
			}
		}
	}
	return true
}
