// Package retrieve runs fonte's search over a set of chunks: BM25 over each
// chunk's enriched text (title › headings, then the text) analysed in the
// chunk's language, dense search over the chunks' vectors, and Reciprocal
// Rank Fusion of the two, with metadata filters applied inside both legs
// and every hit able to explain where its score came from.
//
// An Index is built once from an immutable corpus (a store snapshot) and
// is safe for concurrent searches.
package retrieve

import (
	"cmp"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/analysis"
	"github.com/fonte-rag/fonte/chunk"
	"github.com/fonte-rag/fonte/fusion"
	"github.com/fonte-rag/fonte/internal/cores"
	"github.com/fonte-rag/fonte/lexical"
	"github.com/fonte-rag/fonte/vector"
)

// Corpus is what an Index searches: chunks with their documents' language
// and tags, and one normalised vector per chunk (row-major, Dim wide) when
// a dense leg is wanted.
type Corpus struct {
	// Source, when set, gives the chunks, their languages and tags instead
	// of Chunks, Langs and Tags: a store that decodes a chunk only when it
	// is asked for (a search's hits), so that opening a large corpus
	// decodes none.
	Source  ChunkSource
	Chunks  []fonte.Chunk
	Langs   []string   // per chunk: "en", "it" or "" (unknown)
	Tags    [][]string // per chunk: its document's tags
	Vectors []float32  // len(Chunks)*Dim, or nil for no dense leg
	// Rows, when set, are the vectors instead of Vectors: one row of Dim
	// values per chunk, which may live outside the Go heap (a store's
	// memory-mapped segments). The index keeps them without copying into
	// an HNSW graph.
	Rows [][]float32
	// Parts, when set, are the same vectors as contiguous runs of rows
	// (a store's segments, in order), each with the int8 copy exact
	// search scans or none: an exact dense leg then scans them where they
	// lie (vector.FlatView) instead of copying them into a vector.Flat.
	Parts []vector.FlatPart
	// Owner is kept reachable by the index, for memory Rows point into
	// that is released when its owner is collected (a store's snapshot).
	Owner any
	Dim   int
}

// ChunkSource gives a corpus's chunks one at a time, numbered
// 0..Len()-1. It must be safe for concurrent use.
type ChunkSource interface {
	Len() int
	Chunk(i int) fonte.Chunk
	// DocID, Lang and Tags are chunk i's document's ID, language ("" for
	// unknown) and tags, without decoding the chunk when they can.
	DocID(i int) string
	Lang(i int) string
	Tags(i int) []string
	// Languages are the distinct languages of the chunks, sorted.
	Languages() []string
}

// sliceSource is a ChunkSource over a Corpus's slices.
type sliceSource struct{ c *Corpus }

func (s sliceSource) Len() int                { return len(s.c.Chunks) }
func (s sliceSource) Chunk(i int) fonte.Chunk { return s.c.Chunks[i] }
func (s sliceSource) DocID(i int) string      { return s.c.Chunks[i].DocID }

func (s sliceSource) Lang(i int) string {
	if len(s.c.Langs) == 0 {
		return ""
	}
	return s.c.Langs[i]
}

func (s sliceSource) Tags(i int) []string {
	if len(s.c.Tags) == 0 {
		return nil
	}
	return s.c.Tags[i]
}

