// Package analysis turns text into the tokens an index stores: a chain of
// one-method steps (lower-casing, CharFilters, a Tokenizer, then Filters)
// built with explicit constructors.
//
// The word tokenizer and the char_wb n-grams reproduce scikit-learn 1.2.1
// exactly, including Python's Unicode rules for str.lower, \w and
// whitespace, so that fonte's TF-IDF matches the seeds' numbers; English and
// Italian are the product analyzers (stop words and Snowball stems).
package analysis

// Tokenizer splits text into tokens. Implementations are stateless and safe
// for concurrent use.
type Tokenizer interface {
	Tokenize(text string) []string
}

// Filter transforms a token stream: removes, replaces or adds tokens. A
// Filter may reuse the slice it is given, so callers must use the returned
// slice and not the argument after the call.
type Filter interface {
	Filter(tokens []string) []string
}

// Analyzer turns a text into the tokens that are indexed or searched.
type Analyzer interface {
	Analyze(text string) []string
}

// TokenizerFunc adapts a function to the Tokenizer interface.
type TokenizerFunc func(text string) []string

// Tokenize calls f(text).
func (f TokenizerFunc) Tokenize(text string) []string { return f(text) }

// FilterFunc adapts a function to the Filter interface.
type FilterFunc func(tokens []string) []string

// Filter calls f(tokens).
func (f FilterFunc) Filter(tokens []string) []string { return f(tokens) }

// AnalyzerFunc adapts a function to the Analyzer interface.
type AnalyzerFunc func(text string) []string

// Analyze calls f(text).
func (f AnalyzerFunc) Analyze(text string) []string { return f(text) }

// Chain is an Analyzer made of steps run in order: each Cased filter on
// the text as written, optional lower-casing of the whole text (before
// tokenizing, as scikit-learn does, so that a tokenizer sees what
// Python's pattern would see), each CharFilter, the Tokenizer, then each
// Filter. A Chain is safe for concurrent use when its steps are.
type Chain struct {
	// Cased are applied in order to the text as written, for what only
	// case tells (AcronymPlurals).
	Cased       []CharFilter
	Lowercase   bool         // apply Lower to the text before tokenizing
	CharFilters []CharFilter // applied in order to the (lower-cased) text
	Tokenizer   Tokenizer    // required
	Filters     []Filter     // applied in order to the tokenizer's output
}

// Analyze runs the chain on text.
func (c *Chain) Analyze(text string) []string {
	for _, f := range c.Cased {
		text = f.Map(text)
	}
	if c.Lowercase {
		text = Lower(text)
	}
	for _, f := range c.CharFilters {
		text = f.Map(text)
	}
	tokens := c.Tokenizer.Tokenize(text)
	for _, f := range c.Filters {
		tokens = f.Filter(tokens)
	}
	return tokens
}
