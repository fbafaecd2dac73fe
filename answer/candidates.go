package answer

import (
	"math"
	"strings"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/chunk"
)

// Candidate is one sentence the offline answerer weighs for a question:
// sentence Sentence of chunk Chunk (0-based, in the order of the chunks
// given), at byte span Span of that chunk's text, with the answerer's
// score and the general features a learned scorer reads (FeatureNames
// names them in order).
type Candidate struct {
	Chunk, Sentence int
	Span            [2]int
	// Quote is the byte span ExtractSpan quotes when it picks this
	// sentence: with its list, the sentences that go on with it, the
	// sentence naming its referent (a table row's stays the row).
	Quote    [2]int
	Text     string
	Score    float64
	Features []float64
}

// FeatureNames name the entries of Candidate.Features, in order. None
// names a phrase: they are shares of the question's words, grammar,
// structure and position, in English and Italian alike.
var FeatureNames = []string{
	"score_rel",     // the answerer's score over the best score for the question
	"score_best",    // 1 for the sentence(s) with the best score
	"held_idf",      // share of the question's key weight (idf over the passages) the sentence holds
	"held_keys",     // share of the question's keys the sentence holds
	"framed_idf",    // share of the key weight its heading, table header or sentence before holds for it
	"position",      // sentence index over the chunk's last sentence index
	"first",         // 1 for the chunk's first sentence
	"log_words",     // log(1 + words)
	"typed_span",    // holds a span of the asked type (a figure for "how many", …)
	"could_lead",    // holds such a span bound to the question's words
	"modal_match",   // yes/no question: speaks in the modality asked
	"negation",      // holds a negation
	"list_item",     // is a list item
	"chunk_rank",    // log(1 + the chunk's rank among the passages)
	"prefix_match",  // share of the question's content words whose first five letters a sentence word shares
	"trigram_cos",   // cosine of the letter trigrams of question and sentence
	"instructs",     // how-to question: opens with the asked verb
	"weak_form",     // a heading, a fragment, a question or a pointer elsewhere
	"pronoun_led",   // opens with a pronoun
	"next_has_keys", // the next sentence of the paragraph holds a question key
	"intro_colon",   // ends with a colon (introduces a list)
}

// Candidates returns the sentences ExtractSpan weighs for question over
// chunks, in the order it weighs them, each with its score and features,
// and the index of the one it quotes (-1 when it quotes none). It is
// what a study of the answerer's sentence choice reads.
func Candidates(question string, chunks []fonte.Chunk) ([]Candidate, int) {
	var seen []weighed
	extractSpan(question, chunks, func(w weighed) float64 {
		seen = append(seen, w)
		return w.score
	})
	picked, top := -1, 0.0
	for i, w := range seen {
		if w.score > top {
			picked, top = i, w.score
		}
	}
	f := newFeaturer(question, chunks)
	out := make([]Candidate, len(seen))
	for i, w := range seen {
		c := chunks[w.chunk]
		out[i] = Candidate{Chunk: w.chunk, Sentence: w.sent, Span: w.span, Quote: f.quote(w), Text: c.Text[w.span[0]:w.span[1]], Score: w.score, Features: f.features(w, top)}
	}
	return out, picked
}

// featurer computes a candidate's features; it holds what is read once
// per question.
type featurer struct {
	chunks  []fonte.Chunk
	spans   [][][2]int // each chunk's sentence spans, as ExtractSpan splits them
	want    map[string]bool
	qt      AnswerType
	asked   modality
	verb    map[string]bool
	words   []string // the question's content words, lower-cased
	trigram map[string]float64
}

func newFeaturer(question string, chunks []fonte.Chunk) *featurer {
	f := &featurer{chunks: chunks, want: ContentKeys(question), qt: QuestionType(question), verb: askedVerb(question)}
	if f.qt == YesNoAnswer {
		f.asked = askedModality(question)
	}
	for _, c := range chunks {
		f.spans = append(f.spans, joinWrapped(c.Text, chunk.SentenceSpans(c.Text)))
	}
	q := strings.ToLower(question)
	for _, w := range wordSpans(q) {
		if word := q[w[0]:w[1]]; len(ContentKeys(word)) > 0 {
			f.words = append(f.words, word)
		}
	}
	f.trigram = trigrams(q)
	return f
}

