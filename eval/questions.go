package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/internal/lineerr"
)

// Question is one entry of a question set: either answerable, with the
// passages that answer it, or unanswerable from the indexed documents.
type Question struct {
	ID           string `json:"id"`
	Question     string `json:"question"`
	Gold         []Gold `json:"gold,omitempty"`
	Answer       string `json:"answer,omitempty"`       // the expected answer, when known
	Unanswerable bool   `json:"unanswerable,omitempty"` // the documents do not answer it
	// Split is the part of the set the question belongs to: SplitDev,
	// SplitTest, or "" when the set is not split. Defaults are chosen on
	// dev questions; test questions only measure.
	Split string `json:"split,omitempty"`
}

// Gold is one passage that answers a question: a document and an exact
// quote from it.
type Gold struct {
	Doc   string `json:"doc"`   // document id: the path relative to the indexed folder
	Quote string `json:"quote"` // text the document contains, matched whitespace-normalised
}

// LineError reports a problem on one line of a data file, naming the field
// at fault when there is one: "file:line: field: problem".
type LineError = lineerr.Error

// LoadQuestions reads a question set: JSONL, one question per line. Blank
// lines and lines starting with "//" or "#" are skipped. Validation is
// strict, because a silently misread question set gives wrong figures that
// look right: every error names the file, the line and the field. A file
// without questions is an error too.
//
// Fields fonte does not know are read and ignored, since question sets
// carry metadata of their own ("category", "source", a gold item's
// "page"), but a field that looks like a misspelt known one (see
// LoadQuestionsWarn) is an error. LoadQuestions logs the one warning
// naming the ignored fields with slog.Warn; LoadQuestionsWarn returns it.
func LoadQuestions(path string) ([]Question, error) {
	qs, warnings, err := LoadQuestionsWarn(path)
	logWarnings(warnings)
	return qs, err
}

// LoadQuestionsWarn reads a question set as LoadQuestions does and
// returns the warnings to show instead of logging them: at most one, for
// the whole file, naming the fields fonte ignored and the lines they are
// on. A field that differs from a known one only in case ("Question") or
// by a small edit distance (at most 1 for names of up to 4 letters, such
// as "id", "doc" and "gold", so that short metadata keys like "ts" stay
// metadata; at most 2 for longer ones, e.g. "unanswerabe") is an error
// naming the line, the field and the known field it resembles.
func LoadQuestionsWarn(path string) ([]Question, []string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return ReadQuestionsWarn(f, path)
}

// ReadQuestions reads a question set from r as LoadQuestions reads a
// file; name stands for the file in errors.
func ReadQuestions(r io.Reader, name string) ([]Question, error) {
	qs, warnings, err := ReadQuestionsWarn(r, name)
	logWarnings(warnings)
	return qs, err
}

