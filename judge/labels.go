package judge

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/fonte-rag/fonte/internal/lineerr"
)

// Label is one answer a person read and judged: the hand label the judge
// is measured against. Its JSON form is one line of a labels file.
type Label struct {
	ID        string  `json:"id"`
	Lang      string  `json:"lang"` // "en" or "it"
	Question  string  `json:"question"`
	Reference string  `json:"reference"`
	Answer    string  `json:"answer"`
	Abstained bool    `json:"abstained"` // the answering system reported abstaining
	Verdict   Verdict `json:"verdict"`
	Source    string  `json:"source,omitempty"` // where the answer came from: "fonte-extractive", "hand-variant", …
	Note      string  `json:"note,omitempty"`   // why, for a non-obvious case
	// Set and QuestionID say which question set and question the label
	// was taken from, when it was.
	Set        string `json:"set,omitempty"`
	QuestionID string `json:"question_id,omitempty"`
}

// LabelError reports a problem on one line of a labels file, naming the
// field at fault when there is one: "file:line: field: problem".
type LabelError = lineerr.Error

// LoadLabels reads a labels file: JSONL, one label per line. Blank lines
// and lines starting with "//" or "#" are skipped. Validation is strict,
// since a misread label gives an agreement that looks right: every error
// names the file, the line and the field; an unknown field, a missing or
// empty required one, a language other than "en" and "it", an unknown
// verdict and a repeated id are errors, and so is a file without labels.
func LoadLabels(path string) ([]Label, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadLabels(f, path)
}

// ReadLabels reads labels from r as LoadLabels reads a file; name stands
// for the file in errors.
func ReadLabels(r io.Reader, name string) ([]Label, error) {
	var out []Label
	seen := map[string]int{}
	br := bufio.NewReader(r)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if n == 1 {
			line = bytes.TrimPrefix(line, []byte("\ufeff"))
		}
		t := bytes.TrimSpace(line)
		if len(t) > 0 && !bytes.HasPrefix(t, []byte("//")) && !bytes.HasPrefix(t, []byte("#")) {
			l, field, perr := parseLabel(t)
			if perr != nil {
				return nil, &LabelError{File: name, Line: n, Field: field, Err: perr}
			}
			if first, dup := seen[l.ID]; dup {
				return nil, &LabelError{File: name, Line: n, Field: "id", Err: fmt.Errorf("duplicate id %q, first on line %d", l.ID, first)}
			}
			seen[l.ID] = n
			out = append(out, l)
		}
		if errors.Is(err, io.EOF) {
			break
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no labels", name) // an agreement over nothing would read as a figure
	}
	return out, nil
}

// labelFields are the fields of a label and whether each is required.
var labelFields = map[string]bool{"id": true, "lang": true, "question": true, "reference": true, "answer": true,
	"abstained": true, "verdict": true, "source": false, "note": false,
	"set": false, "question_id": false}

// parseLabel decodes and checks one line, returning the field at fault
// with an error.
func parseLabel(line []byte) (Label, string, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(line, &raw); err != nil {
		return Label{}, "", fmt.Errorf("not a JSON object: %w", err)
	}
	for k := range raw {
		if _, ok := labelFields[k]; !ok {
			return Label{}, k, errors.New("unknown field (want id, lang, question, reference, answer, abstained, verdict, source, note, set, question_id)")
		}
	}
	for _, k := range []string{"id", "lang", "question", "reference", "answer", "abstained", "verdict"} {
		if _, ok := raw[k]; !ok {
			return Label{}, k, errors.New("missing")
		}
	}
	var l Label
	str := func(k string, dst *string, nonEmpty bool) error {
		v, ok := raw[k]
		if !ok {
			return nil
		}
		if err := json.Unmarshal(v, dst); err != nil || string(v) == "null" {
			return errors.New("not a string")
		}
		if nonEmpty && strings.TrimSpace(*dst) == "" {
			return errors.New("empty")
		}
		return nil
	}
	for _, f := range []struct {
		name     string
		dst      *string
		nonEmpty bool
	}{
		{"id", &l.ID, true}, {"lang", &l.Lang, true}, {"question", &l.Question, true}, {"reference", &l.Reference, true},
		{"answer", &l.Answer, false}, {"source", &l.Source, false}, {"note", &l.Note, false},
		{"set", &l.Set, false}, {"question_id", &l.QuestionID, false},
	} {
		if err := str(f.name, f.dst, f.nonEmpty); err != nil {
			return Label{}, f.name, err
		}
	}
	if l.Lang != "en" && l.Lang != "it" {
		return Label{}, "lang", fmt.Errorf("%q is not en or it", l.Lang)
	}
	if string(raw["abstained"]) != "true" && string(raw["abstained"]) != "false" {
		return Label{}, "abstained", errors.New("not true or false")
	}
	l.Abstained = string(raw["abstained"]) == "true"
	var v string
	if err := str("verdict", &v, true); err != nil {
		return Label{}, "verdict", err
	}
	verdict, err := ParseVerdict(v)
	if err != nil {
		return Label{}, "verdict", err
	}
	l.Verdict = verdict
	if strings.TrimSpace(l.Answer) == "" && !l.Abstained {
		return Label{}, "answer", errors.New("empty, and the label does not say the system abstained")
	}
	return l, "", nil
}
