package seeds

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/analysis"
	"github.com/fonte-rag/fonte/answer"
	"github.com/fonte-rag/fonte/chunk"
	"github.com/fonte-rag/fonte/embed"
	"github.com/fonte-rag/fonte/eval"
	"github.com/fonte-rag/fonte/fusion"
	"github.com/fonte-rag/fonte/lexical"
	"github.com/fonte-rag/fonte/vector"
)

// Report is every figure fonte computes for the three seeds. Its JSON form
// is what `fonte reproduce --json` prints.
type Report struct {
	Seed000 Report000 `json:"seed000"`
	Seed001 Report001 `json:"seed001"`
	Seed002 Report002 `json:"seed002"`
}

// WindowRow is one line of seed 000's chunking table.
type WindowRow struct {
	Size    int  `json:"size"`
	Overlap int  `json:"overlap"`
	Chunks  int  `json:"chunks"`
	Whole   bool `json:"whole"`
}

// RankReport is a retriever's rank of the gold passage for each question
// and the measures derived from it.
type RankReport struct {
	Vocabulary int     `json:"vocabulary"`
	Passages   int     `json:"passages"`
	Ranks      []int   `json:"ranks"`
	Hit1       int     `json:"hit1"`
	Hit3       int     `json:"hit3"`
	MRR        float64 `json:"mrr"`
}

// LSARow is one line of seed 000's LSA table.
type LSARow struct {
	K    int     `json:"k"`
	Hit1 int     `json:"hit1"`
	Hit3 int     `json:"hit3"`
	MRR  float64 `json:"mrr"`
}

// IVFRow is one line of seed 000's IVF experiment.
type IVFRow struct {
	NProbe   int     `json:"n_probe"`
	Compared float64 `json:"compared"`
	Share    float64 `json:"share"`
	Recall   float64 `json:"recall"`
}

// Retrieved is one retrieved passage or chunk with its score.
type Retrieved struct {
	ID    string  `json:"id"`
	Label string  `json:"label"`
	Score float64 `json:"score"`
}

// Stats are a score distribution's minimum, median and maximum.
type Stats struct {
	Min    float64 `json:"min"`
	Median float64 `json:"median"`
	Max    float64 `json:"max"`
}

// Report000 holds seed 000's figures.
type Report000 struct {
	Windows          []WindowRow `json:"windows"`
	NoOverlapChunks  []string    `json:"no_overlap_chunks"`
	OverlapChunks    []string    `json:"overlap_chunks"`
	TFIDF            RankReport  `json:"tfidf"`
	LSA              []LSARow    `json:"lsa"`
	IVF              []IVFRow    `json:"ivf"`
	Prompt           string      `json:"prompt"`
	HotelTop2        []Retrieved `json:"hotel_top2"`
	Top1Answerable   Stats       `json:"top1_answerable"`
	Top1Unanswerable []float64   `json:"top1_unanswerable"`
	// Analysis is not a seed figure: fonte's default Italian analysis on
	// the seed's questions, beside the seed's TF-IDF.
	Analysis []AnalysisRow `json:"analysis"`
}

// QueryRankings is one row of seed 001's table.
type QueryRankings struct {
	Query  string   `json:"query"`
	BM25   []string `json:"bm25"`
	Vector []string `json:"vector"`
	RRF    []string `json:"rrf"`
}

// Report001 holds seed 001's figures.
type Report001 struct {
	Queries []QueryRankings `json:"queries"`
	Chunks  []string        `json:"chunks"`
}

// ChunkSize is a chunk's id, heading and length in characters.
type ChunkSize struct {
	ID      string `json:"id"`
	Heading string `json:"heading"`
	Chars   int    `json:"chars"`
}

// QA is a question and the answer a stage gave.
type QA struct {
	Question string `json:"question"`
	Answer   string `json:"answer"`
}

// FloorRow is one line of seed 002's floor table.
type FloorRow struct {
	Floor      float64 `json:"floor"`
	LetThrough int     `json:"let_through"`
	Blocked    int     `json:"blocked"`
}

