package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fonte-rag/fonte"
)

// Question is one entry of a question set: either answerable, with the
// passages that answer it, or unanswerable from the indexed documents.
type Question struct {
	ID           string `json:"id"`
	Question     string `json:"question"`
	Gold         []Gold `json:"gold,omitempty"`
	Answer       string `json:"answer,omitempty"`       // the expected answer, when known
	Unanswerable bool   `json:"unanswerable,omitempty"` // the documents do not answer it
}

// Gold is one passage that answers a question: a document and an exact
// quote from it.
type Gold struct {
	Doc   string `json:"doc"`   // document id: the path relative to the indexed folder
	Quote string `json:"quote"` // text the document contains, matched whitespace-normalised
}

// LineError reports a problem on one line of a data file, naming the field
// at fault when there is one.
type LineError struct {
	File  string
	Line  int    // 1-based
	Field string // e.g. "gold[1].quote"; "" when the line as a whole is at fault
	Err   error
}

// Error prints "file:line: field: problem".
func (e *LineError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
	}
	return fmt.Sprintf("%s:%d: %s: %v", e.File, e.Line, e.Field, e.Err)
}

// Unwrap returns the underlying error.
func (e *LineError) Unwrap() error { return e.Err }

// LoadQuestions reads a question set: JSONL, one question per line. Blank
// lines and lines starting with "//" or "#" are skipped. Validation is
// strict, because a silently misread question set gives wrong figures that
// look right: every error names the file, the line and the field. A file
// without questions is an error too.
func LoadQuestions(path string) ([]Question, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadQuestions(f, path)
}

// ReadQuestions reads a question set from r as LoadQuestions reads a
// file; name stands for the file in errors.
func ReadQuestions(r io.Reader, name string) ([]Question, error) {
	path := name
	var qs []Question
	seen := map[string]int{} // id -> line
	err := eachLine(path, r, func(n int, line []byte) error {
		if n == 1 {
			line = bytes.TrimPrefix(line, []byte("\ufeff")) // editors on Windows add a BOM
		}
		t := bytes.TrimSpace(line)
		if len(t) == 0 || bytes.HasPrefix(t, []byte("//")) || bytes.HasPrefix(t, []byte("#")) {
			return nil
		}
		q, field, err := parseQuestion(t)
		if err != nil {
			return &LineError{File: path, Line: n, Field: field, Err: err}
		}
		if first, dup := seen[q.ID]; dup {
			return &LineError{File: path, Line: n, Field: "id", Err: fmt.Errorf("duplicate id %q, first on line %d", q.ID, first)}
		}
		seen[q.ID] = n
		qs = append(qs, q)
		return nil
	})
	if err == nil && len(qs) == 0 {
		err = fmt.Errorf("%s: no questions", path) // figures over nothing would read as zeros
	}
	return qs, err
}

// eachLine calls fn with every line of r (without its line end) and its
// 1-based number. Lines may be of any length: corpora carry long
// documents on one line.
func eachLine(name string, r io.Reader, fn func(n int, line []byte) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			line = bytes.TrimSuffix(line, []byte("\n"))
			line = bytes.TrimSuffix(line, []byte("\r"))
			if ferr := fn(n, line); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s:%d: %w", name, n, err)
		}
	}
}

// questionFields and goldFields are the only keys a question line may
// carry; anything else is most likely a typo ("unanswerabe") that would
// otherwise change the meaning of the question silently.
var (
	questionFields = []string{"id", "question", "gold", "answer", "unanswerable"}
	goldFields     = []string{"doc", "quote"}
)

