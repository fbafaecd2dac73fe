package answer

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/analysis"
	"github.com/fonte-rag/fonte/chunk"
	"github.com/fonte-rag/fonte/guard"
)

// Config is how the answer stage turns retrieved hits into an answer.
type Config struct {
	// Floor is the relevance under which fonte answers "I don't know"
	// instead of answering from weak matches (compared with the best
	// Hit.Relevance). Measure it with `fonte eval` on your questions.
	Floor float64
	// Budget is the context budget in estimated tokens (Tokens); chunks are
	// selected by score until it is spent, then presented best first.
	Budget int
	// Template builds the prompt; the zero value means DefaultTemplate.
	Template *Template
	// Generator writes the answer; nil means the built-in extractive
	// answerer, which quotes the best-matching sentence offline.
	Generator fonte.Generator
	// OnDelta, when set, receives the generator's text as it streams.
	OnDelta func(string)
	// Trace, when set, is filled with the floor decision, the fit, the
	// prompt and the grounding verdicts (see Trace); nil traces nothing.
	Trace *Trace
	// Lang is the question's language: abstentions and notices are
	// written in it (MessagesFor), and a context with no passage in it
	// gets a notice (see Ask). "" is English for the messages.
	Lang string
	// Coverage, when set, is how much of the question's weight no top
	// passage holds; the floor then compares the relevance lowered by it
	// (see Coverage). Nil compares the relevance alone.
	Coverage *Coverage
}

// DefaultBudget is the default context budget: 2,000 tokens leaves room
// for instructions and a long answer in the 4k–8k contexts of small local
// models, and holds about eight default-size chunks.
const DefaultBudget = 2000

// DefaultFloor is fonte's default abstain floor on Hit.Relevance (the
// share of the query's content-word evidence, idf-weighted with BM25
// saturation, that the best of the first K chunks matched). Measured with
// `fonte eval` on the dev questions (`SPLIT=dev scripts/eval-sets`, the
// floor with the coverage check, which leaves out the words that ask for
// a kind of figure): on the 18F handbook (English) 0.25 blocks 2 of 24
// answerable questions and lets 3 of 9 unanswerable through; on
// examples/ (English and Italian, many cross-language) it blocks 14 of 27
// and lets 3 of 7 through. The coverage check, not the floor's value,
// makes most blocks: on the eight sets' dev questions (at af1e092) a
// floor of 0.2 answers 4 more answerable questions end to end, of which
// the judge finds 1 right, 1 partial and 2 wrong, and lets no more
// unanswerable ones through; 0.1 answers 7 more (1 right, 1 partial, 5
// wrong) and lets one more through (maint-guide-en). Below 0.25 the
// passages that hold the question's words are mostly not the one that
// answers it. No floor separates the two groups cleanly (seed 002 found
// the same); 0.25 sits where the first set barely pays and the second
// still refuses most of what it cannot answer. Measure your own: the
// eval command prints the curve and suggests one from a dev split.
// Leave-one-set-out over the eight sets' dev questions finds no floor,
// alone or with the coverage share, that carries better from set to set
// (evalsets/ABSTAIN.md).
const DefaultFloor = 0.25

// observeAsk and ungated are set only by the measurement of the
// abstention decision (abstain_signals_test.go, built with the tag
// abstainsignals): observeAsk sees what Ask is given before it decides
// anything, and ungated lets Ask answer past the floor and the name and
// kind checks, so that the measurement can judge the answer they
// withhold. A built program never sets them.
var (
	observeAsk func(question string, hits []fonte.Hit, docs map[string]fonte.Document, cfg Config)
	ungated    bool
)

// Tokens estimates a text's model tokens as one per four bytes of UTF-8,
// rounded up: the usual rule of thumb for English subword tokenizers, and
// conservative for Italian, whose accented letters take two bytes.
func Tokens(s string) int { return (len(s) + 3) / 4 }

