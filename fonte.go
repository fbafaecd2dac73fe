// Package fonte is the vocabulary of the fonte retrieval-augmented generation
// engine: the documents it ingests, the chunks it indexes, the hits it
// retrieves, and the small interfaces every stage is written against.
//
// The root package depends on the standard library only. Each concept lives
// in its own subpackage: analysis (tokens), chunk (passages), lexical (BM25,
// TF-IDF), embed (dense vectors), vector (exact and approximate search),
// fusion (rank fusion), answer (floor, fit, prompt, grounding) and eval
// (metrics). Package engine wires them into what a Go program embeds:
// engine.Open an index, then Index a folder, Search and Ask it (see
// engine's example); the fonte command, package server and package mcp
// are layers over it.
package fonte

import (
	"context"
	"time"
)

// Document is one source file after ingestion: clean text plus the metadata
// a citation needs.
type Document struct {
	ID       string    // stable identifier, the path relative to the indexed folder
	Title    string    // from front matter, <title> or the first heading
	Source   string    // where a reader can find the original (path or URL)
	Language string    // ISO 639-1 code ("en", "it") detected or declared
	SHA256   string    // hex digest of the raw bytes, the key for incremental indexing
	Updated  time.Time // last modification time of the source
	Text     string    // the extracted text
	Tags     []string  // free labels from front matter, usable as filters
}

// Chunk is the unit of retrieval: a passage of one document with the heading
// path it sits under and the byte span it came from, so a citation can quote
// it exactly.
type Chunk struct {
	ID       string   // unique within an index, e.g. "<doc id>#<position>"
	DocID    string   // the Document it belongs to
	Title    string   // the document title, repeated so a chunk describes itself
	Headings []string // heading path from the outermost heading down
	Text     string   // the passage text shown to readers and models
	Start    int      // byte offset of the passage in Document.Text
	End      int      // byte offset one past the passage's end
	Page     int      // 1-based page for paginated sources, 0 when not paginated
	Position int      // 0-based order of the chunk within its document
}

// Heading returns the innermost heading, or "" when the chunk has none.
func (c Chunk) Heading() string {
	if len(c.Headings) == 0 {
		return ""
	}
	return c.Headings[len(c.Headings)-1]
}

// Hit is one retrieved chunk with its score. Legs explain where a fused
// score came from; they are empty for single-retriever hits.
type Hit struct {
	Chunk Chunk
	Score float64 // the ranking score (fused, for hybrid retrieval)
	// Relevance is a calibrated score in [0, 1] that the abstain floor
	// compares against: for lexical legs, the share of the query's
	// evidence (idf-weighted terms) the chunk matched; for dense legs, the
	// cosine similarity. Rank-fusion scores are not comparable across
	// queries, so they never serve as a floor.
	Relevance float64
	Legs      []Leg
}

// Leg is one retriever's contribution to a fused hit.
type Leg struct {
	Name  string  `json:"name"`  // "bm25", "vector", ...
	Rank  int     `json:"rank"`  // 1-based rank in that retriever's list, 0 when absent
	Score float64 `json:"score"` // that retriever's own score
}

// Chunker splits a document into chunks. Implementations are stateless so
// the same value can be shared between goroutines.
type Chunker interface {
	Chunk(doc Document) []Chunk
}

// Embedder turns a batch of texts into dense vectors of one fixed dimension.
// The model id and dimension are recorded with an index so that vectors of
// different models are never mixed.
type Embedder interface {
	// Embed returns one vector per text, in order.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	// Model identifies the model and its settings, e.g. "hash-surrogate/128".
	Model() string
	// Dimension is the length of every vector Embed returns.
	Dimension() int
}

// Message is one turn of a conversation sent to a Generator.
type Message struct {
	Role    string // "system", "user" or "assistant"
	Content string
}

// Generator produces an answer from a conversation. Implementations stream:
// when onDelta is not nil it is called with each piece of text as it
// arrives, and the full text is returned at the end.
type Generator interface {
	Generate(ctx context.Context, messages []Message, onDelta func(string)) (string, error)
	// Model identifies the model, e.g. "ollama/llama3.2".
	Model() string
}

// Reranker scores each text's relevance to a query; higher is better.
// Scores are returned in the order of texts.
type Reranker interface {
	Rerank(ctx context.Context, query string, texts []string) ([]float64, error)
	Model() string
}

// Citation is one numbered source of an answer, with what a reader needs
// to check it: where it comes from, how fresh it is, and the exact span
// quoted.
type Citation struct {
	N        int       // the number the answer cites it by, from 1
	DocID    string    // document id (relative path)
	Title    string    // document title
	Headings []string  // heading path of the chunk
	Source   string    // path or URL of the original
	Page     int       // 1-based page, 0 when not paginated
	Updated  time.Time // last modification of the source
	// DocSHA256 is the content hash of the document version quoted, so
	// a client that keeps the answer can later tell whether the
	// document changed since.
	DocSHA256 string
	Quote     string // the sentence or passage the answer rests on
	Start     int    // byte span of Quote in the document text
	End       int
	Chunk     Chunk // the whole chunk given to the generator
}

// Answer is the result of asking a question.
type Answer struct {
	Question  string // as asked
	Query     string // the standalone query retrieval ran (rewritten in a chat)
	Text      string // the answer, citing sources as [n]
	Abstained bool   // true when fonte declined to answer ("I don't know", in the question's language)
	// Lang is the question's language as detected ("en", "it" ...); when
	// its words hold no evidence of one, the language of the passage that
	// matched it best, or of the documents when all are in one, else "":
	// the language of Text when fonte abstains and of Notice.
	Lang string
	// Notice, when set, is what the reader must know before the answer,
	// in the question's language: that nothing was found in that
	// language, and in which language the passages found are (or the
	// documents, when no passage shares a word with the question); else,
	// on an abstention at the floor, the question's words no document
	// uses.
	Notice string
	// Citations lists the sources given to the generator, numbered as the
	// prompt numbered them; when abstaining, the nearest sources found.
	Citations []Citation
	// Unsupported lists the answer's sentences whose content words are not
	// found in the sources they cite (or, uncited, in any source).
	Unsupported []string
	// BadCitations lists citation numbers that name no source.
	BadCitations []int
	Model        string  // the generator that wrote Text
	Prompt       string  // the prompt sent, for inspection
	Relevance    float64 // the best retrieved relevance, compared with the floor
}
