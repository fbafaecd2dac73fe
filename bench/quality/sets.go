package main

import (
	"fmt"
	"strings"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/analysis"
	"github.com/fonte-rag/fonte/chunk"
	"github.com/fonte-rag/fonte/eval"
	"github.com/fonte-rag/fonte/ingest"
)

// Set is one evaluation set: chunks as the product indexes them and
// queries with the judgments that score a ranking of chunk numbers.
type Set struct {
	Name    string
	Chunks  []fonte.Chunk
	Texts   []string // chunk.Enriched of each chunk: what retrieve indexes
	Langs   []string // each chunk's document language ("" when unknown)
	Queries []Query
	// Judge turns one ranking of chunk numbers per query id into the
	// judgments and run that `fonte eval` scores.
	Judge func(run map[string][]int) (eval.Qrels, eval.Run)
}

// Query is one judged query and the language the engine would analyse it
// in ("" for every language of the corpus).
type Query struct {
	ID, Text, Lang string
}

// Languages returns the distinct chunk languages, sorted as retrieve sorts
// them.
func (s *Set) Languages() []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range s.Langs {
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	sortStrings(out)
	return out
}

// LoadBEIRSet loads a BEIR data set as `fonte eval --beir` indexes it: one
// chunk per document (title, then text), language unknown, every query
// analysed as English. Only _id, title and text are read (eval.LoadBEIR
// never decodes query metadata).
func LoadBEIRSet(name, dir string) (*Set, error) {
	b, err := eval.LoadBEIR(dir, "test")
	if err != nil {
		return nil, err
	}
	s := &Set{Name: name}
	for _, d := range b.Corpus {
		c := fonte.Chunk{ID: d.ID + "#0", DocID: d.ID, Title: d.Title, Text: d.Text, End: len(d.Text)}
		s.Chunks = append(s.Chunks, c)
		s.Texts = append(s.Texts, chunk.Enriched(c))
		s.Langs = append(s.Langs, "")
	}
	for _, q := range b.Queries {
		s.Queries = append(s.Queries, Query{ID: q.ID, Text: q.Text, Lang: "en"})
	}
	s.Judge = func(run map[string][]int) (eval.Qrels, eval.Run) {
		r := eval.Run{}
		for id, ranked := range run {
			hits := make([]fonte.Hit, len(ranked))
			for i, c := range ranked {
				hits[i] = fonte.Hit{Chunk: s.Chunks[c]}
			}
			r[id] = eval.DocIDs(hits)
		}
		return b.Qrels, r
	}
	return s, nil
}

// LoadQuestionSet loads a folder of documents and a question file as
// `fonte index DIR` and `fonte eval --questions FILE` see them: each file
// parsed by ingest, cut by the default structure chunker (with the engine's
// rule that a top heading repeating the title leaves the heading path),
// each question analysed in the language analysis.DetectLanguage finds, and
// chunks judged by the gold quotes they hold. Unanswerable questions are
// left out: they do not enter the retrieval figures.
func LoadQuestionSet(name, root, questions string) (*Set, error) {
	s := &Set{Name: name}
	st := chunk.DefaultStructure()
	st.MinWords = min(st.MinWords, st.MaxWords/4) // as engine.Settings does
	err := ingest.Walk(root, ingest.WalkOptions{}, func(en ingest.Entry) error {
		if en.Parsed == nil {
			return nil
		}
		p := en.Parsed
		blocks := make([]chunk.Block, len(p.Blocks))
		for i, b := range p.Blocks {
			blocks[i] = chunk.Block{Kind: chunk.BlockKind(b.Kind), Level: b.Level, Text: b.Text, Headings: b.Headings,
				Start: b.Start, End: b.End, Page: b.Page}
		}
		for _, c := range st.Split(p.Doc, blocks) {
			if h := c.Headings; len(h) > 0 && strings.EqualFold(strings.TrimSpace(h[0]), strings.TrimSpace(p.Doc.Title)) {
				c.Headings = h[1:]
			}
			s.Chunks = append(s.Chunks, c)
			s.Texts = append(s.Texts, chunk.Enriched(c))
			s.Langs = append(s.Langs, p.Doc.Language)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(s.Chunks) == 0 {
		return nil, fmt.Errorf("%s: no chunks", root)
	}
	qs, err := eval.LoadQuestions(questions)
	if err != nil {
		return nil, err
	}
	var answerable []eval.Question
	for _, q := range qs {
		if q.Unanswerable || len(q.Gold) == 0 {
			continue
		}
		answerable = append(answerable, q)
		s.Queries = append(s.Queries, Query{ID: q.ID, Text: q.Question, Lang: analysis.DetectLanguage(q.Question)})
	}
	s.Judge = func(run map[string][]int) (eval.Qrels, eval.Run) {
		hits := map[string][]fonte.Hit{}
		for id, ranked := range run {
			h := make([]fonte.Hit, len(ranked))
			for i, c := range ranked {
				h[i] = fonte.Hit{Chunk: s.Chunks[c]}
			}
			hits[id] = h
		}
		return eval.QuestionRun(answerable, hits)
	}
	return s, nil
}

// Score is the retrieval block of a run and its per-query nDCG@10.
func (s *Set) Score(run map[string][]int) (eval.Retrieval, map[string]float64) {
	qrels, r := s.Judge(run)
	return eval.ScoreRun(qrels, r), eval.PerQuery(qrels, r, eval.NDCGAt(10))
}