// Ask answers question from hits (best first, as retrieved): it abstains
// below the floor, when the question names a case no passage holding its
// words names (missingName), and when those passages state no figure of
// the kind it asks for (holdsAskedKind); it fits the context by score
// within the budget, numbers the sources [1]..[n] in the order presented, generates, and checks the
// answer's citations and support. A model's answer reaches the reader
// (OnDelta and Answer.Text) without its sentences that state, outside a
// parenthesised aside, a figure no source holds; when no cited claim is
// left, the extractive answer replaces it. Its other unsupported
// sentences are kept and listed in Answer.Unsupported. OnDelta receives
// only the checked answer: a model's is held back until every check has
// run on the whole of it (see Hold), so what streams is Answer.Text.
func Ask(ctx context.Context, question string, hits []fonte.Hit, docs map[string]fonte.Document, cfg Config) (*fonte.Answer, error) {
	if observeAsk != nil {
		observeAsk(question, hits, docs, cfg)
	}
	tr := cfg.Trace
	var t0 time.Time
	if tr != nil {
		t0 = time.Now()
	}
	a := &fonte.Answer{Question: question, Lang: cfg.Lang}
	msgs := MessagesFor(cfg.Lang)
	found := crossLanguage(cfg.Lang, hits, docs, cfg.Coverage)
	if found != "" {
		a.Notice = CrossLanguageNotice(cfg.Lang, found)
	}
	best := -1
	for i, h := range hits {
		if best < 0 || h.Relevance > a.Relevance {
			best = i
		}
		a.Relevance = max(a.Relevance, h.Relevance)
	}
	judged, _ := cfg.Coverage.judged(hits)
	if len(hits) == 0 || judged < cfg.Floor && !ungated {
		abstainShowing(a, msgs, hits, docs)
		if a.Notice == "" {
			// The words no document uses weigh most against answering;
			// the reader who meant what the documents say in other words
			// can ask again in theirs.
			a.Notice = UnknownWordsNotice(cfg.Lang, cfg.Coverage.Unknown())
		}
		if tr != nil {
			tr.Floor = floorDecision(hits, best, a.Relevance, cfg, true)
			tr.Abstained, tr.AbstainReason = true, tr.Floor.Reason
			tr.FloorTime = since(&t0)
		}
		return a, nil
	}
	var note fitNote
	if tr != nil {
		tr.Floor = floorDecision(hits, best, a.Relevance, cfg, false)
		tr.FloorTime = since(&t0)
	}
	if found != "" && cfg.Generator == nil {
		// The extractive answerer quotes: a sentence in another language,
		// matched by the words the two languages share, is not an answer
		// to the question. The reader is told so and shown what was found.
		abstainShowing(a, msgs, hits, docs)
		if tr != nil {
			tr.Abstained = true
			tr.AbstainReason = fmt.Sprintf("no passage found is in the question's language (%s; they are in %s), and the extractive answerer only quotes", cfg.Lang, found)
		}
		return a, nil
	}
	if missing := missingName(question, hits, docs, cfg.Coverage); missing != "" && !ungated {
		// The question names its case ("a trip to Denver"); passages
		// that never name it state another case's rule.
		abstainShowing(a, msgs, hits, docs)
		if a.Notice == "" {
			a.Notice = UnnamedCaseNotice(cfg.Lang, missing)
		}
		if tr != nil {
			tr.Abstained = true
			tr.AbstainReason = fmt.Sprintf("the question names %q, which no passage holding its words does", missing)
		}
		return a, nil
	}
	if !ungated && !holdsAskedKind(question, hits, cfg.Coverage) {
		// The passages are about the question's subject but state no
		// figure of the kind it asks for: quoting one would answer
		// another question (see holdsAskedKind).
		abstainShowing(a, msgs, hits, docs)
		if a.Notice == "" {
			a.Notice = UnstatedKindNotice(cfg.Lang)
		}
		if tr != nil {
			tr.Abstained = true
			tr.AbstainReason = "the question asks for a figure of a kind (" + askedKindName(question) + ") that no sentence of the passages holding its words states"
		}
		return a, nil
	}
	if tr != nil {
		tr.Fit = &FitTrace{}
		note = func(h fonte.Hit, n, used int, kept bool) {
			if !kept {
				tr.Fit.Cut = append(tr.Fit.Cut, FitChunk{ChunkID: h.Chunk.ID, DocID: h.Chunk.DocID, Score: h.Score, Tokens: n,
					Reason: fmt.Sprintf("over budget: %d tokens with %d of %d used", n, used, tr.Fit.Budget)})
			}
		}
	}
	budget := cfg.Budget
	if budget <= 0 {
		budget = DefaultBudget
	}
	size := func(c fonte.Chunk) int { return Tokens(c.Text) }
	if tr != nil {
		tr.Fit.Budget = budget
	}
	kept := DefaultStrategy().apply(hits, budget, size, note)
	alone := len(kept) == 0
	if alone {
		kept = hits[:1] // one chunk over budget still beats an empty context
	}
	chunks := Chunks(kept)
	if tr != nil {
		for i, h := range kept {
			fc := FitChunk{ChunkID: h.Chunk.ID, DocID: h.Chunk.DocID, Score: h.Score, Tokens: size(h.Chunk), Source: i + 1}
			if alone {
				fc.Reason = "over budget, kept alone: one chunk beats an empty context"
				tr.Fit.Cut = slices.DeleteFunc(tr.Fit.Cut, func(c FitChunk) bool { return c.ChunkID == h.Chunk.ID })
			}
			tr.Fit.Fitted = append(tr.Fit.Fitted, fc)
			tr.Fit.Used += fc.Tokens
		}
		tr.FitTime = since(&t0)
	}
	tmpl := DefaultTemplate()
	if cfg.Template != nil {
		tmpl = *cfg.Template
	}
	if cfg.Generator == nil {
		// Nothing is sent: the prompt is kept for inspection only, with a
		// zero nonce, so the same question always gets the same answer.
		a.Prompt = tmpl.PromptNonce(question, chunks, ZeroNonce)
	} else {
		a.Prompt = tmpl.Prompt(question, chunks)
	}
	if tr != nil {
		tr.PromptTime = since(&t0)
	}

	// extract answers offline, quoting the sources; it never quotes a
	// sentence guard flags (ExtractSpan skips them).
	extract := func() {
		text, n, span := extractCovered(question, chunks, cfg.Coverage)
		a.Model, a.Citations = "fonte/extractive", nil
		if n == 0 {
			a.Text, a.Abstained = msgs.DontKnow, true
			if tr != nil {
				tr.AbstainReason = "the extractive answerer found no sentence sharing a content word with the question"
			}
		} else {
			// A yes or no ruled by a sentence that cannot name what the
			// question asks about is dropped, and the notice says why.
			if unknown := cfg.Coverage.Unknown(); len(unknown) > 0 && QuestionType(question) == YesNoAnswer {
				if quoted := withoutYesNo(text); quoted != text {
					text = quoted
					if a.Notice == "" {
						a.Notice = UnknownWordsNotice(cfg.Lang, unknown)
					}
				}
			}
			a.Text, a.Abstained = fmt.Sprintf("%s [%d]", text, n), false
		}
		for i, c := range chunks {
			s, e := -1, -1
			if i+1 == n {
				s, e = span[0], span[1]
			}
			a.Citations = append(a.Citations, citation(i+1, c, docs, s, e))
		}
	}
	ground := func() {
		a.BadCitations, a.Unsupported = BadCitations(a.Text, len(chunks)), nil
		if tr != nil {
			tr.Grounding = nil
		}
		if a.Abstained {
			return
		}
		if tr != nil {
			tr.Grounding = groundSentences(a.Text, question, chunks, true)
			for _, v := range tr.Grounding {
				if !v.Supported {
					a.Unsupported = append(a.Unsupported, v.Sentence)
				}
			}
		} else {
			for _, v := range groundSentences(a.Text, question, chunks, false) {
				if !v.Supported {
					a.Unsupported = append(a.Unsupported, v.Sentence)
				}
			}
		}
	}
	release := func() {} // streams the checked answer, once timed
	if cfg.Generator == nil {
		extract()
		if cfg.OnDelta != nil {
			cfg.OnDelta(a.Text)
		}
		if tr != nil {
			tr.GenerateTime = since(&t0)
			tr.Abstained = a.Abstained
		}
		ground()
	} else {
		a.Model = cfg.Generator.Model()
		if tr != nil {
			tr.Prompt = a.Prompt
		}
		// The reader sees none of the answer before every check has run
		// on all of it (see Hold): the gate only sorts out, as it
		// streams in, the sentences stating a figure no source holds.
		hold := &holder{}
		gate := newSentenceGate(chunks, question)
		text, err := cfg.Generator.Generate(ctx, []fonte.Message{{Role: "user", Content: a.Prompt}}, func(s string) {
			hold.received(s)
			gate.write(s)
		})
		if err != nil {
			return nil, fmt.Errorf("answer: generating with %s: %w", a.Model, err)
		}
		if gate.received() == "" {
			gate.write(text) // a generator that did not stream
		}
		gate.close()
		a.Text = strings.TrimSpace(text)
		changed := ""
		if a.Abstained = IsDontKnow(a.Text); a.Abstained {
			a.Text = msgs.DontKnow // the prompt asks for DontKnow in English
		}
		if a.Abstained && tr != nil {
			tr.AbstainReason = fmt.Sprintf("the generator (%s) answered that it does not know", a.Model)
		}
		if tr != nil {
			tr.GenerateTime = since(&t0)
			tr.Abstained = a.Abstained
		}
		ground()
		cite := func() {
			a.Citations = nil
			for i, c := range chunks {
				s, e := quoteFor(a.Text, i+1, c)
				a.Citations = append(a.Citations, citation(i+1, c, docs, s, e))
			}
		}
		model := a.Model
		if reason := InjectionCheck(a, chunks); reason != "" {
			// The model followed text it was given as material, or
			// leaked its prompt: the reader gets the offline answer,
			// which only quotes sentences guard does not flag.
			changed = "replaced by the extractive answer: the injection check refused the model's (" + reason + ")"
			extract()
			ground()
			if tr != nil {
				tr.Abstained = a.Abstained
				if a.Abstained {
					tr.AbstainReason = fmt.Sprintf("the answer of %s was refused (%s) and the extractive answerer found no sentence to quote", model, reason)
				}
			}
		} else if len(gate.dropped) > 0 {
			// Sentences stating a figure that no source holds were left
			// out; they stay listed as unsupported (Answer.Unsupported
			// checks the model's answer as it was written). Without a
			// cited claim left, the reader gets the offline answer.
			if tr != nil {
				tr.Removed = gate.dropped
			}
			changed = fmt.Sprintf("removed %d sentence stating a figure no source holds", len(gate.dropped))
			if len(gate.dropped) > 1 {
				changed = fmt.Sprintf("removed %d sentences stating a figure no source holds", len(gate.dropped))
			}
			if kept := strings.TrimSpace(gate.kept.String()); citesASource(kept, len(chunks)) {
				a.Text = kept
				cite()
			} else {
				changed += ", then replaced by the extractive answer: no cited claim was left"
				extract()
				ground()
				if tr != nil {
					tr.Abstained = a.Abstained
					if a.Abstained {
						tr.AbstainReason = fmt.Sprintf("every claim of %s stated a figure no source holds, and the extractive answerer found no sentence to quote", model)
					}
				}
			}
		} else {
			cite()
		}
		if a.Abstained && changed == "" && a.Text != strings.TrimSpace(text) {
			changed = "the model's abstention, sent in the question's language"
		}
		release = func() { hold.release(a.Text, cfg.OnDelta, changed, tr) }
	}
	if tr != nil {
		tr.GroundingTime = since(&t0)
	}
	release()
	return a, nil
}