// parseQuestion decodes and validates one JSON line. It decodes field by
// field rather than into the struct at once so that an error can name the
// exact field, down to the gold item.
func parseQuestion(line []byte) (Question, string, error) {
	var q Question
	obj, err := object(line)
	if err != nil {
		return q, "", err
	}
	if field := unknownField(obj, questionFields); field != "" {
		return q, field, errors.New("unknown field")
	}
	for _, f := range []struct {
		name string
		dst  any
	}{
		{"id", &q.ID}, {"question", &q.Question}, {"answer", &q.Answer}, {"unanswerable", &q.Unanswerable},
	} {
		if err := decodeField(obj, f.name, f.dst); err != nil {
			return q, f.name, err
		}
	}
	var golds []json.RawMessage
	if err := decodeField(obj, "gold", &golds); err != nil {
		return q, "gold", err
	}
	for i, raw := range golds {
		name := fmt.Sprintf("gold[%d]", i)
		g, err := object(raw)
		if err != nil {
			return q, name, err
		}
		if field := unknownField(g, goldFields); field != "" {
			return q, name + "." + field, errors.New("unknown field")
		}
		var item Gold
		if err := decodeField(g, "doc", &item.Doc); err != nil {
			return q, name + ".doc", err
		}
		if err := decodeField(g, "quote", &item.Quote); err != nil {
			return q, name + ".quote", err
		}
		q.Gold = append(q.Gold, item)
	}
	field, err := validate(q)
	return q, field, err
}

// object decodes a JSON object into its raw fields.
func object(data []byte) (map[string]json.RawMessage, error) {
	if !json.Valid(data) {
		var v any
		err := json.Unmarshal(data, &v)
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("malformed JSON at byte %d: %w", se.Offset, err)
		}
		return nil, fmt.Errorf("malformed JSON: %w", err)
	}
	if t := bytes.TrimSpace(data); len(t) == 0 || t[0] != '{' {
		return nil, errors.New("not a JSON object")
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		return nil, err
	}
	return obj, nil
}

// unknownField returns the first key of obj, in sorted order so the error
// is reproducible, that is not in known.
func unknownField(obj map[string]json.RawMessage, known []string) string {
	var unknown []string
	for k := range obj {
		if !slices.Contains(known, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return ""
	}
	slices.Sort(unknown)
	return unknown[0]
}

// decodeField decodes obj[name] into dst when present. JSON null leaves dst
// at its zero value.
func decodeField(obj map[string]json.RawMessage, name string, dst any) error {
	raw, ok := obj[name]
	if !ok {
		return nil
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return fmt.Errorf("want %s, got %s", jsonKind(dst), te.Value)
		}
		return err
	}
	return nil
}

// jsonKind names the JSON type dst expects, for error messages.
func jsonKind(dst any) string {
	switch dst.(type) {
	case *string:
		return "a string"
	case *bool:
		return "true or false"
	default:
		return "a list"
	}
}