func (s sliceSource) Languages() []string {
	seen := map[string]bool{}
	var out []string
	for i := range s.c.Chunks {
		if l := s.Lang(i); !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	slices.Sort(out)
	return out
}

// source returns the corpus's chunks as a ChunkSource.
func (c *Corpus) source() ChunkSource {
	if c.Source != nil {
		return c.Source
	}
	return sliceSource{c}
}

// rows returns the vectors one per chunk, or nil for no dense leg.
func (c *Corpus) rows() [][]float32 {
	if c.Rows != nil || c.Vectors == nil {
		return c.Rows
	}
	rows := make([][]float32, c.source().Len())
	for i := range rows {
		lo := min(i*c.Dim, len(c.Vectors))
		rows[i] = c.Vectors[lo:min(lo+c.Dim, len(c.Vectors))]
	}
	return rows
}

// Analyzers chooses the analysis for each language. Default serves chunks
// and queries whose language is unknown (""), and those in a language with
// no entry in ByLang when Other is nil.
type Analyzers struct {
	ByLang  map[string]analysis.Analyzer
	Default analysis.Analyzer
	// Other, when set, serves the languages with no entry in ByLang (a
	// known language such as "de", or "und" for text of an undetermined
	// one): the language-neutral analysis.
	Other analysis.Analyzer
	// Labels names the analysis each ByLang language gets, for status
	// reports (see Analysis); a language without a label is its own.
	Labels map[string]string
	// Content, when set, gives per language an analyzer that yields the
	// same terms as ByLang but keeps only content words: the abstain
	// relevance is computed over them (see Index.Search). Missing
	// languages fall back to ByLang.
	Content map[string]analysis.Analyzer
}

// The analyses DefaultAnalyzers reports (see Analyzers.Analysis).
const (
	AnalysisEnglish = "en"      // analysis.English: unknown languages too
	AnalysisItalian = "it"      // analysis.Italian
	AnalysisCJK     = "cjk"     // analysis.Neutral, bigrams of Chinese, Japanese, Korean and Thai
	AnalysisNeutral = "neutral" // analysis.Neutral, for any other language
)

// CJKLanguages are the languages written without spaces between words that
// DefaultAnalyzers indexes by character bigrams (see analysis.Neutral).
var CJKLanguages = []string{"ja", "ko", "th", "zh"}

// DefaultAnalyzers analyses English with analysis.English and Italian with
// analysis.Italian; text of unknown language ("": too short or too mixed
// to tell) gets English's analysis, whose identifier-aware tokenizer and
// short stop list do little harm to any Latin-script text. Chinese,
// Japanese, Korean and Thai, and every other detected language (German,
// French, Russian, "und" ...), get analysis.Neutral: Unicode words, case
// and width folding, character bigrams for the scripts without spaces, no
// stemming and no stop words.
func DefaultAnalyzers() Analyzers {
	en := analysis.English()
	neutral := analysis.Neutral()
	// Content words: the same tokens, spellings and stems, minus a broad
	// list of function words in both languages (scikit-learn's 318
	// English words, Snowball's Italian list). Questions are full of words
	// like "how", "many", "must", "posso" that say nothing about whether
	// the corpus answers them; counting them in the relevance share would
	// sink every answerable question towards the floor.
	contentEn := analysis.NewEnglish(analysis.ContentStopWords)
	contentIt := &analysis.Chain{Cased: []analysis.CharFilter{analysis.AcronymPlurals{}}, Lowercase: true, Tokenizer: analysis.IdentifierTokenizer{},
		Filters: []analysis.Filter{analysis.NewStopFilter(analysis.ContentStopWords), analysis.ItalianStemmer()}}
	a := Analyzers{
		ByLang:  map[string]analysis.Analyzer{"en": en, "it": analysis.Italian()},
		Default: en,
		Other:   neutral,
		Labels:  map[string]string{},
		Content: map[string]analysis.Analyzer{"en": contentEn, "it": contentIt, "": contentEn},
	}
	for _, l := range CJKLanguages {
		a.ByLang[l] = neutral
		a.Labels[l] = AnalysisCJK
	}
	return a
}

// Analysis names the analysis that chunks in language lang get: the
// language itself for an analysis of its own ("en", "it"), its label (see
// Labels: "cjk"), "en" for text of unknown language (Default), and
// "neutral" for any other language (Other).
func (a Analyzers) Analysis(lang string) string {
	if _, ok := a.ByLang[lang]; ok {
		if l, ok := a.Labels[lang]; ok {
			return l
		}
		return lang
	}
	if lang != "" && a.Other != nil {
		return AnalysisNeutral
	}
	if _, ok := a.ByLang["en"]; ok && a.Default == a.ByLang["en"] {
		return AnalysisEnglish
	}
	return "default"
}

// rankTerms is a query as the lexical leg ranks by it in language lang:
// every word analysed as chunks are, then its content words (see Content)
// once more, so a function word weighs half what a content word of the
// same idf does. A question's asking words (which, every, need, devo,
// fare) are often rarer in a corpus than its subject, so at full weight a
// passage that shares them outranks one that holds every content word;
// dropped altogether, the words the broad content stop list holds that
// do carry meaning (a phrasal verb's particle, a word of time) are lost.
// The grammar words the stop lists keep (analysis.FunctionWords: "does",
// "vuol dire", "riesco") count once too, as answer's coverage leaves them
// out of what a passage must hold.
//
// A content word's second token follows its first, so that the lexical
// index walks its postings once for both (lexical.View's runs).
func (a Analyzers) rankTerms(q, lang string) []string {
	an := a.of(lang)
	words := an.Analyze(q)
	grammar := map[string]bool{}
	fw := append(analysis.FunctionWords(q), analysis.RankingFunctionWords(q)...)
	for _, t := range an.Analyze(strings.Join(fw, " ")) {
		grammar[t] = true
	}
	again := map[string]int{} // content tokens still to repeat
	var rest []string         // in the order the content analyzer gives them
	for _, t := range a.contentOf(lang).Analyze(q) {
		if !grammar[t] {
			again[t]++
			rest = append(rest, t)
		}
	}
	out := make([]string, 0, len(words)+len(rest))
	for _, t := range words {
		out = append(out, t)
		if again[t] > 0 {
			again[t]--
			out = append(out, t)
		}
	}
	// A content token the full analysis lacks (none today: the content
	// analyzer keeps a subset of the words) still counts once.
	for _, t := range rest {
		if again[t] > 0 {
			again[t]--
			out = append(out, t)
		}
	}
	return out
}

func (a Analyzers) contentOf(lang string) analysis.Analyzer {
	if an, ok := a.Content[lang]; ok {
		return an
	}
	return a.of(lang)
}

// Of is the analyzer the chunks of documents in lang get.
func (a Analyzers) Of(lang string) analysis.Analyzer { return a.of(lang) }

func (a Analyzers) of(lang string) analysis.Analyzer {
	if an, ok := a.ByLang[lang]; ok {
		return an
	}
	if lang != "" && a.Other != nil {
		return a.Other
	}
	return a.Default
}

// Name describes the analysis for the store's record: a version, then the
// languages with an analysis of their own, and "+other" when the other
// languages get one of their own (Other). It changes whenever what a
// language is analysed into changes, so that an index built by an older
// fonte gets its lexical index rebuilt.
func (a Analyzers) Name() string {
	langs := make([]string, 0, len(a.ByLang)+1)
	for l := range a.ByLang {
		langs = append(langs, l)
	}
	slices.Sort(langs)
	if a.Other != nil {
		langs = append(langs, "other")
	}
	return "fonte-analysis/v4 " + strings.Join(langs, "+")
}

// Mode selects the legs a search runs.
type Mode string

// The retrieval modes.
const (
	Hybrid Mode = "hybrid" // BM25 and dense, fused by RRF (the default)
	BM25   Mode = "bm25"   // lexical only
	TFIDF  Mode = "tfidf"  // TF-IDF cosine over the same analysis (a baseline)
	Dense  Mode = "vector" // dense only
)

// ParseMode accepts a mode name (case-insensitive), "" meaning Hybrid and
// "auto" the empty Mode, which the engine resolves by its embedder.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(strings.ToLower(s)); m {
	case "auto":
		return "", nil // the engine's default for its embedder
	case "", Hybrid:
		return Hybrid, nil
	case BM25, TFIDF, Dense:
		return m, nil
	}
	return "", fmt.Errorf("retriever %q: want auto, hybrid, bm25, tfidf or vector", s)
}