// InjectionCheck is the answer stage's check of a generated answer
// against the text it was given as material: it returns why the answer
// must not reach the reader, or "" when it may. An answer is refused when
//
//   - it leaks the prompt: it holds a fence mark (FenceMarks), the
//     prompt's nonce, or a sentence of the prompt's instructions;
//   - the context holds sentences that guard flags and the answer repeats
//     one of their quoted strings or four of their words in a row, or uses
//     a content word found only in them (an injected "refunds take 365
//     days" or "HACKED");
//   - it cites no source and shares no content word with the question
//     (an injected payload that guard did not flag);
//   - the context holds flagged sentences and the answer has unsupported
//     sentences or citations of no source (the injection may have led the
//     model away from the sources), or words that the sources it cites
//     hold only in flagged sentences (a dictated "it is closed [1]" whose
//     word "closed" another source holds too).
//
// An abstention is never refused. Ask answers offline instead of a
// refused answer.
func InjectionCheck(a *fonte.Answer, chunks []fonte.Chunk) string {
	if a.Abstained {
		return ""
	}
	text := stripCitations(a.Text)
	if FenceMarks(a.Text) {
		return "it repeats the prompt's fence marks"
	}
	if a.Prompt != "" {
		instructions, _, _ := strings.Cut(a.Prompt, "\n<<<SOURCE 1 ")
		if m := nonceRe.FindStringSubmatch(a.Prompt); m != nil && strings.Contains(a.Text, m[1]) {
			return "it repeats the prompt's nonce"
		}
		if echoes(a.Text, instructions, 6) {
			return "it repeats the prompt's instructions"
		}
	}
	if len(Citations(a.Text)) == 0 && a.Question != "" && !hasAny(ContentKeys(text), ContentKeys(a.Question)) {
		// An order guard does not recognise leaves this trace: a
		// payload ("ACCESS GRANTED") that neither cites a source nor
		// speaks of the question.
		return "it cites no source and shares no word with the question"
	}
	flagged := FlaggedSentences(chunks)
	if len(flagged) == 0 {
		return ""
	}
	lower := strings.ToLower(text)
	for _, f := range flagged {
		for _, m := range quotedRe.FindAllStringSubmatch(f, -1) {
			if q := strings.ToLower(strings.TrimSpace(m[1])); len(q) >= 3 && strings.Contains(lower, q) {
				return fmt.Sprintf("it repeats %q, quoted in a flagged passage", m[1])
			}
		}
	}
	for _, f := range flagged {
		if echoes(text, f, 4) {
			return "it repeats a flagged passage"
		}
	}
	// Content words of the sources outside flagged sentences.
	clean := map[string]bool{}
	for _, c := range chunks {
		for k := range ContentKeys(cleanText(c)) {
			clean[k] = true
		}
	}
	var only []string
	for k := range ContentKeys(strings.Join(flagged, " ")) {
		if !clean[k] {
			only = append(only, k)
		}
	}
	answerKeys := ContentKeys(text)
	var used []string
	for _, k := range only {
		if answerKeys[k] {
			used = append(used, k)
		}
	}
	if len(used) > 0 {
		slices.Sort(used)
		return fmt.Sprintf("it uses words found only in flagged passages: %s", strings.Join(used, ", "))
	}
	if len(a.Unsupported) > 0 {
		return "the context holds flagged passages and the answer is not supported by the sources"
	}
	if used := citedOnlyInFlagged(a, chunks); len(used) > 0 {
		return fmt.Sprintf("it uses words its cited sources hold only in flagged passages: %s", strings.Join(used, ", "))
	}
	if len(a.BadCitations) > 0 {
		return "the context holds flagged passages and the answer cites sources that do not exist"
	}
	return ""
}

