package eval

import (
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/fonte-rag/fonte"
)

// BEIR is one split of a dataset in the BEIR layout: a corpus, the queries
// judged in the split and their judgments.
type BEIR struct {
	Corpus  []fonte.Document // in file order; only ID, Title and Text are set
	Queries []Query          // the queries judged in the split, sorted by id
	Qrels   Qrels            // judgments by query id, then corpus id
}

// Query is one BEIR query.
type Query struct {
	ID    string
	Title string // usually empty in BEIR
	Text  string
}

// beirRecord holds the only fields read from corpus and query lines. Other
// fields, notably SciFact's query "metadata" that carries the evidence
// labels, are never decoded, so retrieval code cannot peek at the answer.
type beirRecord struct {
	ID    string `json:"_id"`
	Title string `json:"title"`
	Text  string `json:"text"`
}

// LoadBEIR reads the split of the BEIR dataset in dir: corpus.jsonl and
// queries.jsonl (or their .gz forms; the plain file wins when both exist)
// and the judgments in qrels/<split>.tsv (or qrels-<split>.tsv), a
// tab-separated file with the header "query-id corpus-id score". Only the
// queries judged in the split are kept. Errors name the file and line.
func LoadBEIR(dir, split string) (*BEIR, error) {
	if split == "" || strings.ContainsAny(split, `/\`) || split == "." || split == ".." {
		return nil, fmt.Errorf("beir: bad split name %q", split)
	}
	if fi, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("beir: %w", err)
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("beir: %s is not a folder", dir)
	}
	qrelsPath, err := firstExisting(filepath.Join(dir, "qrels", split+".tsv"), filepath.Join(dir, "qrels-"+split+".tsv"))
	if err != nil {
		return nil, err
	}
	corpusPath, err := firstExisting(filepath.Join(dir, "corpus.jsonl"), filepath.Join(dir, "corpus.jsonl.gz"))
	if err != nil {
		return nil, err
	}
	queriesPath, err := firstExisting(filepath.Join(dir, "queries.jsonl"), filepath.Join(dir, "queries.jsonl.gz"))
	if err != nil {
		return nil, err
	}

	b := &BEIR{}
	if b.Qrels, err = readQrels(qrelsPath); err != nil {
		return nil, err
	}
	err = readRecords(corpusPath, func(r beirRecord) {
		b.Corpus = append(b.Corpus, fonte.Document{ID: r.ID, Title: r.Title, Text: r.Text})
	})
	if err != nil {
		return nil, err
	}
	err = readRecords(queriesPath, func(r beirRecord) {
		if _, judged := b.Qrels[r.ID]; judged {
			b.Queries = append(b.Queries, Query(r))
		}
	})
	if err != nil {
		return nil, err
	}
	if len(b.Queries) < len(b.Qrels) {
		have := make(map[string]bool, len(b.Queries))
		for _, q := range b.Queries {
			have[q.ID] = true
		}
		var missing []string
		for id := range b.Qrels {
			if !have[id] {
				missing = append(missing, id)
			}
		}
		slices.SortFunc(missing, compareIDs)
		return nil, fmt.Errorf("%s: %d judged queries are not in %s, first %q", qrelsPath, len(missing), queriesPath, missing[0])
	}
	slices.SortFunc(b.Queries, func(x, y Query) int { return compareIDs(x.ID, y.ID) })
	return b, nil
}

// compareIDs orders ids the way people read them: all-digit ids first, by
// numeric value ("2" before "10"), then every other id bytewise. Putting
// the two kinds in separate groups keeps the order total.
func compareIDs(a, b string) int {
	da, db := allDigits(a), allDigits(b)
	switch {
	case da && db:
		ta, tb := strings.TrimLeft(a, "0"), strings.TrimLeft(b, "0")
		if c := len(ta) - len(tb); c != 0 {
			return c
		}
		if c := strings.Compare(ta, tb); c != 0 {
			return c
		}
	case da:
		return -1
	case db:
		return 1
	}
	return strings.Compare(a, b)
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// firstExisting returns the first of paths that is a regular file.
func firstExisting(paths ...string) (string, error) {
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err == nil && fi.Mode().IsRegular() {
			return p, nil
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("beir: %w", err)
		}
	}
	return "", fmt.Errorf("beir: none of %s found", strings.Join(paths, ", "))
}

// open opens path, decompressing it when its name ends in .gz.
func open(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("beir: %w", err)
	}
	if !strings.HasSuffix(path, ".gz") {
		return f, nil
	}
	z, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("beir: %s: %w", path, err)
	}
	return gzipFile{z, f}, nil
}

type gzipFile struct {
	*gzip.Reader
	f *os.File
}

func (g gzipFile) Close() error {
	err := g.Reader.Close()
	if ferr := g.f.Close(); err == nil {
		err = ferr
	}
	return err
}

// readRecords decodes every non-blank line of a BEIR JSONL file and calls
// fn with it. Ids must be present and unique.
func readRecords(path string, fn func(beirRecord)) error {
	rc, err := open(path)
	if err != nil {
		return err
	}
	defer rc.Close()
	seen := map[string]int{}
	return eachLine(path, rc, func(n int, line []byte) error {
		if len(strings.TrimSpace(string(line))) == 0 {
			return nil
		}
		var r beirRecord
		if err := json.Unmarshal(line, &r); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) && te.Field != "" {
				return &LineError{File: path, Line: n, Field: te.Field, Err: fmt.Errorf("want a string, got %s", te.Value)}
			}
			return &LineError{File: path, Line: n, Err: fmt.Errorf("malformed JSON: %w", err)}
		}
		if r.ID == "" {
			return &LineError{File: path, Line: n, Field: "_id", Err: errors.New("missing or empty")}
		}
		if first, dup := seen[r.ID]; dup {
			return &LineError{File: path, Line: n, Field: "_id", Err: fmt.Errorf("duplicate id %q, first on line %d", r.ID, first)}
		}
		seen[r.ID] = n
		fn(r)
		return nil
	})
}

// readQrels reads a BEIR judgments file: an optional header line
// "query-id corpus-id score", then one tab-separated judgment per line.
func readQrels(path string) (Qrels, error) {
	rc, err := open(path)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	qrels := Qrels{}
	err = eachLine(path, rc, func(n int, line []byte) error {
		s := string(line)
		if strings.TrimSpace(s) == "" {
			return nil
		}
		cols := strings.Split(s, "\t")
		if n == 1 && cols[0] == "query-id" {
			return nil
		}
		if len(cols) != 3 {
			return &LineError{File: path, Line: n, Err: fmt.Errorf("want 3 tab-separated columns (query-id, corpus-id, score), got %d", len(cols))}
		}
		q, doc := strings.TrimSpace(cols[0]), strings.TrimSpace(cols[1])
		if q == "" {
			return &LineError{File: path, Line: n, Field: "query-id", Err: errors.New("empty")}
		}
		if doc == "" {
			return &LineError{File: path, Line: n, Field: "corpus-id", Err: errors.New("empty")}
		}
		score, err := strconv.Atoi(strings.TrimSpace(cols[2]))
		if err != nil {
			return &LineError{File: path, Line: n, Field: "score", Err: fmt.Errorf("not an integer: %q", cols[2])}
		}
		rel := qrels[q]
		if rel == nil {
			rel = Judgments{}
			qrels[q] = rel
		}
		if old, dup := rel[doc]; dup && old != score {
			return &LineError{File: path, Line: n, Field: "score", Err: fmt.Errorf("%s %s judged %d earlier, now %d", q, doc, old, score)}
		}
		rel[doc] = score
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(qrels) == 0 {
		return nil, fmt.Errorf("%s: no judgments", path)
	}
	return qrels, nil
}
