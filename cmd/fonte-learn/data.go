package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/analysis"
	"github.com/fonte-rag/fonte/answer"
	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/eval"
	"github.com/fonte-rag/fonte/internal/evalsets"
)

// Row is one candidate sentence: its label (it holds the gold quote),
// the answerer's score and the features.
type Row struct {
	Label bool `json:"label"`
	// QuoteLabel: the quote the answerer gives when it picks this
	// sentence (with its list, the sentences going on) holds the gold.
	QuoteLabel bool      `json:"quote_label"`
	Score      float64   `json:"score"`
	Features   []float64 `json:"features"`
	Text       string    `json:"text,omitempty"`
}

// Item is one answerable dev question in one setting (the gold passages
// given, or the top retrieved ones): its candidate sentences and the one
// the answerer quotes (-1: none).
type Item struct {
	Set     string `json:"set"`
	Lang    string `json:"lang"`
	ID      string `json:"id"`
	Fresh   bool   `json:"fresh"` // an h-fresh14 question: out of sample for the rules
	Setting string `json:"setting"`
	QType   int    `json:"qtype"` // answer.QuestionType of the question
	Picked  int    `json:"picked"`
	Rows    []Row  `json:"rows"`
}

// devAnswerable loads a set's dev questions that carry gold quotes. Test
// questions are dropped as they are read: they are never looked at.
func devAnswerable(path string) ([]eval.Question, error) {
	qs, err := eval.LoadQuestions(path)
	if err != nil {
		return nil, err
	}
	var out []eval.Question
	for _, q := range qs {
		if q.Split == eval.SplitDev && !q.Unanswerable && len(q.Gold) > 0 {
			out = append(out, q)
		}
	}
	return out, nil
}

// buildSet indexes a set's documents under work and returns its items.
func buildSet(ctx context.Context, root, work string, s evalsets.Set, texts bool) ([]Item, error) {
	qs, err := devAnswerable(filepath.Join(root, s.Questions))
	if err != nil {
		return nil, err
	}
	e, err := engine.Open(ctx, engine.Settings{IndexDir: filepath.Join(work, s.Name)}, engine.OpenOptions{})
	if err != nil {
		return nil, err
	}
	defer e.Close()
	if _, err := e.Index(ctx, filepath.Join(root, s.Docs), nil); err != nil {
		return nil, err
	}
	k := max(e.Settings().K, 10)
	var out []Item
	for _, q := range qs {
		lang := setLanguage(s.Name)
		if lang == "" {
			lang = analysis.QuestionLanguage(q.Question)
		}
		base := Item{Set: s.Name, Lang: lang, ID: q.ID, Fresh: strings.Contains(q.ID, "h14-"), QType: int(answer.QuestionType(q.Question))}
		gold, err := goldChunks(ctx, e, q)
		if err != nil {
			return nil, err
		}
		if len(gold) > 0 {
			it := base
			it.Setting = "gold"
			it.Picked, it.Rows = rows(q, gold, texts)
			out = append(out, it)
		}
		hits, err := e.Search(ctx, q.Question, engine.SearchOptions{K: k})
		if err != nil {
			return nil, err
		}
		var top []fonte.Chunk
		for _, h := range hits {
			top = append(top, h.Chunk)
		}
		it := base
		it.Setting = "retrieved"
		it.Picked, it.Rows = rows(q, top, texts)
		out = append(out, it)
	}
	return out, nil
}

// setLanguage reads a set's language from its name's suffix ("" when it
// has none: the handbook sets mix English and Italian).
func setLanguage(name string) string {
	switch {
	case strings.HasSuffix(name, "-en"):
		return "en"
	case strings.HasSuffix(name, "-it"):
		return "it"
	}
	return ""
}

// goldChunks returns, for each gold quote, the first chunk of its
// document that holds it, as the engine's evaluation gives the answerer
// the gold passage.
func goldChunks(ctx context.Context, e *engine.Engine, q eval.Question) ([]fonte.Chunk, error) {
	var out []fonte.Chunk
	for _, g := range q.Gold {
		rec, err := e.Document(ctx, g.Doc)
		if err != nil {
			return nil, fmt.Errorf("question %s: %w", q.ID, err)
		}
		for _, c := range rec.Chunks {
			if eval.IsHit(eval.Question{Gold: []eval.Gold{g}}, c.DocID, c.Text) {
				out = append(out, c)
				break
			}
		}
	}
	return out, nil
}

// rows returns the candidates of q over chunks, labelled, and the index
// of the one the answerer quotes.
func rows(q eval.Question, chunks []fonte.Chunk, texts bool) (int, []Row) {
	cands, picked := answer.Candidates(q.Question, chunks)
	out := make([]Row, len(cands))
	for i, c := range cands {
		ch := chunks[c.Chunk]
		out[i] = Row{Label: holdsGold(q, ch, c.Span), QuoteLabel: holdsGold(q, ch, c.Quote), Score: c.Score, Features: c.Features}
		if texts {
			out[i].Text = c.Text
		}
	}
	return picked, out
}

// holdsGold reports whether the sentence at span of chunk c holds a gold
// quote of q: the two overlap by at least half of the shorter, so a
// sentence holding the whole quote does, and so does each sentence of a
// quote that runs over several, matched as eval.IsHit matches (spaces
// and curly quotes normalised).
func holdsGold(q eval.Question, c fonte.Chunk, span [2]int) bool {
	for _, g := range q.Gold {
		if g.Doc != c.DocID || !eval.IsHit(eval.Question{Gold: []eval.Gold{g}}, c.DocID, c.Text) {
			continue
		}
		start, end, ok := locate(c.Text, g.Quote)
		if !ok {
			continue
		}
		lo, hi := max(start, span[0]), min(end, span[1])
		if hi-lo > 0 && 2*(hi-lo) >= min(end-start, span[1]-span[0]) {
			return true
		}
	}
	return false
}

// locate returns the byte span of quote in text, both read as eval.IsHit
// reads them: runs of spaces as one, curly quotes as straight ones.
func locate(text, quote string) (int, int, bool) {
	nt, from, to := normalized(text)
	nq, _, _ := normalized(quote)
	i := strings.Index(nt, nq)
	if i < 0 || nq == "" {
		return 0, 0, false
	}
	return from[i], to[i+len(nq)-1], true
}

// normalized returns s with spaces and quotes normalised and, for each
// byte of the result, where the rune of s it comes from starts and ends.
func normalized(s string) (string, []int, []int) {
	var b strings.Builder
	var from, to []int
	pending := false
	for i, r := range s {
		size := utf8.RuneLen(r)
		switch r {
		case '\u2018', '\u2019':
			r = '\''
		case '\u201C', '\u201D':
			r = '"'
		}
		if unicode.IsSpace(r) {
			pending = b.Len() > 0
			continue
		}
		if pending {
			b.WriteByte(' ')
			from, to = append(from, i), append(to, i)
			pending = false
		}
		n := b.Len()
		b.WriteRune(r)
		for range b.Len() - n {
			from, to = append(from, i), append(to, i+size)
		}
	}
	return b.String(), from, to
}