// echoes reports whether text repeats n words in a row of source
// (compared lower-cased, punctuation ignored).
func echoes(text, source string, n int) bool {
	words := func(s string) []string {
		return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	}
	src := words(source)
	seen := make(map[string]bool, len(src))
	for i := 0; i+n <= len(src); i++ {
		seen[strings.Join(src[i:i+n], " ")] = true
	}
	tw := words(text)
	for i := 0; i+n <= len(tw); i++ {
		if seen[strings.Join(tw[i:i+n], " ")] {
			return true
		}
	}
	return false
}

var (
	nonceRe  = regexp.MustCompile(`<<<SOURCE \d+ ([0-9a-f]{8,})>>>`)
	quotedRe = regexp.MustCompile(`["“«]([^"“”«»\n]{2,80})["”»]`)
)

// FlaggedSentences returns the sentences of the chunks' text that guard
// flags: those holding or overlapping one of guard.Check's findings on the
// chunk, or that guard.Suspicious flags alone; and the chunks' titles and
// headings that guard flags, which a prompt without WithholdFlaggedLabels
// shows a model as a source's label.
func FlaggedSentences(chunks []fonte.Chunk) []string {
	var out []string
	for _, c := range chunks {
		for _, l := range append([]string{c.Title}, c.Headings...) {
			if guard.Suspicious(l) && !slices.Contains(out, l) {
				out = append(out, l)
			}
		}
		for _, sp := range flaggedSpans(c.Text) {
			out = append(out, c.Text[sp[0]:sp[1]])
		}
	}
	return out
}

// flaggedSpans returns the byte spans of text's flagged sentences.
func flaggedSpans(text string) [][2]int {
	findings := guard.Check(text)
	if len(findings) == 0 {
		return nil
	}
	var out [][2]int
	for _, sp := range chunk.SentenceSpans(text) {
		hit := guard.Suspicious(text[sp[0]:sp[1]])
		for _, f := range findings {
			if !hit && f.Start < sp[1] && f.End > sp[0] {
				hit = true
			}
		}
		if hit {
			out = append(out, sp)
		}
	}
	return out
}

// maskFlagged returns text with its flagged sentences blanked out.
func maskFlagged(text string) string {
	spans := flaggedSpans(text)
	if len(spans) == 0 {
		return text
	}
	b := []byte(text)
	for _, sp := range spans {
		for i := sp[0]; i < sp[1]; i++ {
			b[i] = ' '
		}
	}
	return string(b)
}

// abstainShowing makes a the abstention in its language, citing the
// first three hits as what was found.
func abstainShowing(a *fonte.Answer, msgs Messages, hits []fonte.Hit, docs map[string]fonte.Document) {
	a.Text, a.Abstained = msgs.DontKnow, true
	for i, h := range hits[:min(3, len(hits))] {
		a.Citations = append(a.Citations, citation(i+1, h.Chunk, docs, -1, -1))
	}
}

// floorDecision describes the floor's decision for a trace; best is the
// hit with the highest relevance (-1 without hits).
func floorDecision(hits []fonte.Hit, best int, relevance float64, cfg Config, abstained bool) FloorDecision {
	floor := cfg.Floor
	d := FloorDecision{Floor: floor, Relevance: relevance, Coverage: cfg.Coverage, Abstained: abstained}
	if best >= 0 {
		d.ChunkID = hits[best].Chunk.ID
	}
	var at int
	d.Judged, at = cfg.Coverage.judged(hits)
	verdict := "reaches"
	if abstained {
		verdict = "is below"
	}
	switch {
	case len(hits) == 0:
		d.Reason = "no hits: nothing matched the query"
	case cfg.Coverage == nil || at == best:
		d.Reason = fmt.Sprintf("the best relevance %.4f %s the floor %.4f", relevance, verdict, floor)
	case at < 0:
		d.Reason = fmt.Sprintf("no top passage holds %.0f%% of the question's weight, so none is compared with the floor %.4f (best relevance %.4f; %s)",
			100*cfg.Coverage.MinHeld, floor, relevance, cfg.Coverage.describe(held(cfg.Coverage, best)))
	default:
		d.Reason = fmt.Sprintf("%s; the best relevance of the passages that do, %.4f (%s), %s the floor %.4f",
			cfg.Coverage.describe(held(cfg.Coverage, best)), d.Judged, hits[at].Chunk.ID, verdict, floor)
	}
	return d
}

// held is the share of the question's weight hit i holds (1 when not
// covered).
func held(c *Coverage, i int) float64 {
	if c == nil || i < 0 || i >= len(c.Held) {
		return 1
	}
	return c.Held[i].Share
}