// ReadQuestionsWarn reads a question set from r as LoadQuestionsWarn reads
// a file; name stands for the file in errors and warnings.
func ReadQuestionsWarn(r io.Reader, name string) ([]Question, []string, error) {
	path := name
	var qs []Question
	seen := map[string]int{}      // id -> line
	ignored := map[string][]int{} // unknown field -> lines
	err := eachLine(path, r, func(n int, line []byte) error {
		if n == 1 {
			line = bytes.TrimPrefix(line, []byte("\ufeff")) // editors on Windows add a BOM
		}
		t := bytes.TrimSpace(line)
		if len(t) == 0 || bytes.HasPrefix(t, []byte("//")) || bytes.HasPrefix(t, []byte("#")) {
			return nil
		}
		q, unknown, field, err := parseQuestion(t)
		for _, f := range unknown {
			ignored[f] = append(ignored[f], n)
		}
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
	if err != nil {
		return qs, nil, err
	}
	var warnings []string
	if len(ignored) > 0 {
		warnings = append(warnings, ignoredWarning(path, ignored))
	}
	return qs, warnings, nil
}

// ignoredWarning is the one warning about a file's unknown fields, e.g.
// "set.jsonl: ignored fields fonte does not know: category (lines 1-3, 7),
// gold[].page (line 2)".
func ignoredWarning(name string, ignored map[string][]int) string {
	fields := slices.Sorted(maps.Keys(ignored))
	parts := make([]string, len(fields))
	for i, f := range fields {
		parts[i] = fmt.Sprintf("%s (%s)", f, lineRanges(ignored[f]))
	}
	return fmt.Sprintf("%s: ignored fields fonte does not know: %s", name, strings.Join(parts, ", "))
}

// lineRanges prints ascending line numbers compactly: "line 4",
// "lines 1-3, 7", and past ten ranges "lines 1-3, 7, ... (40 lines)".
func lineRanges(lines []int) string {
	if len(lines) == 1 {
		return "line " + strconv.Itoa(lines[0])
	}
	var parts []string
	for i := 0; i < len(lines); {
		j := i
		for j+1 < len(lines) && lines[j+1] == lines[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, strconv.Itoa(lines[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", lines[i], lines[j]))
		}
		i = j + 1
	}
	if len(parts) > 10 {
		return fmt.Sprintf("lines %s, ... (%d lines)", strings.Join(parts[:10], ", "), len(lines))
	}
	return "lines " + strings.Join(parts, ", ")
}

// logWarnings logs warnings for the callers that do not take them.
func logWarnings(warnings []string) {
	for _, w := range warnings {
		slog.Warn(w)
	}
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

// questionFields and goldFields are the keys fonte reads from a question
// line. Others are ignored with a warning, unless they look like a typo of
// one of these ("unanswerabe"), which would otherwise change the meaning
// of the question silently.
var (
	questionFields = []string{"id", "question", "gold", "answer", "unanswerable", "split"}
	goldFields     = []string{"doc", "quote"}
)

// parseQuestion decodes and validates one JSON line. It decodes field by
// field rather than into the struct at once so that an error can name the
// exact field, down to the gold item. It also returns the unknown fields
// it ignored, a gold item's as "gold[].name".
func parseQuestion(line []byte) (q Question, unknown []string, field string, err error) {
	q, field, err = parseQuestionFields(line, &unknown)
	return q, unknown, field, err
}

func parseQuestionFields(line []byte, unknown *[]string) (Question, string, error) {
	var q Question
	obj, err := object(line)
	if err != nil {
		return q, "", err
	}
	if field, err := unknownFields(obj, questionFields, "", unknown); err != nil {
		return q, field, err
	}
	for _, f := range []struct {
		name string
		dst  any
	}{
		{"id", &q.ID}, {"question", &q.Question}, {"answer", &q.Answer}, {"unanswerable", &q.Unanswerable}, {"split", &q.Split},
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
		if field, err := unknownFields(g, goldFields, "gold[].", unknown); err != nil {
			return q, name + "." + field, err
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

// unknownFields adds the keys of obj that are not in known to *unknown,
// prefixed with prefix, unless one resembles a known field: then it
// returns that key (the first in sorted order, so the error is
// reproducible) and an error naming the field it resembles.
func unknownFields(obj map[string]json.RawMessage, known []string, prefix string, unknown *[]string) (string, error) {
	var keys []string
	for k := range obj {
		if !slices.Contains(known, k) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		if like, caseOnly := resembles(k, known); like != "" {
			if caseOnly {
				return k, fmt.Errorf("unknown field; did you mean %q? (field names are case-sensitive)", like)
			}
			return k, fmt.Errorf("unknown field; did you mean %q?", like)
		}
	}
	for _, k := range keys {
		*unknown = append(*unknown, prefix+k)
	}
	return "", nil
}

// resembles returns the known field that name is most likely a misspelling
// of, or "": one equal to it but for case (caseOnly), or within an edit
// distance of 1 for known names of up to 4 letters and 2 for longer ones.
func resembles(name string, known []string) (like string, caseOnly bool) {
	lower := strings.ToLower(name)
	best, bestDist := "", 3
	for _, k := range known {
		if lower == k {
			return k, true
		}
		limit := 2
		if len(k) <= 4 {
			limit = 1
		}
		if d := editDistance(lower, k); d <= limit && d < bestDist {
			best, bestDist = k, d
		}
	}
	return best, false
}

// editDistance is the Levenshtein distance between a and b, in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
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
	if q.Split != "" && q.Split != SplitDev && q.Split != SplitTest {
		return "split", fmt.Errorf("%q is not a split: want %q or %q, or no split field", q.Split, SplitDev, SplitTest)
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
