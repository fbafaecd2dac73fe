// Package wire holds the JSON shapes fonte prints and serves: a search
// hit, an answer and its citations. `fonte search --json`, `fonte ask
// --json` and the HTTP API all encode these types, so they cannot drift.
package wire

import (
	"strings"
	"time"

	"github.com/fonte-rag/fonte"
)

// HeadingSep joins a heading path into one line.
const HeadingSep = " › "

// Hit is one search result.
type Hit struct {
	Doc       string      `json:"doc"`
	Chunk     string      `json:"chunk"`
	Score     float64     `json:"score"`
	Relevance float64     `json:"relevance"`
	Title     string      `json:"title"`
	Heading   string      `json:"heading"`
	Headings  []string    `json:"headings"`
	Page      int         `json:"page,omitempty"`
	Text      string      `json:"text"`
	Legs      []fonte.Leg `json:"legs"`
}

// Hits converts engine hits, never returning nil (so JSON shows []).
func Hits(hits []fonte.Hit) []Hit {
	out := make([]Hit, 0, len(hits))
	for _, h := range hits {
		out = append(out, Hit{Doc: h.Chunk.DocID, Chunk: h.Chunk.ID, Score: h.Score, Relevance: h.Relevance, Title: h.Chunk.Title,
			Heading: strings.Join(h.Chunk.Headings, HeadingSep), Headings: h.Chunk.Headings, Page: h.Chunk.Page, Text: h.Chunk.Text, Legs: h.Legs})
	}
	return out
}

// Citation is one source of an answer.
type Citation struct {
	N        int       `json:"n"`
	Doc      string    `json:"doc"`
	Title    string    `json:"title"`
	Heading  string    `json:"heading"`
	Headings []string  `json:"headings"`
	Source   string    `json:"source"`
	Page     int       `json:"page"`
	Updated  time.Time `json:"updated"`
	Quote    string    `json:"quote"`
	Start    int       `json:"start"`
	End      int       `json:"end"`
	// Chunk and DocSHA256 let a client that keeps the answer ask later
	// (GET /v1/passages/{chunk}) whether the passage still exists and
	// whether its document changed.
	Chunk     string `json:"chunk"`
	DocSHA256 string `json:"doc_sha256"`
}

// Answer is an answer with its citations, or an abstention.
type Answer struct {
	Question  string `json:"question"`
	Query     string `json:"query"`
	Answer    string `json:"answer"`
	Abstained bool   `json:"abstained"`
	// Lang is the question's language as detected ("" when undetermined),
	// Notice what the reader must know first, in that language (nothing
	// was found in it, or which of the question's words no document uses);
	// empty when there is nothing to tell.
	Lang         string     `json:"lang"`
	Notice       string     `json:"notice,omitempty"`
	Relevance    float64    `json:"relevance"`
	Citations    []Citation `json:"citations"`
	Unsupported  []string   `json:"unsupported"`
	BadCitations []int      `json:"bad_citations"`
	Model        string     `json:"model"`
	Prompt       string     `json:"prompt,omitempty"`
}

// FromAnswer converts an engine answer; the prompt is included only when
// withPrompt is set. Empty lists are [] rather than null.
func FromAnswer(a *fonte.Answer, withPrompt bool) Answer {
	j := Answer{Question: a.Question, Query: a.Query, Answer: a.Text, Abstained: a.Abstained, Lang: a.Lang, Notice: a.Notice, Relevance: a.Relevance,
		Citations: Citations(a.Citations), Unsupported: a.Unsupported, BadCitations: a.BadCitations, Model: a.Model}
	if j.Unsupported == nil {
		j.Unsupported = []string{}
	}
	if j.BadCitations == nil {
		j.BadCitations = []int{}
	}
	if withPrompt {
		j.Prompt = a.Prompt
	}
	return j
}

// Citations converts an answer's citations, never returning nil.
func Citations(cs []fonte.Citation) []Citation {
	out := make([]Citation, 0, len(cs))
	for _, c := range cs {
		out = append(out, Citation{N: c.N, Doc: c.DocID, Title: c.Title, Heading: strings.Join(c.Headings, HeadingSep),
			Headings: c.Headings, Source: c.Source, Page: c.Page, Updated: c.Updated, Quote: c.Quote, Start: c.Start, End: c.End,
			Chunk: c.Chunk.ID, DocSHA256: c.DocSHA256})
	}
	return out
}