// IsDontKnow reports whether a generated answer is a refusal.
func IsDontKnow(text string) bool {
	t := strings.ToLower(strings.TrimSpace(text))
	t = strings.Trim(t, ".!\"' ")
	for _, p := range []string{"i don't know", "i do not know", "i don’t know", "non lo so", "non so"} {
		if t == p || strings.HasPrefix(t, p+".") || strings.HasPrefix(t, p+",") {
			return true
		}
	}
	return false
}

// citation describes chunk c as source n; start and end are the quoted
// span inside the chunk's text, or -1 for "no particular sentence".
func citation(n int, c fonte.Chunk, docs map[string]fonte.Document, start, end int) fonte.Citation {
	cit := fonte.Citation{N: n, DocID: c.DocID, Title: c.Title, Headings: c.Headings, Page: c.Page, Chunk: c,
		Source: c.DocID, Start: c.Start, End: c.End, Quote: c.Text}
	if d, ok := docs[c.DocID]; ok {
		cit.Source, cit.Updated, cit.DocSHA256 = d.Source, d.Updated, d.SHA256
		if cit.Title == "" {
			cit.Title = d.Title
		}
	}
	if start >= 0 && end > start && end <= len(c.Text) {
		cit.Quote = c.Text[start:end]
		// A table row chunk's text ("Column: value" pairs) is longer than
		// its span (the row's line): offsets into the text are not offsets
		// into the document, so such a citation keeps the row's span.
		if c.End-c.Start == len(c.Text) {
			cit.Start, cit.End = c.Start+start, c.Start+end
		}
	}
	return cit
}

// keyAnalyzers extract content keys in both of fonte's languages: stems of
// the words that are not function words in either, so a key matches
// inflected forms and an Italian stop word never counts as evidence, and
// the words less their last vowel, where the two numbers of an Italian
// noun meet when the stemmer parts them (inflectionKeys).
var keyAnalyzers = func() []analysis.Analyzer {
	stops := analysis.NewStopFilter(analysis.ContentStopWords)
	// An acronym's plural is the acronym ("SLIs", "API") in every chain,
	// as in the English one and the retrieval's Italian content words.
	plurals := []analysis.CharFilter{analysis.AcronymPlurals{}}
	return []analysis.Analyzer{
		analysis.NewEnglish(analysis.ContentStopWords),
		&analysis.Chain{Cased: plurals, Lowercase: true, Tokenizer: analysis.IdentifierTokenizer{}, Filters: []analysis.Filter{stops, analysis.ItalianStemmer()}},
		&analysis.Chain{Cased: plurals, Lowercase: true, Tokenizer: analysis.IdentifierTokenizer{}, Filters: []analysis.Filter{stops, analysis.FilterFunc(inflectionKeys)}},
	}
}()

// ContentKeys returns the content keys of text: English and Italian stems
// of its words, function words removed.
func ContentKeys(text string) map[string]bool {
	keys := map[string]bool{}
	for _, an := range keyAnalyzers {
		for _, k := range an.Analyze(text) {
			keys[k] = true
		}
	}
	return keys
}

// withList widens sentence j of text to the list it introduces or belongs
// to: a sentence ending in ":" is quoted with the items that follow, and a
// list item with the sentence that introduces it, because either alone
// rarely answers ("Annual leave accrues as follows:" / "- 15+ years: 8
// hours"). At most maxItems items are added.
func withList(text string, spans [][2]int, j int) [2]int {
	const maxItems = 6
	// An item opens its line with a bullet or a number; the sentences
	// after it on the same line are its own (the splitter may cut "1."
	// from an item's text), counted with it as one item.
	opens := make([]bool, len(spans))
	inItem := make([]bool, len(spans))
	for k, sp := range spans {
		t := text[sp[0]:sp[1]]
		d := 0
		for d < len(t) && t[d] >= '0' && t[d] <= '9' {
			d++
		}
		opens[k] = strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") ||
			d > 0 && d < len(t) && (t[d] == '.' || t[d] == ')') && (d+1 == len(t) || t[d+1] == ' ')
		inItem[k] = opens[k] || k > 0 && inItem[k-1] && (!strings.Contains(text[spans[k-1][1]:sp[0]], "\n") || wrapped(text, spans[k-1], sp))
	}
	cut := func(k int) bool { return inItem[k] && !opens[k] }
	// items counts the items among spans a..b.
	items := func(a, b int) int {
		n := 0
		for k := a; k <= b; k++ {
			if !cut(k) {
				n++
			}
		}
		return n
	}
	isItem := func(k int) bool { return inItem[k] }
	intro := func(k int) bool { return strings.HasSuffix(strings.TrimSpace(text[spans[k][0]:spans[k][1]]), ":") }
	// indent is the width of the blanks before span k on its line, -1
	// when the span does not open its line.
	indent := func(k int) int {
		pre := text[strings.LastIndexByte(text[:spans[k][0]], '\n')+1 : spans[k][0]]
		if strings.Trim(pre, " \t") != "" {
			return -1
		}
		return len(pre)
	}
	if isItem(j) && indent(j) > 0 {
		// A nested item is read under its parent item ("- Three to
		// five weeks in advance for:" / "  - Conference events that
		// cost more than $2,500"), not under the list's intro, whose
		// other items state other cases.
		for p := j - 1; p >= 0 && items(p+1, j) <= maxItems; p-- {
			if in := indent(p); in >= 0 && in < indent(j) {
				if isItem(p) || intro(p) {
					return [2]int{spans[p][0], spans[j][1]}
				}
				break
			}
		}
	}
	start, end := j, j
	if isItem(j) {
		// An item that ends in ":" introduces the items under it ("- the
		// guidelines to follow, for example:" / "- Design guidelines"),
		// which a flattened list no longer indents.
		for start > 0 && isItem(start-1) && !intro(start-1) && (items(start, j) < maxItems || cut(start)) {
			start--
		}
		if start > 0 && intro(start-1) {
			start--
			for start > 0 && cut(start) {
				start-- // an item's own intro ("… su Developers Italia. In particolare:") is read with the item
			}
		} else {
			start = j // not an introduced list: the item alone
		}
	}
	if !isItem(j) && !intro(j) && announcesList(text[spans[j][0]:spans[j][1]]) {
		// "You will need to submit the following paperwork. Note: …"
		// and then the list: the sentence that announces a list is
		// quoted with it when at most one sentence of the same
		// paragraph comes between.
		for k := j + 1; k < len(spans) && k <= j+2; k++ {
			gap := text[spans[k-1][1]:spans[k][0]]
			if strings.Count(gap, "\n") > 2 || headingLine(text, spans[k]) {
				break
			}
			if isItem(k) {
				end = k
				for end+1 < len(spans) && isItem(end+1) && (items(k, end) < maxItems || cut(end+1)) {
					end++
				}
				break
			}
			if strings.Contains(gap, "\n\n") {
				break // a sentence of another paragraph before any item
			}
		}
	}
	if intro(j) || (start < j && intro(start)) {
		for end+1 < len(spans) && isItem(end+1) && (items(start+1, end) < maxItems || cut(end+1)) {
			end++
		}
	}
	if intro(j) && end == j {
		end = example(text, spans, j)
	}
	return [2]int{spans[start][0], spans[end][1]}
}