// Filter restricts a search to chunks whose document id starts with one of
// Prefixes (when any are given) and whose document carries every tag in
// Tags.
type Filter = fonte.Filter

// Request is one search.
type Request struct {
	Query  string
	Vector []float32 // the query's embedding; required by the dense leg
	Lang   string    // the query's language when known; "" analyses it in every corpus language
	K      int       // hits wanted (default 10)
	Mode   Mode
	// Depth is how many candidates each leg contributes to the fusion
	// (default max(50, 2K)): deep enough that a chunk ranked modestly by
	// both legs can still win, shallow enough to keep fusion cheap.
	Depth int
	// LexicalWeight and DenseWeight weigh the legs in the fusion (default
	// 1 each, Cormack et al.'s unweighted RRF).
	LexicalWeight, DenseWeight float64
	// RRFK is the fusion constant (default 60).
	RRFK float64
	// Proximity re-scores the lexical leg's first ProximityDepth
	// candidates by how near the query's terms lie in each (BM25TP; see
	// lexical.Proximity) before the leg's list is cut to Depth. Hits'
	// relevance stays the BM25 share of the content words.
	Proximity bool
	Filter    Filter
	// Trace, when set, is filled with each leg's candidates and timings
	// (see LegTrace); nil traces nothing.
	Trace *LegTrace
}

// defaults fills the zero fields of a request.
func (req *Request) defaults() {
	if req.Mode == "" {
		req.Mode = Hybrid
	}
	if req.K <= 0 {
		req.K = 10
	}
	if req.Depth <= 0 {
		req.Depth = max(50, 2*req.K)
	}
}

