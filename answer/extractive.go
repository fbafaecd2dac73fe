package answer

import (
	"fmt"
	"strings"

	"github.com/fonte-rag/fonte"
)

// Keys turns text into the set of content keys that the extractive
// answerer and the grounding checks compare: the text's tokens, less the
// stop words, each cut to its first Prefix characters so "refund" and
// "refunds" meet.
type Keys struct {
	Stop   map[string]bool       // whole tokens to drop, checked before the cut
	Prefix int                   // characters kept of each token; 0 keeps it whole
	Tokens func(string) []string // nil: runs of [a-z0-9] in the lower-cased text
}

// SeedKeys returns seed 002's key function with the given stop words (the
// fixture's stop_words): {w[:4] for w in re.findall("[a-z0-9]+",
// text.lower()) if w not in STOP}.
func SeedKeys(stop []string) Keys {
	set := make(map[string]bool, len(stop))
	for _, w := range stop {
		set[w] = true
	}
	return Keys{Stop: set, Prefix: 4}
}

// Of returns the keys of text.
func (k Keys) Of(text string) map[string]bool {
	tokens := k.Tokens
	if tokens == nil {
		tokens = asciiWords
	}
	out := make(map[string]bool)
	for _, w := range tokens(text) {
		if k.Stop[w] {
			continue
		}
		if k.Prefix > 0 {
			w = prefix(w, k.Prefix)
		}
		out[w] = true
	}
	return out
}

// prefix returns the first n characters (code points) of w.
func prefix(w string, n int) string {
	for i := range w {
		if n == 0 {
			return w[:i]
		}
		n--
	}
	return w
}

// asciiWords returns the maximal runs of [a-z0-9] in the lower-cased text,
// like Python's re.findall(r"[a-z0-9]+", text.lower()).
func asciiWords(text string) []string {
	text = strings.ToLower(text)
	var out []string
	start := -1
	for i := 0; i <= len(text); i++ {
		in := i < len(text) && (text[i] >= 'a' && text[i] <= 'z' || text[i] >= '0' && text[i] <= '9')
		if in && start < 0 {
			start = i
		} else if !in && start >= 0 {
			out = append(out, text[start:i])
			start = -1
		}
	}
	return out
}

// SeedSentences is seed 002's sentence splitter: split at every ".", trim,
// drop empty pieces, and end each with ".".
func SeedSentences(text string) []string {
	var out []string
	for _, s := range strings.Split(text, ".") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s+".")
		}
	}
	return out
}

// Extractive is the offline answerer of seed 002, a stand-in for a model
// that extracts rather than composes: it quotes the sentence of the context
// that shares the most keys with the question and cites its chunk. Only a
// strictly larger overlap replaces the current best, so ties go to the
// first sentence in context order, which is why the presentation order of
// the context matters to it. It is deterministic and needs no network.
type Extractive struct {
	Keys      Keys
	Sentences func(string) []string // nil: SeedSentences
	NoAnswer  string                // returned when no sentence shares a key
}

// SeedExtractive returns seed 002's answerer with the given stop words (the
// fixture's stop_words): keys cut to 4 characters, sentences split at ".",
// and "I do not know." when nothing overlaps.
func SeedExtractive(stop []string) Extractive {
	return Extractive{Keys: SeedKeys(stop), Sentences: SeedSentences, NoAnswer: "I do not know."}
}

// Quote is what the extractive answerer returns.
type Quote struct {
	Text     string      // the quoted sentence, or the NoAnswer text
	Chunk    fonte.Chunk // the chunk quoted from; zero when nothing was quoted
	Sentence int         // index of the sentence within the chunk; -1 when nothing was quoted
	Overlap  int         // keys shared with the question
}

// Found reports whether a sentence was quoted.
func (q Quote) Found() bool { return q.Sentence >= 0 }

// Answer quotes the sentence of chunks, walked in order, with the largest
// key overlap with question.
func (e Extractive) Answer(question string, chunks []fonte.Chunk) Quote {
	split := e.Sentences
	if split == nil {
		split = SeedSentences
	}
	want := e.Keys.Of(question)
	best := Quote{Text: e.NoAnswer, Sentence: -1}
	for _, c := range chunks {
		for i, s := range split(c.Text) {
			n := 0
			for k := range e.Keys.Of(s) {
				if want[k] {
					n++
				}
			}
			if n > best.Overlap {
				best = Quote{Text: s, Chunk: c, Sentence: i, Overlap: n}
			}
		}
	}
	return best
}

// Ask is seed 002's first ask: decline with the best score when it is under
// floor ("I do not know. Best chunk scored 0.000, under the floor."),
// otherwise quote from the hits' chunks in the order given and append the
// cited chunk id in brackets ("… within 30 days … [c1]").
func (e Extractive) Ask(question string, hits []fonte.Hit, floor float64) string {
	if Abstain(hits, floor) {
		best := 0.0
		if len(hits) > 0 {
			best = BestFirst(hits)[0].Score
		}
		return fmt.Sprintf("%s Best chunk scored %.3f, under the floor.", e.NoAnswer, best)
	}
	q := e.Answer(question, Chunks(hits))
	if !q.Found() {
		return q.Text
	}
	return fmt.Sprintf("%s [%s]", q.Text, q.Chunk.ID)
}