// example returns the last span of the example that intro sentence j
// of text announces when no list follows it ("structure your commit
// message like:" / "TICKET-123: Add a new feature" / "Co-authored-by:
// …"): the whole lines after it that are no sentence of prose nor a
// quotation ("| …"), up to
// maxExample of them and maxWidenBytes in all; j itself when there are
// none.
func example(text string, spans [][2]int, j int) int {
	const maxExample = 3
	end := j
	for k := j + 1; k < len(spans) && k <= j+maxExample; k++ {
		line := text[spans[k][0]:spans[k][1]]
		whole := spans[k][1] == len(text) || text[spans[k][1]] == '\n'
		if strings.Count(text[spans[k-1][1]:spans[k][0]], "\n") > 2 || spans[k][1]-spans[j][0] > maxWidenBytes || prose(line) || !whole || strings.HasPrefix(line, "|") {
			break // prose, a quotation or a line cut short is no example
		}
		end = k
	}
	return end
}

// prose reports whether s is a sentence of prose: six words or more,
// ended by a full stop, an exclamation or a question mark.
func prose(s string) bool {
	s = strings.TrimSpace(s)
	return s != "" && strings.ContainsAny(s[len(s)-1:], ".!?") && len(wordSpans(s)) >= 6
}

// wrapped reports whether span b of text goes on the list item that span
// a ends: it is on the next line, opens no item and starts with a small
// letter or a bracket, and a ends no sentence or clause ("- Linee Guida
// AgID sul Design" / "(che includono … la Legge 4/2004);").
func wrapped(text string, a, b [2]int) bool {
	gap, prev, next := text[a[1]:b[0]], strings.TrimSpace(text[a[0]:a[1]]), text[b[0]:b[1]]
	if strings.Count(gap, "\n") != 1 || strings.Trim(gap, " \t\n") != "" || prev == "" || strings.ContainsAny(prev[len(prev)-1:], ".;:!?") || listItem(next) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(next)
	return r == '(' || unicode.IsLower(r)
}

// announcesListRE: the words with which a sentence announces the list
// after it ("the following documents", "as follows", "i seguenti
// documenti", "di seguito").
var announcesListRE = regexp.MustCompile(`(?i)\b(?:the following|as follows|(?:listed|shown|set out|described) below|seguent[ei]|di seguito|come segue|qui sotto|elencat[ie] sotto)\b`)

// announcesList reports whether sentence s announces a list.
func announcesList(s string) bool { return announcesListRE.MatchString(s) }

func hasAny(keys, want map[string]bool) bool {
	for k := range want {
		if keys[k] {
			return true
		}
	}
	return false
}

// UnsupportedSentences returns the sentences of answer that the sources
// they cite ([n] markers), or any source when they cite none, do not
// support (a sentence citing only sources that do not exist is never
// supported). A sentence is supported when
//
//   - every figure it states is held by those sources, written in English
//     or Italian format ("1,000.50", "1.000,50") or as a number word
//     ("two", "dieci"): a changed figure is never a paraphrase;
//   - and at least MinSupport of its other content words are found there,
//     a word matching inflected and derived forms (stems sharing their
//     first five letters), so that a person's paraphrase passes and a
//     sentence taken from another passage does not;
//   - and the sources it cites hold at least MinEvidence of the evidence
//     for it: its words that some source holds, weighted by rarity among
//     the sources (see SentenceVerdict.Evidence). When the answer and
//     every source checked are in different languages (an Italian answer
//     from English sources), or the answer is too short to tell its
//     language (Ask then takes the question's), words cannot be compared
//     and only figures are.
//
// A sentence of only function words, or a refusal, is never flagged.
func UnsupportedSentences(answer string, chunks []fonte.Chunk) []string {
	var out []string
	for _, v := range groundSentences(answer, "", chunks, false) {
		if !v.Supported {
			out = append(out, v.Sentence)
		}
	}
	return out
}

// MinSupport is the share of a sentence's content words (figures aside)
// that its sources must hold for UnsupportedSentences to count it
// supported. Half lets a paraphrase use its own words for half of what
// it says, while a sentence built from another passage's facts shares
// little beyond the topic's words with the passage it cites.
const MinSupport = 0.5

// MinEvidence is the share of a sentence's evidence (its content keys
// that some source holds, weighted by rarity among the sources) that the
// sources it cites must hold: a sentence whose rare words are in another
// source than the one it cites was taken from that other source.
const MinEvidence = 0.5

