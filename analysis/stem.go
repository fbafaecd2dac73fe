package analysis

import (
	"github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/english"
	"github.com/blevesearch/snowballstem/italian"
	"github.com/blevesearch/snowballstem/porter"
)

// Stemmer is a Filter that replaces each token with its Snowball stem. The
// Snowball algorithms expect lower-case input. Stemmer is safe for
// concurrent use: each call has its own Snowball environment.
type Stemmer struct {
	stem func(*snowballstem.Env) bool
}

// EnglishStemmer returns the Snowball English (Porter2) stemmer:
// "refunds" and "refunded" become "refund".
func EnglishStemmer() Stemmer { return Stemmer{stem: english.Stem} }

// ItalianStemmer returns the Snowball Italian stemmer: "rimborso" and
// "rimborsato" become "rimbors".
func ItalianStemmer() Stemmer { return Stemmer{stem: italian.Stem} }

// PorterStemmer returns the original Porter stemmer (Snowball's porter),
// the one Lucene's EnglishAnalyzer and Anserini use.
func PorterStemmer() Stemmer { return Stemmer{stem: porter.Stem} }

// Stem returns the stem of one word.
func (s Stemmer) Stem(word string) string {
	env := snowballstem.NewEnv(word)
	s.stem(env)
	return env.Current()
}

// Filter replaces every token by its stem, in place.
func (s Stemmer) Filter(tokens []string) []string {
	if len(tokens) == 0 {
		return tokens
	}
	env := snowballstem.NewEnv("") // one environment for the whole stream
	for i, t := range tokens {
		env.SetCurrent(t)
		s.stem(env)
		tokens[i] = env.Current()
	}
	return tokens
}
