package analysis

// Sklearn is scikit-learn's default TfidfVectorizer analyzer: str.lower,
// then the token pattern (?u)\b\w\w+\b (WordTokenizer).
func Sklearn() *Chain {
	return &Chain{Lowercase: true, Tokenizer: WordTokenizer{}}
}

// SklearnEnglish is TfidfVectorizer(stop_words="english")'s analyzer:
// Sklearn, then SklearnEnglishStopWords removed from the tokens (scikit-learn
// removes stop words after tokenizing, so "we'd" loses "we" and the lone "d"
// is already gone).
func SklearnEnglish() *Chain {
	return &Chain{
		Lowercase: true,
		Tokenizer: WordTokenizer{},
		Filters:   []Filter{NewStopFilter(SklearnEnglishStopWords)},
	}
}

// CharWB is TfidfVectorizer(analyzer="char_wb", ngram_range=(min, max))'s
// analyzer: str.lower, then CharWBTokenizer. It panics unless
// 1 <= min <= max, as scikit-learn refuses such a range.
func CharWB(min, max int) *Chain {
	t := CharWBTokenizer{Min: min, Max: max}
	t.check() // fail at construction rather than on the first text
	return &Chain{Lowercase: true, Tokenizer: t}
}

// Seed001 is seed 001's tokens(): [a-z0-9]+ over the lower-cased text, minus
// Seed001StopWords. Its BM25 and hash surrogate use it.
func Seed001() *Chain {
	return &Chain{
		Lowercase: true,
		Tokenizer: ASCIITokenizer{},
		Filters:   []Filter{NewStopFilter(Seed001StopWords)},
	}
}

// English is fonte's analyzer for English text:
//
//   - Lower, as everywhere, so queries match regardless of case;
//   - Fold, so accented Latin letters, Greek letters in scientific
//     words ("TNF-α") and typographic hyphens are written as people type
//     them ("tnf-alpha");
//   - IdentifierTokenizer, so "SOP-014" or "v2.3.1" can be searched whole as
//     well as by their parts (WordTokenizer's rules otherwise);
//   - LuceneEnglishStopWords, 33 function words: small on purpose, because
//     longer lists such as scikit-learn's remove content words ("system",
//     "bill", "fire") and the seeds found removing function words helps less
//     than expected; BM25's idf already discounts the rest;
//   - AmericanSpelling, so British and American spellings meet ("tumour",
//     "tumor");
//   - the Snowball English stemmer, so "refund", "refunds" and "refunded"
//     meet.
//
// It is NewEnglish(LuceneEnglishStopWords).
func English() *Chain { return NewEnglish(LuceneEnglishStopWords) }

// NewEnglish is English's chain with another stop list, for analyses that
// must produce the same terms as English for the words they keep (the
// content words that retrieve's relevance counts, say).
func NewEnglish(stops WordSet) *Chain {
	return &Chain{
		Cased:       []CharFilter{AcronymPlurals{}},
		Lowercase:   true,
		CharFilters: []CharFilter{Fold{}},
		Tokenizer:   IdentifierTokenizer{},
		Filters: []Filter{
			EnglishOrdinals{},
			NewStopFilter(stops),
			AmericanSpelling{},
			EnglishStemmer(),
		},
	}
}

// italianStops is ItalianStopWords plus the elided forms it lacks (from
// Lucene's Italian elision articles, and "quest", "quell"): tokenizing at
// the apostrophe leaves them as words of their own.
var italianStops = ItalianStopWords.Union(NewWordSet("coll", "pell", "gl", "quest", "quell"))

// Italian is fonte's analyzer for Italian text: Lower, IdentifierTokenizer,
// the Snowball Italian stop list, then the Snowball Italian stemmer.
// Elision needs no filter of its own: apostrophes (' and ’) are not word
// characters, so "dell'invio" is tokenized as "dell", "invio", the elided
// article "dell" is a stop word, and one-letter ones ("l'uso") are too short
// to be tokens; "dell'invio" therefore indexes as the stem of "invio".
func Italian() *Chain {
	return &Chain{
		Cased:     []CharFilter{AcronymPlurals{}},
		Lowercase: true,
		Tokenizer: IdentifierTokenizer{},
		Filters: []Filter{
			NewStopFilter(italianStops),
			ItalianStemmer(),
		},
	}
}