// groundSentences checks every sentence of answer as UnsupportedSentences
// describes. Without detail it leaves Missing and the supporting source
// out.
//
// question, when known, lends the answer its language when the answer is
// too short to tell its own. Its figures do not count as held: "Yes, up to
// 200 euro" to "Can I spend 200 euro?" is flagged unless a source says 200
// (the gate in Ask lets such a sentence through, flagged).
func groundSentences(answer, question string, chunks []fonte.Chunk, detail bool) []SentenceVerdict {
	g := newGrounder(answer, question, chunks)
	var out []SentenceVerdict
	for _, s := range Sentences(answer) {
		out = append(out, g.verdict(s, detail))
	}
	return out
}

// grounder checks sentences of one answer against its sources, keeping
// each source's keys, figures and language once computed.
type grounder struct {
	chunks     []fonte.Chunk
	answerLang string
	keys       []keyIndex
	figures    []map[string]bool
	langs      []string
	done       []bool
}

func newGrounder(answer, question string, chunks []fonte.Chunk) *grounder {
	lang := analysis.DetectLanguage(question)
	plain := stripCitations(answer)
	if l := cmp.Or(analysis.DetectLanguage(plain), shortLanguage(plain)); l != "" {
		lang = l
	}
	return &grounder{chunks: chunks, answerLang: lang,
		keys: make([]keyIndex, len(chunks)), figures: make([]map[string]bool, len(chunks)),
		langs: make([]string, len(chunks)), done: make([]bool, len(chunks))}
}

// source computes what the checks need of chunk i.
func (g *grounder) source(i int) {
	if g.done[i] {
		return
	}
	text := chunk.Enriched(g.chunks[i])
	g.keys[i] = newKeyIndex(ContentKeys(text))
	g.figures[i] = figureSet(text, true)
	g.langs[i] = analysis.DetectLanguage(g.chunks[i].Text)
	g.done[i] = true
}

// checked returns the 1-based numbers of the sources sentence s is
// checked against: those it cites that exist (none when it cites only
// sources that do not), or all when it cites none.
func (g *grounder) checked(s string) []int {
	var out []int
	cited := Citations(s)
	for _, n := range cited {
		if n >= 1 && n <= len(g.chunks) {
			out = append(out, n)
		}
	}
	if len(cited) == 0 {
		for i := range g.chunks {
			out = append(out, i+1)
		}
	}
	return out
}

// verdict checks one sentence.
func (g *grounder) verdict(s string, detail bool) SentenceVerdict {
	v := SentenceVerdict{Sentence: s, Supported: true, Score: 1}
	plain := stripCitations(s)
	words := contentWords(plain)
	figures := Figures(listMarkerRe.ReplaceAllString(plain, ""))
	if len(words) == 0 && len(figures) == 0 || IsDontKnow(s) {
		return v
	}
	v.Checked = true
	v.Cited = Citations(s)
	checked := g.checked(s)
	// Words are compared only when the answer's language is known and
	// a source checked is in it (or of no language told): an Italian
	// answer shares few words with its English sources.
	sameLanguage := len(checked) == 0
	for _, n := range checked {
		g.source(n - 1)
		if g.answerLang != "" && (g.langs[n-1] == "" || g.langs[n-1] == g.answerLang) {
			sameLanguage = true
		}
	}
	for _, f := range figures {
		if slices.ContainsFunc(checked, func(n int) bool { return figureHeld(f, g.figures[n-1]) }) {
			continue
		}
		v.WrongFigures = append(v.WrongFigures, f)
		anywhere := false
		for i := range g.chunks {
			g.source(i)
			anywhere = anywhere || figureHeld(f, g.figures[i])
		}
		if !anywhere {
			v.Invented = append(v.Invented, f)
		}
	}
	// Evidence: of the keys some source holds, the share the checked
	// sources hold, each key weighted by how few sources hold it (a word
	// every source has says nothing about which one supports the
	// sentence).
	found, evidence, held := 0, 0.0, 0.0
	for _, w := range words {
		ok, df := false, 0
		for i := range g.chunks {
			g.source(i)
			if g.keys[i].hasWord(w) {
				df++
			}
		}
		for _, n := range checked {
			if g.keys[n-1].hasWord(w) {
				ok = true
				break
			}
		}
		if df > 0 {
			weight := math.Log(1 + float64(len(g.chunks))/float64(df))
			evidence += weight
			if ok {
				held += weight
			}
		}
		if ok {
			found++
		} else if detail {
			v.Missing = append(v.Missing, w...)
		}
	}
	if len(words) > 0 {
		v.Score = float64(found) / float64(len(words))
	}
	v.Evidence = 1
	if evidence > 0 {
		v.Evidence = held / evidence
	}
	v.Supported = len(v.WrongFigures) == 0 && len(checked) > 0 &&
		(!sameLanguage || v.Score >= MinSupport && v.Evidence >= MinEvidence)
	if detail {
		slices.Sort(v.Missing)
		most := 0
		for _, n := range checked {
			shared := 0
			for _, w := range words {
				if g.keys[n-1].hasWord(w) {
					shared++
				}
			}
			if shared > most {
				most, v.Source, v.ChunkID = shared, n, g.chunks[n-1].ID
			}
		}
	}
	return v
}

// contentWords returns the content words of text, each as its content
// keys (its English and Italian stems), leaving out keys with digits,
// which are checked as figures; a word is found when any of its keys is,
// so a word one analysis stems and the other does not counts once.
func contentWords(text string) [][]string {
	var out [][]string
	seen := map[string]bool{}
	for _, f := range strings.Fields(text) {
		var keys []string
		for k := range ContentKeys(f) {
			if strings.IndexFunc(k, unicode.IsDigit) < 0 {
				keys = append(keys, k)
			}
		}
		if len(keys) == 0 {
			continue
		}
		slices.Sort(keys)
		if id := strings.Join(keys, " "); !seen[id] {
			seen[id] = true
			out = append(out, keys)
		}
	}
	return out
}