// FitRow is one line of seed 002's context-fitting table.
type FitRow struct {
	Label    string `json:"label"`
	GoldKept int    `json:"gold_kept"`
	Right    int    `json:"right"`
}

// GridReport counts answers by right × supported.
type GridReport struct {
	RightSupported   int `json:"right_supported"`
	RightUnsupported int `json:"right_unsupported"`
	WrongSupported   int `json:"wrong_supported"`
	WrongUnsupported int `json:"wrong_unsupported"`
}

// Report002 holds seed 002's figures.
type Report002 struct {
	SmallChunks      []ChunkSize        `json:"small_chunks"`
	SmallTerms       int                `json:"small_terms"`
	RefundTop3       []Retrieved        `json:"refund_top3"`
	Prompt           string             `json:"prompt"`
	StubAnswers      []QA               `json:"stub_answers"`
	Chunks           int                `json:"chunks"`
	Characters       int                `json:"characters"`
	Recall           map[string]float64 `json:"recall"`
	GivenGold        float64            `json:"given_gold"`
	EndToEnd         float64            `json:"end_to_end"`
	Top1Answerable   Stats              `json:"top1_answerable"`
	Top1Unanswerable Stats              `json:"top1_unanswerable"`
	Floor            []FloorRow         `json:"floor"`
	GroundedOnly     []QA               `json:"grounded_only"`
	WithPrior        []QA               `json:"with_prior"`
	Grid             GridReport         `json:"grid"`
	Fit              []FitRow           `json:"fit"`
}

// Reproduce computes every seed figure from the fixtures with fonte's own
// packages.
func Reproduce(f *Fixtures) (*Report, error) {
	r := &Report{}
	var err error
	if r.Seed000, err = reproduce000(f.S000); err != nil {
		return nil, fmt.Errorf("seed 000: %w", err)
	}
	if r.Seed001, err = reproduce001(f.S001); err != nil {
		return nil, fmt.Errorf("seed 001: %w", err)
	}
	if r.Seed002, err = reproduce002(f.S002); err != nil {
		return nil, fmt.Errorf("seed 002: %w", err)
	}
	return r, nil
}

// ranksOf returns, for each question, the 1-based rank of its gold
// passage when scores are sorted descending with ties kept in passage order
// (numpy's argsort(-s, kind="stable"), as seed 000 ranks).
func rankOf(scores []float64, gold int) int {
	rank := 1
	for i, s := range scores {
		if s > scores[gold] || (s == scores[gold] && i < gold) {
			rank++
		}
	}
	return rank
}

func rankReport(ranks []int) RankReport {
	r := RankReport{Ranks: ranks}
	var rr float64
	for _, k := range ranks {
		if k == 1 {
			r.Hit1++
		}
		if k <= 3 {
			r.Hit3++
		}
		rr += 1 / float64(k)
	}
	r.MRR = rr / float64(len(ranks))
	return r
}