// Index searches one corpus.
type Index struct {
	corpus Corpus
	src    ChunkSource // the corpus's chunks
	an     Analyzers
	langs  []string // the corpus's languages, sorted
	bm25   *lexical.BM25
	dense  dense // nil without vectors
	// exact scans the rows a graph leg (dense) searches, for restricted
	// readers (see denseFor); built on first need from exactParts.
	exactOnce  sync.Once
	exact      *vector.FlatView
	exactParts []vector.FlatPart
	graph      *vector.HNSW
	keys       []uint64
	built      Built

	tfidfOnce sync.Once
	tfidf     *lexical.TFIDF // built on first use: only evaluations ask for it

	// access groups the chunks by access labels for restricted readers'
	// statistics (see accessView); tfidfViews are TF-IDF models fitted on
	// what one restricted view may see. Both are built on first use.
	accessOnce sync.Once
	access     *accessClasses
	// langGroups count a mixed-language corpus's chunks per access class
	// and language, for TermStatsIn; built on first use.
	langOnce   sync.Once
	langGroups *langClasses
	tfidfMu    sync.Mutex
	tfidfViews map[string]*lexical.TFIDF

	// part groups the chunks by access labels (see partition); classes
	// are the class graphs a restricted reader searches (classgraph.go),
	// for classes of classMin chunks or more, built with hnswOpts by
	// workers goroutines.
	partOnce  sync.Once
	part      *partition
	classOnce sync.Once
	classes   *classGraphs
	classMin  int
	classEf   int
	// classStored are the class graphs stored for this corpus, by
	// labelsKey, placed when their class is first searched.
	classStored map[string]ClassGraph
	hnswOpts    vector.HNSWOptions
	workers     int
}

// BM25Params are fonte's BM25 parameters: k1 = 0.9, b = 0.4, the values
// Anserini and Pyserini use as their BM25 defaults across the BEIR and
// MS MARCO benchmarks (Lucene's own 1.2/0.75 assume longer documents than
// chunks are); chunks of a few hundred words saturate term frequency early
// and vary less in length, which both lower values reflect.
var BM25Params = lexical.BM25Options{K1: fonte.BM25K1, B: fonte.BM25B}

// Options control how New builds an index, and hand it parts built
// before over the same corpus (decoded from the store) so that opening a
// large index costs a decode, not a build.
type Options struct {
	// Dense chooses the dense leg's index (DenseAuto by default).
	Dense DenseKind
	// HNSW configures a graph New builds (vector's defaults when zero).
	// Its EfSearch, when set, is also the candidate list of every
	// unfiltered search of the graph, Graph's included, whatever list
	// that graph was built with.
	HNSW vector.HNSWOptions
	// BM25, when set, is the lexical index of exactly this corpus's
	// chunks, in order, built with the same analysis (see Index.BM25).
	BM25 *lexical.BM25
	// Keys are the chunks' graph keys (see ChunkKey), required for an
	// HNSW dense leg; nil keys the chunks by position.
	Keys []uint64
	// Graph, when set, is an HNSW graph keyed by Keys built for an earlier
	// version of the corpus whose keys were PreviousKeys: New deletes the
	// keys the corpus lost and adds the ones it gained, in place, instead
	// of building a graph from nothing.
	Graph        *vector.HNSW
	PreviousKeys []uint64
	// GraphRowsCurrent says that an External Graph already refers to this
	// corpus's Rows (it was decoded with them), so the keys it keeps need
	// not be re-pointed: re-pointing compares every vector, which would
	// read every row of a mapped store at open.
	GraphRowsCurrent bool
	// GraphPositions, with GraphRowsCurrent, maps the Graph's nodes to
	// this corpus's chunk numbers (a graph stored for exactly this
	// corpus): the dense leg then maps its results through it instead of
	// building a map of every key. A node without a chunk (a tombstone)
	// holds a number past the corpus.
	GraphPositions []uint32
	// ClassGraphs are access classes' graphs built for this corpus or an
	// earlier one (see ClassGraph), brought up to date by NewWith.
	ClassGraphs []ClassGraph
	// ClassGraphMin is the class size from which a class gets a graph
	// (ClassGraphMinChunks when 0; negative, or 0 with
	// ClassGraphMinChunks 0, the default: no class graphs, every
	// restricted reader scans exactly).
	ClassGraphMin int
	// ClassEfSearch is the candidate list of class graphs' searches
	// (ClassEfSearch when 0).
	ClassEfSearch int
	// Workers is how many goroutines building the lexical index and
	// adding to the graph use; <= 0 means GOMAXPROCS. A build beside
	// live readers leaves them a processor.
	Workers int
}