// quote returns the span ExtractSpan quotes for sentence w, as it
// widens the sentence it picks.
func (f *featurer) quote(w weighed) [2]int {
	text, spans := f.chunks[w.chunk].Text, f.spans[w.chunk]
	span := withList(text, spans, w.sent)
	if _, row := tableHeader(text, spans, w.sent); span == w.span && !row {
		span = widen(text, spans, w.sent, f.want)
		span[0] = withReferent(text, spans, w.sent, f.qt)
	}
	return span
}

// features returns the features of sentence w, top being the best score
// among the question's sentences.
func (f *featurer) features(w weighed, top float64) []float64 {
	c := f.chunks[w.chunk]
	spans := f.spans[w.chunk]
	s := c.Text[w.span[0]:w.span[1]]
	b := func(v bool) float64 {
		if v {
			return 1
		}
		return 0
	}
	rel := 0.0
	if top > 0 {
		rel = w.score / top
	}
	words := wordSpans(s)
	pos := 0.0
	if len(spans) > 1 {
		pos = float64(w.sent) / float64(len(spans)-1)
	}
	next := false
	if k := w.sent + 1; k < len(spans) && !strings.Contains(c.Text[spans[w.sent][1]:spans[k][0]], "\n") {
		next = hasAny(ContentKeys(c.Text[spans[k][0]:spans[k][1]]), f.want)
	}
	trimmed := strings.TrimSpace(s)
	return []float64{
		rel,
		b(top > 0 && w.score == top),
		w.held,
		float64(w.own) / float64(max(1, len(f.want))),
		w.framed,
		pos,
		b(w.sent == 0),
		math.Log1p(float64(len(words))),
		b(f.qt != AnyAnswer && len(typedSpans(s, f.qt)) > 0),
		b(w.lead),
		b(f.qt == YesNoAnswer && f.asked.matches(s)),
		b(negationRE.MatchString(s)),
		b(listItem(trimmed)),
		math.Log1p(float64(w.chunk)),
		f.prefixShare(s),
		cosine(f.trigram, trigrams(strings.ToLower(s))),
		b(len(f.verb) > 0 && instructs(s, f.verb)),
		b(strings.HasPrefix(s, "#") || len(words) < 4 && !isTableRow(s) || strings.HasSuffix(trimmed, "?") || seeAlsoRE.MatchString(s)),
		b(pronounLed(s)),
		b(next),
		b(strings.HasSuffix(trimmed, ":")),
	}
}

// prefixShare returns the share of the question's content words whose
// first five letters (the whole word, when shorter) begin a word of s:
// "collect" meets "collecting", "raccogliere" meets "raccolta" not.
func (f *featurer) prefixShare(s string) float64 {
	if len(f.words) == 0 {
		return 0
	}
	low := strings.ToLower(s)
	starts := map[string]bool{}
	for _, w := range wordSpans(low) {
		r := []rune(low[w[0]:w[1]])
		for n := 1; n <= min(5, len(r)); n++ {
			starts[string(r[:n])] = true
		}
	}
	hit := 0
	for _, w := range f.words {
		r := []rune(w)
		if starts[string(r[:min(5, len(r))])] {
			hit++
		}
	}
	return float64(hit) / float64(len(f.words))
}

// trigrams counts the letter trigrams of the words of s (lower-cased
// already), each word padded with a space either side.
func trigrams(s string) map[string]float64 {
	out := map[string]float64{}
	for _, w := range wordSpans(s) {
		r := []rune(" " + s[w[0]:w[1]] + " ")
		for i := 0; i+3 <= len(r); i++ {
			out[string(r[i:i+3])]++
		}
	}
	return out
}

// cosine returns the cosine of two count vectors.
func cosine(a, b map[string]float64) float64 {
	var dot, na, nb float64
	for k, x := range a {
		dot += x * b[k]
		na += x * x
	}
	for _, y := range b {
		nb += y * y
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}