func reproduce000(s Seed000) (Report000, error) {
	var r Report000

	// Chunking: the first two passages of the invoices document.
	text := s.Documents["fatture"][0] + " " + s.Documents["fatture"][1]
	const sentence = "entro cinque giorni dalla notifica di scarto"
	for _, so := range [][2]int{{20, 0}, {20, 8}, {40, 0}, {40, 10}} {
		ws := chunk.Windows(text, so[0], so[1])
		whole := slices.ContainsFunc(ws, func(w string) bool { return strings.Contains(w, sentence) })
		r.Windows = append(r.Windows, WindowRow{Size: so[0], Overlap: so[1], Chunks: len(ws), Whole: whole})
	}
	r.NoOverlapChunks = chunk.Windows(text, 20, 0)[1:]
	r.OverlapChunks = chunk.Windows(text, 20, 8)[1:3]

	// TF-IDF with scikit-learn's defaults.
	texts := make([]string, len(s.Passages))
	for i, p := range s.Passages {
		texts[i] = p.Text
	}
	tf := lexical.NewTFIDF(texts, analysis.Sklearn(), lexical.TFIDFOptions{})
	var ranks []int
	for _, q := range s.Questions {
		ranks = append(ranks, rankOf(tf.Scores(q.Question), q.GoldPassage))
	}
	r.TFIDF = rankReport(ranks)
	r.TFIDF.Vocabulary = len(tf.Vocabulary())
	r.TFIDF.Passages = tf.N()

	// LSA with an exact SVD.
	for _, k := range []int{4, 8, 12, 16} {
		lsa, err := embed.FitLSA(tf, k, nil)
		if err != nil {
			return r, err
		}
		docs := make([][]float64, tf.N())
		for d := range docs {
			docs[d] = lsa.Project(tf.Row(d))
		}
		var ranks []int
		for _, q := range s.Questions {
			qv := lsa.ProjectText(q.Question)
			scores := make([]float64, len(docs))
			for d, v := range docs {
				scores[d] = embed.Cosine(v, qv)
			}
			ranks = append(ranks, rankOf(scores, q.GoldPassage))
		}
		rr := rankReport(ranks)
		r.LSA = append(r.LSA, LSARow{K: k, Hit1: rr.Hit1, Hit3: rr.Hit3, MRR: rr.MRR})
	}

	// IVF: the seed's experiment with fonte's own seeded generator.
	probes, err := vector.IVFRecallExperiment(0, vector.Seed000())
	if err != nil {
		return r, err
	}
	for _, p := range probes {
		r.IVF = append(r.IVF, IVFRow{NProbe: p.NProbe, Compared: p.Compared, Share: p.Share, Recall: p.Recall})
	}

	// The prompt for "I deleted a file by mistake", top 2, labelled by
	// document name.
	passage := func(i int) fonte.Chunk {
		p := s.Passages[i]
		return fonte.Chunk{ID: fmt.Sprint(p.ID), DocID: p.Doc, Text: p.Text, Position: p.I}
	}
	var top []fonte.Chunk
	q5 := s.Questions[5].Question
	for _, h := range tf.Search(q5, 2) {
		top = append(top, passage(h.Doc))
	}
	r.Prompt = answer.Template000().Prompt(q5, top)
	for _, h := range tf.Search(s.Questions[1].Question, 2) {
		p := s.Passages[h.Doc]
		r.HotelTop2 = append(r.HotelTop2, Retrieved{ID: fmt.Sprint(p.ID), Label: fmt.Sprintf("%s %d", p.Doc, p.I), Score: h.Score})
	}
	var in []float64
	for _, q := range s.Questions {
		in = append(in, tf.Search(q.Question, 1)[0].Score)
	}
	r.Top1Answerable = npStats(in)
	for _, q := range s.Unanswerable {
		r.Top1Unanswerable = append(r.Top1Unanswerable, tf.Search(q, 1)[0].Score)
	}
	r.Analysis = Seed000Analysis(s)
	return r, nil
}

// npStats is min, numpy's median (mean of the middle two for even counts)
// and max, as seed 000 prints them.
func npStats(x []float64) Stats {
	s := slices.Clone(x)
	sort.Float64s(s)
	med := s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return Stats{Min: s[0], Median: med, Max: s[len(s)-1]}
}