func (o Options) workers() int {
	if o.Workers > 0 {
		return o.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// Built tells what New had to build rather than reuse.
type Built struct {
	BM25  bool // the lexical index was built (not given)
	Graph bool // an HNSW graph was built or changed
}

// New indexes a corpus with default options. Vectors, when present, must
// hold Dim floats per chunk.
func New(c Corpus, an Analyzers) (*Index, error) { return NewWith(c, an, Options{}) }

// NewWith indexes a corpus, reusing the parts o carries.
func NewWith(c Corpus, an Analyzers, o Options) (*Index, error) {
	if c.Source == nil {
		if len(c.Langs) != 0 && len(c.Langs) != len(c.Chunks) {
			return nil, fmt.Errorf("retrieve: %d languages for %d chunks", len(c.Langs), len(c.Chunks))
		}
		if len(c.Tags) != 0 && len(c.Tags) != len(c.Chunks) {
			return nil, fmt.Errorf("retrieve: %d tag lists for %d chunks", len(c.Tags), len(c.Chunks))
		}
	}
	ix := &Index{corpus: c, an: an}
	ix.src = ix.corpus.source()
	n := ix.src.Len()
	ix.langs = ix.src.Languages()
	if o.BM25 != nil && o.BM25.Index().N() == n {
		ix.bm25 = o.BM25
	} else {
		lex := lexical.NewIndexParallel(n, func(d int) []string {
			return an.of(ix.lang(d)).Analyze(chunk.Enriched(ix.src.Chunk(d)))
		}, an.Default, o.workers())
		ix.bm25 = lexical.NewBM25Index(lex, BM25Params)
		ix.built.BM25 = true
	}
	if c.Vectors == nil && c.Rows == nil {
		return ix, nil
	}
	if c.Rows == nil && (c.Dim <= 0 || len(c.Vectors) != n*c.Dim) {
		return nil, fmt.Errorf("retrieve: %d vector values for %d chunks of dimension %d", len(c.Vectors), n, c.Dim)
	}
	rows := c.rows()
	if len(rows) != n {
		return nil, fmt.Errorf("retrieve: %d vectors for %d chunks", len(rows), n)
	}
	for i, r := range rows {
		if len(r) != c.Dim || c.Dim <= 0 {
			return nil, fmt.Errorf("retrieve: chunk %s: vector of dimension %d, want %d", ix.src.Chunk(i).ID, len(r), c.Dim)
		}
	}
	ix.corpus.Rows, ix.corpus.Vectors = rows, nil
	useGraph := o.Dense == DenseHNSW || o.Dense == DenseAuto && n >= HNSWMinChunks
	if !useGraph && c.Parts != nil {
		f, err := exactView(c.Dim, c.Parts, n)
		if err != nil {
			return nil, err
		}
		ix.dense = flatLeg{f}
		return ix, nil
	}
	if !useGraph {
		f := vector.NewFlat(c.Dim)
		for i := range n {
			if err := f.Add(uint64(i), rows[i]); err != nil {
				return nil, fmt.Errorf("retrieve: chunk %s: %w", ix.src.Chunk(i).ID, err)
			}
		}
		ix.dense = flatLeg{f}
		return ix, nil
	}
	keys := o.Keys
	if keys == nil {
		keys = make([]uint64, n)
		for i := range keys {
			keys[i] = uint64(i)
		}
	}
	if len(keys) != n {
		return nil, fmt.Errorf("retrieve: %d graph keys for %d chunks", len(keys), n)
	}
	var leg hnswLeg
	var changed bool
	var err error
	if o.Graph != nil && o.GraphRowsCurrent && o.GraphPositions != nil {
		leg, err = placedHNSW(o.Graph, o.GraphPositions, n)
	} else {
		leg, changed, err = buildHNSW(ix.corpus, keys, o.Graph, o.PreviousKeys, o.GraphRowsCurrent, o.HNSW, o.workers())
	}
	if err != nil && o.Graph != nil {
		// The graph handed over does not fit this corpus: build anew.
		leg, changed, err = buildHNSW(ix.corpus, keys, nil, nil, false, o.HNSW, o.workers())
	}
	if err != nil {
		return nil, err
	}
	// The candidate list is a search setting, not part of the graph: a
	// graph handed in (a stored blob records the list it was built with)
	// searches the list o.HNSW asks for.
	leg.ef = o.HNSW.EfSearch
	ix.dense, ix.graph, ix.keys, ix.built.Graph = leg, leg.g, keys, changed
	ix.hnswOpts, ix.workers = o.HNSW, o.workers()
	if err := ix.initClassGraphs(o); err != nil {
		return nil, err
	}
	if c.Parts != nil {
		// Checked now, so that a restricted reader's exact scan cannot
		// fail later; the view reads no row until it is searched.
		if _, err := exactView(c.Dim, c.Parts, n); err != nil {
			return nil, err
		}
		ix.exactParts = c.Parts
	}
	return ix, nil
}

// BM25 returns the lexical index, to be persisted (see Options.BM25).
func (ix *Index) BM25() *lexical.BM25 { return ix.bm25 }

// Graph returns the dense leg's HNSW graph and its keys, or nil when the
// leg scans exactly.
func (ix *Index) Graph() (*vector.HNSW, []uint64) { return ix.graph, ix.keys }

// Built tells what NewWith built rather than reused.
func (ix *Index) Built() Built { return ix.built }

func (ix *Index) lang(i int) string { return ix.src.Lang(i) }

// Len is the number of chunks indexed.
func (ix *Index) Len() int { return ix.src.Len() }

// HasDense reports whether the index has a dense leg.
func (ix *Index) HasDense() bool { return ix.dense != nil }

// Chunk returns chunk i of the corpus.
func (ix *Index) Chunk(i int) fonte.Chunk { return ix.src.Chunk(i) }

// corpusView is what a search's lexical side scores with: the corpus's
// languages and BM25 statistics, or those of the chunks a restricted
// reader may see (view set), so that a hidden document's words, length
// or language move nothing the reader is shown.
type corpusView struct {
	langs []string // sorted
	view  *lexical.View
	rv    *readerView
}

// corpusFor returns the corpus as a reader under f sees it.
func (ix *Index) corpusFor(f Filter) corpusView {
	view, rv := ix.accessView(f)
	if view == nil {
		return corpusView{langs: ix.langs}
	}
	return corpusView{langs: rv.langs, view: view, rv: rv}
}

// queryLangs returns the languages to analyse a query in: its own when
// known, the corpus's only one, or else every language of the corpus.
func (c corpusView) queryLangs(lang string) []string {
	if lang != "" {
		return []string{lang}
	}
	if len(c.langs) == 0 {
		return []string{""}
	}
	return c.langs
}

// queryTokens analyses the query in its language (see queryLangs; the
// first when several).
func (ix *Index) queryTokens(q, lang string, c corpusView) []string {
	return ix.an.of(c.queryLangs(lang)[0]).Analyze(q)
}

// lexicalTop returns the depth chunks with the highest BM25 share (score
// divided by the query's MaxScore: the share of the query's evidence the
// chunk matched, in [0, 1)), among those allow accepts, best first. Within
// one analysis the division keeps BM25's order; when the query's language
// is unknown it is analysed in each corpus language and a chunk keeps its
// best share, so an Italian question is judged by Italian stems without
// English readings of its words diluting the share (and the reverse).
// Each language's top list comes from BM25.TopKShare, exact and pruned.
// Shares are computed over the chunks c shows.
//
// With proximity, each language's first ProximityDepth candidates are
// re-scored by term proximity (see proximityShares) before the list is
// cut to depth, and shares returns each listed chunk's BM25 share alone,
// which the relevance falls back on (nil without proximity: the scores
// are the shares).
func (ix *Index) lexicalTop(q, lang string, depth int, allow func(int) bool, c corpusView, proximity bool) (top []scored, shares map[int]float64) {
	best := map[int]float64{}
	if proximity {
		shares = map[int]float64{}
	}
	for _, l := range c.queryLangs(lang) {
		toks := ix.an.rankTerms(q, l)
		fetch := depth
		if proximity {
			fetch = max(depth, ProximityDepth)
		}
		var rs []lexical.Result
		if c.view != nil {
			rs = c.view.Query(toks).TopKShare(fetch, allow)
		} else {
			rs = ix.bm25.TopKShare(toks, fetch, allow)
		}
		var bm25 map[int]float64
		if proximity {
			bm25 = make(map[int]float64, len(rs))
			for _, r := range rs {
				bm25[r.Doc] = r.Score
			}
			rs = ix.byProximity(toks, rs, c)
		}
		// A chunk keeps its best score, and its best BM25 share, over the
		// languages whose list it makes.
		for _, r := range rs[:min(depth, len(rs))] {
			best[r.Doc] = max(best[r.Doc], r.Score)
			if proximity {
				shares[r.Doc] = max(shares[r.Doc], bm25[r.Doc])
			}
		}
	}
	out := make([]scored, 0, len(best))
	for d, s := range best {
		out = append(out, scored{d, s})
	}
	slices.SortFunc(out, func(a, b scored) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return cmp.Compare(a.doc, b.doc)
	})
	return out[:min(depth, len(out))], shares
}

// contentShare is the relevance of chunk doc: the BM25 share of the
// query's content words alone (see Analyzers.Content), best over the
// query's languages; over the chunks the corpus view shows.
type contentShare struct {
	score []func(doc int) float64
	max   []float64
}

func (ix *Index) contentShare(q, lang string, cv corpusView) contentShare {
	var c contentShare
	for _, l := range cv.queryLangs(lang) {
		toks := ix.an.contentOf(l).Analyze(q)
		if cv.view != nil {
			vq := cv.view.Query(toks)
			if m := vq.MaxScore(); m > 0 {
				c.score = append(c.score, vq.ScoreDoc)
				c.max = append(c.max, m)
			}
			continue
		}
		if m := ix.bm25.MaxScoreTokens(toks); m > 0 {
			c.score = append(c.score, func(doc int) float64 { return ix.bm25.ScoreDoc(toks, doc) })
			c.max = append(c.max, m)
		}
	}
	return c
}

func (ix *Index) share(c contentShare, doc int) float64 {
	best := 0.0
	for i, score := range c.score {
		best = max(best, score(doc)/c.max[i])
	}
	return best
}

// Search runs the request and returns at most K hits, best first.
func (ix *Index) Search(req Request) ([]fonte.Hit, error) {
	req.defaults()
	// A restricted reader's statistics count only what it may see, so
	// that nothing hidden moves a score, a share or the relevance.
	cv := ix.corpusFor(req.Filter)
	if req.Mode == TFIDF {
		var t0 time.Time
		if req.Trace != nil {
			t0 = time.Now()
		}
		scores := ix.tfidfFor(cv.rv).ScoresTokens(ix.queryTokens(req.Query, req.Lang, cv))
		top := topK(scores, req.K, ix.allowFor(req.Filter, cv.rv))
		if req.Trace != nil {
			req.Trace.Mode, req.Trace.Depth, req.Trace.LexicalTime = req.Mode, req.K, since(&t0)
			req.Trace.Lexical = ix.candidates(top)
		}
		return ix.hits(top, req.K, "tfidf", func(s scored) fonte.Hit {
			return fonte.Hit{Score: s.score, Relevance: s.score}
		}), nil
	}
	if req.Mode != BM25 && ix.dense == nil {
		if req.Mode == Dense {
			return nil, fmt.Errorf("retrieve: the index has no vectors for the dense leg")
		}
		req.Mode = BM25
	}
	if req.Mode != BM25 && len(req.Vector) != ix.corpus.Dim {
		return nil, fmt.Errorf("retrieve: query vector has dimension %d, the index has %d", len(req.Vector), ix.corpus.Dim)
	}
	allow := ix.allowFor(req.Filter, cv.rv)
	tr := req.Trace
	var t0 time.Time
	if tr != nil {
		tr.Mode, tr.Depth = req.Mode, req.Depth
		t0 = time.Now()
	}

	var lexHits, denseHits []scored
	var lexShares map[int]float64 // BM25 shares when lexHits' scores add proximity
	// A hybrid search runs its dense leg beside the lexical one (a traced
	// search runs them in turn, so that each leg's time is its own): with
	// two legs of about a millisecond each at a million chunks, a query's
	// latency is then the slower leg's, not their sum.
	var denseDone chan struct{}
	denseLeg, denseAllow := ix.denseLegFor(req.Filter, cv.rv)
	if req.Mode == Hybrid && tr == nil {
		denseDone = make(chan struct{})
		// Counted busy from here (internal/cores), not from when the
		// goroutine first runs, so that the lexical leg starts no
		// helper in between: the dense leg holds the second core.
		cores.Enter()
		go func() {
			defer close(denseDone)
			defer cores.Leave()
			denseHits = denseLeg.search(req.Vector, req.Depth, denseAllow)
		}()
	}
	if req.Mode != Dense {
		lexHits, lexShares = ix.lexicalTop(req.Query, req.Lang, req.Depth, allow, cv, req.Proximity)
	}
	// Relevance for the floor: the share of the query's content words'
	// evidence a chunk matched. It falls back to the ranking share when the
	// query has no content word at all.
	var content contentShare
	if req.Mode != Dense {
		content = ix.contentShare(req.Query, req.Lang, cv)
	}
	if tr != nil && req.Mode != Dense {
		tr.LexicalTime = since(&t0)
		tr.Lexical = ix.candidates(lexHits)
	}
	if denseDone != nil {
		<-denseDone
	} else if req.Mode != BM25 {
		denseHits = searchDense(denseLeg, req.Vector, req.Depth, denseAllow)
		if tr != nil {
			tr.DenseTime = since(&t0)
			tr.Dense = ix.candidates(denseHits)
		}
	}
	if tr != nil {
		defer func() { tr.FusionTime = since(&t0) }()
	}
	relevance := func(doc int, lex, dense float64) float64 {
		if req.Mode == Dense {
			return max(dense, 0)
		}
		if c := ix.share(content, doc); c > 0 || lex == 0 {
			return c
		}
		if lexShares != nil {
			return lexShares[doc]
		}
		return lex
	}

	switch req.Mode {
	case BM25:
		return ix.hits(lexHits, req.K, "bm25", func(s scored) fonte.Hit {
			return fonte.Hit{Score: s.score, Relevance: relevance(s.doc, s.score, 0)}
		}), nil
	case Dense:
		return ix.hits(denseHits, req.K, "vector", func(s scored) fonte.Hit {
			return fonte.Hit{Score: s.score, Relevance: relevance(s.doc, 0, s.score)}
		}), nil
	}

	// Hybrid: fuse the two candidate lists by rank.
	ids := func(list []scored) []string {
		out := make([]string, len(list))
		for i, s := range list {
			out[i] = key(s.doc)
		}
		return out
	}
	lw, dw := req.LexicalWeight, req.DenseWeight
	if lw == 0 && dw == 0 {
		lw, dw = 1, 1
	}
	fused := fusion.RRF([][]string{ids(lexHits), ids(denseHits)}, fusion.Options{K: req.RRFK, Weights: []float64{lw, dw}})
	lexScore := index(lexHits)
	denseScore := index(denseHits)
	var out []fonte.Hit
	for _, f := range fused {
		if len(out) == req.K {
			break
		}
		doc := unkey(f.ID)
		ls, ds := lexScore[doc], denseScore[doc]
		out = append(out, fusedHit(ix.src.Chunk(doc), f, ls, ds, relevance(doc, ls, ds)))
	}
	return out, nil
}

// fusedHit is one hybrid hit: the fused score, and each leg's rank and
// own score (the lexical leg first), so every search path explains a hit
// alike.
func fusedHit(c fonte.Chunk, f fusion.Fused, lexScore, denseScore, relevance float64) fonte.Hit {
	return fonte.Hit{
		Chunk:     c,
		Score:     f.Score,
		Relevance: relevance,
		Legs: []fonte.Leg{
			{Name: "bm25", Rank: f.Ranks[0], Score: lexScore},
			{Name: "vector", Rank: f.Ranks[1], Score: denseScore},
		},
	}
}

// candidates records a leg's list for a trace.
func (ix *Index) candidates(list []scored) []Candidate {
	return candidates(list, func(s scored) (fonte.Chunk, float64) { return ix.src.Chunk(s.doc), s.score })
}

func (ix *Index) hits(list []scored, k int, leg string, mk func(scored) fonte.Hit) []fonte.Hit {
	var out []fonte.Hit
	for i, s := range list {
		if i == k {
			break
		}
		h := mk(s)
		h.Chunk = ix.src.Chunk(s.doc)
		h.Legs = []fonte.Leg{{Name: leg, Rank: i + 1, Score: s.score}}
		out = append(out, h)
	}
	return out
}

type scored struct {
	doc   int
	score float64
}

// topK returns the k best positive scores allowed by allow, best first,
// ties by chunk number.
func topK(scores []float64, k int, allow func(int) bool) []scored {
	var out []scored
	for d, s := range scores {
		if s <= 0 || (allow != nil && !allow(d)) {
			continue
		}
		out = append(out, scored{d, s})
	}
	slices.SortFunc(out, func(a, b scored) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return cmp.Compare(a.doc, b.doc)
	})
	return out[:min(k, len(out))]
}

func index(list []scored) map[int]float64 {
	m := make(map[int]float64, len(list))
	for _, s := range list {
		m[s.doc] = s.score
	}
	return m
}

// key and unkey turn chunk numbers into fusion ids that sort like the
// numbers (zero-padded), so RRF's ties by id are ties by corpus order.
func key(doc int) string { return fmt.Sprintf("%012d", doc) }

func unkey(id string) int {
	n := 0
	for _, c := range id {
		n = n*10 + int(c-'0')
	}
	return n
}
