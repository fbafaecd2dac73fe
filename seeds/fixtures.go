// Package seeds reproduces, with fonte's own packages, every figure the three
// seed documents print. The CLI's `fonte reproduce` and the conformance tests
// call the same functions, so a passing test means the product computes the
// seeds' tables, not a test-only copy of them.
package seeds

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// File names of the fixtures inside a seeds directory.
const (
	Seed000File = "seed000-rulebook-it.json"
	Seed001File = "seed001-sops-en.json"
	Seed002File = "seed002-handbook-en.json"
)

// Seed000 is the Italian rulebook: 6 documents × 3 passages, 15 questions
// with the passage that answers them, and 4 questions with no answer.
type Seed000 struct {
	Documents map[string][]string `json:"documents"`
	Passages  []struct {
		ID   int    `json:"id"`
		Doc  string `json:"doc"`
		I    int    `json:"i"`
		Text string `json:"text"`
	} `json:"passages"`
	Questions []struct {
		Question    string `json:"question"`
		GoldPassage int    `json:"gold_passage"`
	} `json:"questions"`
	Unanswerable []string `json:"unanswerable"`
}

// Seed001 is the six English procedures of the hybrid-retrieval seed.
type Seed001 struct {
	Documents     map[string]string `json:"documents"`
	SynonymGroups [][]string        `json:"synonym_groups"`
	StopWords     []string          `json:"stop_words"`
	Dim           int               `json:"dim"`
	Queries       []string          `json:"queries"`
}

// Seed002 is the support handbook of the RAG seed.
type Seed002 struct {
	HandbookSmall string   `json:"handbook_small"`
	Handbook      string   `json:"handbook"`
	StopWords     []string `json:"stop_words"`
	Eval          []struct {
		Question     string `json:"question"`
		GoldChunk    string `json:"gold_chunk"`
		GoldSentence int    `json:"gold_sentence"`
	} `json:"eval"`
	Unanswerable []string        `json:"unanswerable"`
	Prior        json.RawMessage `json:"prior"` // an ordered object: trigger order matters
	Truth        map[string]bool `json:"truth"`
	PriorOrder   []PriorEntry    `json:"-"`
}

// PriorEntry is one trigger → canned answer pair of seed 002's prior table,
// in the order the fixture lists them.
type PriorEntry struct {
	Trigger string
	Answer  string
}

// Fixtures holds the three seeds' corpora and question sets.
type Fixtures struct {
	S000 Seed000
	S001 Seed001
	S002 Seed002
}

// Load reads the three fixture files from dir. A missing or malformed file
// is an error naming it: the conformance figures cannot be checked without
// every one of them.
func Load(dir string) (*Fixtures, error) {
	f := &Fixtures{}
	for _, x := range []struct {
		name string
		into any
	}{{Seed000File, &f.S000}, {Seed001File, &f.S001}, {Seed002File, &f.S002}} {
		path := filepath.Join(dir, x.name)
		raw, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("seeds: reading fixture: %w", err)
		}
		if err := json.Unmarshal(raw, x.into); err != nil {
			return nil, fmt.Errorf("seeds: %s: %w", path, err)
		}
	}
	prior, err := orderedPairs(f.S002.Prior)
	if err != nil {
		return nil, fmt.Errorf("seeds: %s: prior: %w", filepath.Join(dir, Seed002File), err)
	}
	f.S002.PriorOrder = prior
	if len(f.S000.Passages) == 0 || len(f.S000.Questions) == 0 || len(f.S001.Documents) == 0 || len(f.S002.Eval) == 0 {
		return nil, fmt.Errorf("seeds: fixtures in %s are incomplete", dir)
	}
	return f, nil
}

// orderedPairs decodes a JSON object of strings keeping its key order, which
// encoding/json's maps do not.
func orderedPairs(raw json.RawMessage) ([]PriorEntry, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("expected an object")
	}
	var out []PriorEntry
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v string
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, PriorEntry{Trigger: k.(string), Answer: v})
	}
	return out, nil
}
