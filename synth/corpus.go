package synth

import (
	"math"
	"math/rand/v2"
	"strings"
)

// CorpusOptions shape a synthetic corpus of chunks. The zero value of a
// field means its default.
type CorpusOptions struct {
	// Vocabulary is the number of distinct words (default 50,000).
	Vocabulary int
	// ZipfS is the Zipf exponent of word frequencies (default 1.07, the
	// value English text is usually measured at); must be > 1.
	ZipfS float64
	// MedianWords is the median chunk length in words (default 120); lengths
	// are log-normal with sigma 0.5, clipped to [20, 600], like the chunks
	// of a structural chunker over prose.
	MedianWords int
	// Topics is the number of topics (default 200). Each chunk belongs to
	// one: 30% of its words come from the topic's own Zipf-ranked slice of
	// the vocabulary, and its vector is drawn around the topic's centre, so
	// the lexical and dense legs agree about what is related.
	Topics int
	// Dim is the vector dimension (default 384) and Scale the spread of
	// topic centres (default 0.5): the issue-4 benchmark's mixture.
	Dim   int
	Scale float64
}

func (o *CorpusOptions) defaults() {
	if o.Vocabulary == 0 {
		o.Vocabulary = 50000
	}
	if o.ZipfS == 0 {
		o.ZipfS = 1.07
	}
	if o.MedianWords == 0 {
		o.MedianWords = 120
	}
	if o.Topics == 0 {
		o.Topics = 200
	}
	if o.Dim == 0 {
		o.Dim = 384
	}
	if o.Scale == 0 {
		o.Scale = 0.5
	}
}

// Corpus generates chunks and queries one at a time, so a million chunks
// never need to be held in memory by the generator itself. The same seed
// gives the same corpus on every platform.
type Corpus struct {
	opts    CorpusOptions
	rng     *rand.Rand
	zipf    *rand.Zipf
	mixture *Mixture
	words   []string
}

// topicShare is the share of a chunk's words drawn from its topic.
const topicShare = 0.3

// NewCorpus returns a generator seeded with rng.
func NewCorpus(rng *rand.Rand, opts CorpusOptions) *Corpus {
	opts.defaults()
	c := &Corpus{opts: opts, rng: rng}
	c.zipf = rand.NewZipf(rng, opts.ZipfS, 1, uint64(opts.Vocabulary-1))
	c.mixture = NewMixture(rng, opts.Topics, opts.Dim, opts.Scale)
	c.words = make([]string, opts.Vocabulary)
	for i := range c.words {
		c.words[i] = pseudoWord(i)
	}
	return c
}

// Options returns the options with defaults filled in.
func (c *Corpus) Options() CorpusOptions { return c.opts }

// word draws one word: from the global Zipf distribution, or, for the
// topic's share, the Zipf rank shifted into the topic's own region of the
// vocabulary (so each topic has its own frequent words).
func (c *Corpus) word(topic int) string {
	r := int(c.zipf.Uint64())
	if c.rng.Float64() < topicShare {
		r = (r + 1000 + topic*(c.opts.Vocabulary/c.opts.Topics)) % c.opts.Vocabulary
	}
	return c.words[r]
}

// Chunk draws one chunk: its topic, its text and its vector (normalised,
// owned by the caller).
func (c *Corpus) Chunk() (topic int, text string, vec []float32) {
	topic = c.rng.IntN(c.opts.Topics)
	n := int(math.Round(float64(c.opts.MedianWords) * math.Exp(0.5*c.rng.NormFloat64())))
	n = min(max(n, 20), 600)
	var b strings.Builder
	for i := range n {
		if i > 0 {
			if i%17 == 0 {
				b.WriteString(". ")
			} else {
				b.WriteByte(' ')
			}
		}
		b.WriteString(c.word(topic))
	}
	b.WriteByte('.')
	return topic, b.String(), c.vector(topic)
}

// Query draws a query about a topic: 3 to 8 of the topic's words and a
// vector from the same topic's centre.
func (c *Corpus) Query() (topic int, text string, vec []float32) {
	topic = c.rng.IntN(c.opts.Topics)
	n := 3 + c.rng.IntN(6)
	words := make([]string, n)
	for i := range words {
		words[i] = c.word(topic)
	}
	return topic, strings.Join(words, " "), c.vector(topic)
}

func (c *Corpus) vector(topic int) []float32 {
	v := make([]float32, c.opts.Dim)
	centre := c.mixture.Centres.Row(topic)
	var ss float64
	for j := range v {
		x := float64(centre[j]) + c.rng.NormFloat64()
		v[j] = float32(x)
		ss += x * x
	}
	inv := float32(1 / math.Sqrt(ss))
	for j := range v {
		v[j] *= inv
	}
	return v
}

// pseudoWord spells word i as consonant-vowel syllables ("baki",
// "romesu"), unique per i, so synthetic text tokenizes like text.
func pseudoWord(i int) string {
	const cons, vows = "bcdfghklmnprstvz", "aeiou"
	var b []byte
	for {
		b = append(b, cons[i%len(cons)], vows[(i/len(cons))%len(vows)])
		i /= len(cons) * len(vows)
		if i == 0 {
			break
		}
		i--
	}
	return string(b)
}
