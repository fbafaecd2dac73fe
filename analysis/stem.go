package analysis

import (
	"strings"
	"sync"
	"sync/atomic"

	"github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/english"
	"github.com/blevesearch/snowballstem/italian"
	"github.com/blevesearch/snowballstem/porter"
)

// Stemmer is a Filter that replaces each token with its Snowball stem. The
// Snowball algorithms expect lower-case input. Stemmer is safe for
// concurrent use: each call has its own Snowball environment.
type Stemmer struct {
	stem  func(*snowballstem.Env) bool
	cache *stemCache
}

// stemCache memoises stems: a word's stem never changes, and Zipf's law
// means a few thousand words make most of any text, so most tokens are
// looked up rather than stemmed (stemming was two thirds of index build
// time). It stops growing at maxCached words so that adversarial input
// cannot grow it without bound.
type stemCache struct {
	m sync.Map // word -> stem
	n atomic.Int64
}

const maxCached = 1 << 18

func newStemmer(stem func(*snowballstem.Env) bool) Stemmer {
	return Stemmer{stem: stem, cache: &stemCache{}}
}

// EnglishStemmer returns the Snowball English (Porter2) stemmer:
// "refunds" and "refunded" become "refund".
func EnglishStemmer() Stemmer { return newStemmer(english.Stem) }

// ItalianStemmer returns the Snowball Italian stemmer: "rimborso" and
// "rimborsato" become "rimbors".
func ItalianStemmer() Stemmer { return newStemmer(italian.Stem) }

// PorterStemmer returns the original Porter stemmer (Snowball's porter),
// the one Lucene's EnglishAnalyzer and Anserini use.
func PorterStemmer() Stemmer { return newStemmer(porter.Stem) }

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
	var env *snowballstem.Env // one environment for the whole stream, made on the first miss
	for i, t := range tokens {
		if s.cache != nil {
			if v, ok := s.cache.m.Load(t); ok {
				tokens[i] = v.(string)
				continue
			}
		}
		if env == nil {
			env = snowballstem.NewEnv("")
		}
		env.SetCurrent(t)
		s.stem(env)
		stem := env.Current()
		if s.cache != nil && s.cache.n.Load() < maxCached {
			// Clone: t may be a substring of a whole document, which the
			// cache must not keep alive.
			if _, loaded := s.cache.m.LoadOrStore(strings.Clone(t), stem); !loaded {
				s.cache.n.Add(1)
			}
		}
		tokens[i] = stem
	}
	return tokens
}