// validate checks a decoded question and returns the field at fault.
func validate(q Question) (string, error) {
	if strings.TrimSpace(q.ID) == "" {
		return "id", errors.New("missing or empty")
	}
	if strings.TrimSpace(q.Question) == "" {
		return "question", errors.New("missing or empty")
	}
	switch {
	case q.Unanswerable && len(q.Gold) > 0:
		return "gold", errors.New("an unanswerable question cannot have gold passages")
	case q.Unanswerable && q.Answer != "":
		return "answer", errors.New("an unanswerable question cannot have an answer")
	case !q.Unanswerable && len(q.Gold) == 0:
		return "gold", errors.New(`missing: give gold passages or "unanswerable": true`)
	}
	type key struct{ doc, quote string }
	seen := map[key]int{}
	for i, g := range q.Gold {
		name := fmt.Sprintf("gold[%d]", i)
		if g.Doc == "" {
			return name + ".doc", errors.New("missing or empty")
		}
		// Document ids are slash-separated paths relative to the indexed
		// folder; "./a.md" or "docs\a.md" would never match one.
		if !fs.ValidPath(g.Doc) || g.Doc == "." || strings.Contains(g.Doc, `\`) {
			return name + ".doc", fmt.Errorf("%q is not a clean relative slash-separated path", g.Doc)
		}
		quote := normalize(g.Quote)
		if quote == "" {
			return name + ".quote", errors.New("missing or empty")
		}
		k := key{g.Doc, quote}
		if j, dup := seen[k]; dup {
			return name, fmt.Errorf("repeats gold[%d]", j)
		}
		seen[k] = i
	}
	return "", nil
}

// IsHit reports whether a retrieved chunk answers q: it comes from a gold
// document and contains that gold item's quote, compared after normalize.
func IsHit(q Question, docID, chunkText string) bool {
	text := ""
	for _, g := range q.Gold {
		if g.Doc != docID {
			continue
		}
		if text == "" {
			text = normalize(chunkText)
		}
		if strings.Contains(text, normalize(g.Quote)) {
			return true
		}
	}
	return false
}

// GoldRanks returns, for each gold item of q in order, the 1-based rank of
// the first hit that contains it (see IsHit), or 0 when none does.
func GoldRanks(q Question, hits []fonte.Hit) []int {
	ranks := make([]int, len(q.Gold))
	quotes := make([]string, len(q.Gold))
	for i, g := range q.Gold {
		quotes[i] = normalize(g.Quote)
	}
	for r, h := range hits {
		text, done := "", false
		for i, g := range q.Gold {
			if ranks[i] != 0 || g.Doc != h.Chunk.DocID {
				continue
			}
			if !done {
				text, done = normalize(h.Chunk.Text), true
			}
			if strings.Contains(text, quotes[i]) {
				ranks[i] = r + 1
			}
		}
	}
	return ranks
}

// QuestionRun turns the hits retrieved for each question (by question id)
// into judgments and rankings that the metrics score: the gold items of a
// question are its relevant ids ("gold/0", "gold/1", ...), and a hit takes
// the id of the first gold item it contains that no earlier hit contained,
// or a non-relevant id of its own. So recall@k is the share of gold items
// found in the top k, and each hit counts for one gold item at most, as a
// judged document does in BEIR: a chunk holding two quotes credits the
// first, and the second counts once another hit contains it.
//
// Unanswerable questions are left out. An answerable question without an
// entry in hits gets an empty ranking, so it counts and scores 0.
func QuestionRun(qs []Question, hits map[string][]fonte.Hit) (Qrels, Run) {
	qrels, run := Qrels{}, Run{}
	for _, q := range qs {
		if q.Unanswerable || len(q.Gold) == 0 {
			continue
		}
		rel := make(Judgments, len(q.Gold))
		quotes := make([]string, len(q.Gold))
		for i, g := range q.Gold {
			rel[goldID(i)] = 1
			quotes[i] = normalize(g.Quote)
		}
		credited := make([]bool, len(q.Gold))
		ranked := make([]string, 0, len(hits[q.ID]))
		for r, h := range hits[q.ID] {
			id := "hit/" + strconv.Itoa(r+1) // unique, so no position collapses
			text, done := "", false
			for i, g := range q.Gold {
				if credited[i] || g.Doc != h.Chunk.DocID {
					continue
				}
				if !done {
					text, done = normalize(h.Chunk.Text), true
				}
				if strings.Contains(text, quotes[i]) {
					credited[i], id = true, goldID(i)
					break
				}
			}
			ranked = append(ranked, id)
		}
		qrels[q.ID], run[q.ID] = rel, ranked
	}
	return qrels, run
}

func goldID(i int) string { return "gold/" + strconv.Itoa(i) }

// TopScores returns the best hit score of each question, answerable and
// unanswerable apart: the inputs of the floor trade-off. A question with
// no hits scores -Inf, so every floor blocks it, as answer.Abstain does.
func TopScores(qs []Question, hits map[string][]fonte.Hit) (answerable, unanswerable []float64) {
	for _, q := range qs {
		best := math.Inf(-1)
		for _, h := range hits[q.ID] {
			best = max(best, h.Score)
		}
		if q.Unanswerable {
			unanswerable = append(unanswerable, best)
		} else {
			answerable = append(answerable, best)
		}
	}
	return answerable, unanswerable
}

// normalize prepares text for quote matching: typographic quotes and
// apostrophes become ASCII (Markdown renderers and editors produce them on
// one side and not the other), every run of Unicode white space (NBSP
// included) becomes one space, and the ends are trimmed. Case is kept.
func normalize(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	pending := false
	for _, r := range s {
		switch r {
		case '\u2018', '\u2019': // ‘ ’
			r = '\''
		case '\u201C', '\u201D': // “ ”
			r = '"'
		}
		if unicode.IsSpace(r) { // covers U+00A0 NBSP and U+202F
			pending = b.Len() > 0
			continue
		}
		if pending {
			b.WriteByte(' ')
			pending = false
		}
		if r < utf8.RuneSelf {
			b.WriteByte(byte(r))
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}