func reproduce001(s Seed001) (Report001, error) {
	var r Report001
	ids := make([]string, 0, len(s.Documents))
	for id := range s.Documents {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	texts := make([]string, len(ids))
	for i, id := range ids {
		texts[i] = id + ". " + s.Documents[id] // the code is part of the indexed text
	}
	an := analysis.Seed001()
	bm := lexical.NewBM25(texts, an, lexical.BM25Options{K1: 1.5, B: 0.75})
	emb, err := embed.NewHashSurrogate(an, s.Dim, s.SynonymGroups)
	if err != nil {
		return r, err
	}
	ctx := context.Background()
	docVecs, err := emb.Embed(ctx, texts)
	if err != nil {
		return r, err
	}
	flat := vector.NewFlat(s.Dim)
	for i, v := range docVecs {
		if err := flat.Add(uint64(i), v); err != nil {
			return r, err
		}
	}
	for _, q := range s.Queries {
		var lex []string
		for _, h := range bm.Search(q, len(ids)) {
			lex = append(lex, ids[h.Doc])
		}
		qv, err := emb.Embed(ctx, []string{q})
		if err != nil {
			return r, err
		}
		var dense []string
		for _, h := range flat.Search(qv[0], len(ids)) {
			if h.Score > 1e-6 { // keep only positive similarities, as the seed does
				dense = append(dense, ids[h.ID])
			}
		}
		fused := fusion.IDs(fusion.RRF([][]string{lex, dense}, fusion.Options{K: fusion.DefaultK}))
		r.Queries = append(r.Queries, QueryRankings{Query: q, BM25: first(lex, 3), Vector: first(dense, 3), RRF: first(fused, 3)})
	}
	r.Chunks = chunk.Windows(s.Documents["SOP-001"], 12, 3)
	return r, nil
}

func first[T any](x []T, n int) []T { return x[:min(n, len(x))] }

// handbookChunks cuts a seed 002 handbook into one chunk per heading, with
// the seed's ids c0, c1, ….
func handbookChunks(md string) []fonte.Chunk {
	var out []fonte.Chunk
	for i, s := range chunk.Sections(md) {
		out = append(out, fonte.Chunk{ID: fmt.Sprintf("c%d", i), DocID: "handbook", Headings: s.Headings, Text: s.Text, Start: s.Start, End: s.End, Position: i})
	}
	return out
}

// seedRetriever ranks a handbook with TF-IDF the way seed 002 does:
// scores.argsort()[::-1], which for these small arrays puts equal scores in
// descending chunk order. fonte's own retrievers break ties by ascending id;
// this order is kept here only so the seed's tables come out exactly (one
// row of the fitting table depends on which zero-score chunk is sixth).
type seedRetriever struct {
	tf     *lexical.TFIDF
	chunks []fonte.Chunk
}

func newSeedRetriever(chunks []fonte.Chunk, an analysis.Analyzer, opts lexical.TFIDFOptions) seedRetriever {
	texts := make([]string, len(chunks))
	for i, c := range chunks {
		texts[i] = chunk.HeadingDotText(c)
	}
	return seedRetriever{tf: lexical.NewTFIDF(texts, an, opts), chunks: chunks}
}

func (s seedRetriever) retrieve(q string, k int) []fonte.Hit {
	scores := s.tf.Scores(q)
	order := make([]int, len(scores))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		if scores[order[a]] != scores[order[b]] {
			return scores[order[a]] > scores[order[b]]
		}
		return order[a] > order[b]
	})
	var hits []fonte.Hit
	for _, i := range order[:min(k, len(order))] {
		hits = append(hits, fonte.Hit{Chunk: s.chunks[i], Score: scores[i]})
	}
	return hits
}