// quoteFor picks, in chunk c cited as [n], the sentence sharing most
// content keys with the answer's sentences that cite n; -1, -1 when the
// answer does not cite n.
func quoteFor(answer string, n int, c fonte.Chunk) (int, int) {
	var citing []string
	for _, s := range Sentences(answer) {
		if slices.Contains(Citations(s), n) {
			citing = append(citing, stripCitations(s))
		}
	}
	if len(citing) == 0 {
		return -1, -1
	}
	want := ContentKeys(strings.Join(citing, " "))
	best, bs, be := 0, -1, -1
	for _, sp := range chunk.SentenceSpans(c.Text) {
		shared := 0
		for k := range ContentKeys(c.Text[sp[0]:sp[1]]) {
			if want[k] {
				shared++
			}
		}
		if shared > best {
			best, bs, be = shared, sp[0], sp[1]
		}
	}
	return bs, be
}

// shortLanguage tells English from Italian in a text too short for
// analysis.DetectLanguage ("Ctrl-A seguito da un tasto"): the language
// with more of its function words that are not the other's; "" on a tie.
// The pronoun "I" inside the text is English (the Italian article is
// written "i" there), as analysis.LanguageEvidence reads it: "Do I need a
// visa?" is not Italian; as the first word it could open either.
func shortLanguage(text string) string {
	en, it := 0, 0
	for n, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if w == "I" {
			if n > 0 {
				en++
			}
			continue
		}
		w = strings.ToLower(w)
		e, i := analysis.LuceneEnglishStopWords.Has(w), analysis.ItalianStopWords.Has(w)
		switch {
		case e && !i:
			en++
		case i && !e:
			it++
		}
	}
	switch {
	case en > it:
		return "en"
	case it > en:
		return "it"
	}
	return ""
}

// listMarkerRe matches a list item's number ("1. ", "2) ") at the start of
// a line, which is not a figure the sources must hold.
var listMarkerRe = regexp.MustCompile(`(?m)^\s*\d{1,2}[.)](?:\s+|$)`)

// asideRe matches a parenthesised aside (not nested).
var asideRe = regexp.MustCompile(`\([^()]*\)`)

// citesASource reports whether text cites one of the sources 1..n.
func citesASource(text string, n int) bool {
	return slices.ContainsFunc(Citations(text), func(c int) bool { return c >= 1 && c <= n })
}

// sentenceGate sorts a model's answer as it streams in, one sentence at
// a time once the next has begun: it keeps the sentences that do not
// state, outside a parenthesised aside, a figure that the sources they
// cite do not hold (any source, for a sentence that cites none; in any
// format: see Figures), and leaves out those that do. The reader sees
// neither before Ask has checked the whole answer (see Hold).
type sentenceGate struct {
	figures []map[string]bool // the figures each source holds
	all     map[string]bool   // the figures any source holds
	given   map[string]bool   // the figures of the question
	buf     strings.Builder   // the text received
	done    int               // bytes of buf decided on
	kept    strings.Builder   // the text kept
	dropped []string          // the sentences left out
}

// newSentenceGate returns a gate for an answer to question from chunks.
// The question's figures are let through, since an answer may restate
// what the asker said ("with 5 years of service …"); they are still
// flagged when the sources do not hold them (UnsupportedSentences).
func newSentenceGate(chunks []fonte.Chunk, question string) *sentenceGate {
	g := &sentenceGate{all: map[string]bool{}, given: figureSet(question, true)}
	for _, c := range chunks {
		fs := figureSet(chunk.Enriched(c), true)
		g.figures = append(g.figures, fs)
		for f := range fs {
			g.all[f] = true
		}
	}
	return g
}

// received is the text received so far.
func (g *sentenceGate) received() string { return g.buf.String() }

// write receives a piece of the answer.
func (g *sentenceGate) write(s string) {
	g.buf.WriteString(s)
	g.decide(false)
}

// close decides on the rest of the answer.
func (g *sentenceGate) close() { g.decide(true) }

// decide keeps or leaves out every sentence that is complete: all but
// the last before the end, and all at the end. A sentence followed only
// by the start of a citation marker ("… days. [") may still take the
// marker, so it waits.
func (g *sentenceGate) decide(final bool) {
	rest := g.buf.String()[g.done:]
	spans := sentenceSpans(rest)
	n := len(spans)
	if !final {
		n--
		if n > 0 && citationPrefix(rest[spans[n][0]:]) {
			n--
		}
	}
	for i := 0; i < n; i++ {
		start, end := 0, len(rest)
		if i > 0 {
			start = spans[i][0]
		}
		if i+1 < len(spans) {
			end = spans[i+1][0]
		}
		if s := rest[spans[i][0]:spans[i][1]]; g.invents(s) {
			g.dropped = append(g.dropped, s)
			continue
		}
		g.kept.WriteString(rest[start:end])
	}
	switch {
	case n <= 0:
	case n < len(spans):
		g.done += spans[n][0]
	default:
		g.done += len(rest)
	}
}

// invents reports whether sentence s states, outside its parenthesised
// asides, a figure in digits that the sources it cites do not hold. A figure in an aside
// is context rather than the answer; it is only flagged
// (UnsupportedSentences).
func (g *sentenceGate) invents(s string) bool {
	held := g.all
	if cited := Citations(s); len(cited) > 0 {
		held = map[string]bool{}
		for _, n := range cited {
			if n >= 1 && n <= len(g.figures) {
				maps.Copy(held, g.figures[n-1])
			}
		}
	}
	s = asideRe.ReplaceAllString(listMarkerRe.ReplaceAllString(stripCitations(s), ""), " ")
	// Numerals only: a number word ("you have two options") is as often
	// a casual count as a figure copied from the sources, so it is only
	// flagged (UnsupportedSentences).
	for _, f := range numeralRe.FindAllString(s, -1) {
		if !figureHeld(f, held) && !figureHeld(f, g.given) {
			return true
		}
	}
	return false
}

// citationPrefix reports whether s could be the start of a citation
// marker still being written: "[", then only digits, commas and spaces.
func citationPrefix(s string) bool {
	if s == "" || s[0] != '[' || len(s) > 64 {
		return false
	}
	return strings.Trim(s[1:], "0123456789, ") == ""
}