func reproduce002(s Seed002) (Report002, error) {
	var r Report002
	stub := answer.SeedExtractive(s.StopWords)

	// The small handbook: TF-IDF with English stop words over "heading. text".
	small := handbookChunks(s.HandbookSmall)
	for _, c := range small {
		r.SmallChunks = append(r.SmallChunks, ChunkSize{ID: c.ID, Heading: c.Heading(), Chars: answer.Chars(c)})
	}
	sr := newSeedRetriever(small, analysis.SklearnEnglish(), lexical.TFIDFOptions{})
	r.SmallTerms = len(sr.tf.Vocabulary())
	for _, h := range sr.retrieve("how long does a refund take", 3) {
		r.RefundTop3 = append(r.RefundTop3, Retrieved{ID: h.Chunk.ID, Label: h.Chunk.Heading(), Score: h.Score})
	}
	refund := sr.retrieve("how long does a refund take", 2)
	r.Prompt = answer.Template002().Prompt("how long does a refund take", answer.Chunks(refund))
	for _, q := range []string{"how many days do I have to return an item", "how long do international refunds take",
		"how long does a refund take", "do you ship to Ireland"} {
		r.StubAnswers = append(r.StubAnswers, QA{Question: q, Answer: stub.Ask(q, sr.retrieve(q, 2), 0.15)})
	}

	// The large handbook: char_wb 4–5 n-grams, sublinear tf.
	chunks := handbookChunks(s.Handbook)
	byID := map[string]fonte.Chunk{}
	r.Chunks = len(chunks)
	for _, c := range chunks {
		byID[c.ID] = c
		r.Characters += answer.Chars(c)
	}
	lr := newSeedRetriever(chunks, analysis.CharWB(4, 5), lexical.TFIDFOptions{Sublinear: true})
	gold := func(id string, i int) string { return answer.SeedSentences(byID[id].Text)[i] }

	r.Recall = map[string]float64{}
	for _, k := range []int{1, 3, 5} {
		found := 0
		for _, e := range s.Eval {
			if slices.ContainsFunc(lr.retrieve(e.Question, k), func(h fonte.Hit) bool { return h.Chunk.ID == e.GoldChunk }) {
				found++
			}
		}
		r.Recall[fmt.Sprint(k)] = float64(found) / float64(len(s.Eval))
	}
	var given, end eval.Count
	var answerable, unanswerable []float64
	for _, e := range s.Eval {
		want := gold(e.GoldChunk, e.GoldSentence)
		given.Add(stub.Answer(e.Question, []fonte.Chunk{byID[e.GoldChunk]}).Text == want)
		end.Add(stub.Answer(e.Question, answer.Chunks(lr.retrieve(e.Question, 3))).Text == want)
		answerable = append(answerable, lr.retrieve(e.Question, 1)[0].Score)
	}
	r.GivenGold, r.EndToEnd = given.Rate(), end.Rate()
	for _, q := range s.Unanswerable {
		unanswerable = append(unanswerable, lr.retrieve(q, 1)[0].Score)
	}
	r.Top1Answerable, r.Top1Unanswerable = seedStats(answerable), seedStats(unanswerable)
	for _, row := range eval.FloorTable(answerable, unanswerable, []float64{0, 0.15, 0.20, 0.30, 0.40}) {
		r.Floor = append(r.Floor, FloorRow{Floor: row.Floor, LetThrough: row.LetThrough, Blocked: row.Blocked})
	}

	// Grounded only, then with the prior fallback (a measurement device), and
	// the right × supported grid of the fallback's answers.
	prior := make(answer.PriorStub, len(s.PriorOrder))
	for i, p := range s.PriorOrder {
		prior[i] = answer.PriorRule{Trigger: p.Trigger, Answer: p.Answer}
	}
	var grid eval.Grid
	for _, q := range s.Unanswerable {
		hits := lr.retrieve(q, 3)
		quote := stub.Answer(q, answer.Chunks(hits))
		r.GroundedOnly = append(r.GroundedOnly, QA{Question: q, Answer: quote.Text})
		out := prior.Answer(q, quote)
		r.WithPrior = append(r.WithPrior, QA{Question: q, Answer: out})
		grid.Add(s.Truth[q], stub.Keys.Supported(out, answer.Chunks(hits)))
	}
	r.Grid = GridReport(grid)

	// Context fitting: retrieve 6, budget 400 characters of chunk text.
	for _, st := range answer.SeedStrategies() {
		row := FitRow{Label: st.Name}
		for _, e := range s.Eval {
			ctx := st.Apply(lr.retrieve(e.Question, 6), 400, nil)
			if slices.ContainsFunc(ctx, func(h fonte.Hit) bool { return h.Chunk.ID == e.GoldChunk }) {
				row.GoldKept++
			}
			if stub.Answer(e.Question, answer.Chunks(ctx)).Text == gold(e.GoldChunk, e.GoldSentence) {
				row.Right++
			}
		}
		r.Fit = append(r.Fit, row)
	}
	return r, nil
}

// seedStats is seed 002's summary: min, sorted(x)[len(x)//2], max.
func seedStats(x []float64) Stats {
	s := eval.Summarize(x)
	return Stats{Min: s.Min, Median: s.Median, Max: s.Max}
}
