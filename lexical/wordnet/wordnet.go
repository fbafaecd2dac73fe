// Package wordnet reads the synonym sets of Princeton WordNet 3.0 from its
// database files (index.noun, data.noun and the same for verb, adj and
// adv, in the format of wndb(5)), as Debian's wordnet-base package
// installs them under /usr/share/wordnet, and tells which words share one
// of their most frequent senses.
//
// WordNet 3.0 is Copyright 2006 by Princeton University and licensed for
// any use, copying, modification and distribution without fee, provided
// its copyright notice and disclaimer appear on all copies (Debian's
// /usr/share/doc/wordnet-base/copyright has the text). This package ships
// none of its data: it reads an installed copy.
package wordnet

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// DefaultDir is where Debian's wordnet-base package installs the database.
const DefaultDir = "/usr/share/wordnet"

// parts are the database's parts of speech, by the suffix of their files.
var parts = []string{"noun", "verb", "adj", "adv"}

// Thesaurus relates lemmas (lower case, the words of a collocation
// separated by single spaces: "switch off") to their synonyms.
type Thesaurus struct {
	syn map[string]map[string]bool
}

// Load reads the database in dir and returns the thesaurus in which two
// lemmas are synonyms when they share a synset among the first senses
// senses of at least one of them (WordNet orders a lemma's senses by how
// often they were tagged in its corpus, the most frequent first), in any
// part of speech.
func Load(dir string, senses int) (*Thesaurus, error) {
	if senses < 1 {
		return nil, fmt.Errorf("wordnet: senses must be at least 1, not %d", senses)
	}
	t := &Thesaurus{syn: map[string]map[string]bool{}}
	for _, p := range parts {
		data, err := os.ReadFile(filepath.Join(dir, "data."+p))
		if err != nil {
			return nil, fmt.Errorf("wordnet: %w", err)
		}
		f, err := os.Open(filepath.Join(dir, "index."+p))
		if err != nil {
			return nil, fmt.Errorf("wordnet: %w", err)
		}
		err = t.readIndex(f, data, senses)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("wordnet: index.%s: %w", p, err)
		}
	}
	return t, nil
}

// readIndex adds the synonyms of every lemma of one part of speech's
// index file, whose synsets are in data.
func (t *Thesaurus) readIndex(f *os.File, data []byte, senses int) error {
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if strings.HasPrefix(text, "  ") || text == "" {
			continue // the licence at the top of the file
		}
		// lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset...
		f := strings.Fields(text)
		if len(f) < 4 {
			return fmt.Errorf("line %d: too few fields", line)
		}
		synsets, err1 := strconv.Atoi(f[2])
		pointers, err2 := strconv.Atoi(f[3])
		if err1 != nil || err2 != nil || synsets < 0 || pointers < 0 {
			return fmt.Errorf("line %d: bad counts", line)
		}
		first := 4 + pointers + 2
		if len(f) < first+synsets {
			return fmt.Errorf("line %d: %d synsets announced, %d given", line, synsets, len(f)-first)
		}
		lemma := norm(f[0])
		for _, o := range f[first : first+min(senses, synsets)] {
			off, err := strconv.Atoi(o)
			if err != nil {
				return fmt.Errorf("line %d: bad offset %q", line, o)
			}
			words, err := synset(data, off)
			if err != nil {
				return fmt.Errorf("line %d: %w", line, err)
			}
			for _, w := range words {
				t.add(lemma, w)
			}
		}
	}
	return sc.Err()
}

// synset returns the words of the synset at byte offset off of a data
// file: "synset_offset lex_filenum ss_type w_cnt word lex_id [word
// lex_id...] …", w_cnt in hexadecimal.
func synset(data []byte, off int) ([]string, error) {
	if off < 0 || off >= len(data) {
		return nil, fmt.Errorf("offset %d out of the data file", off)
	}
	rec := data[off:]
	if i := bytes.IndexByte(rec, '\n'); i >= 0 {
		rec = rec[:i]
	}
	f := strings.Fields(string(rec))
	if len(f) < 4 {
		return nil, fmt.Errorf("offset %d: too few fields", off)
	}
	if at, err := strconv.Atoi(f[0]); err != nil || at != off {
		return nil, fmt.Errorf("offset %d: the record there says %q", off, f[0])
	}
	n, err := strconv.ParseInt(f[3], 16, 0)
	if err != nil || n < 0 || len(f) < 4+2*int(n) {
		return nil, fmt.Errorf("offset %d: bad word count %q", off, f[3])
	}
	words := make([]string, n)
	for i := range words {
		words[i] = norm(f[4+2*i])
	}
	return words, nil
}

// norm returns a lemma as the thesaurus keeps it: lower case, without an
// adjective's syntactic marker ("(a)", "(p)", "(ip)"), words separated by
// spaces rather than underscores.
func norm(w string) string {
	if i := strings.IndexByte(w, '('); i > 0 && strings.HasSuffix(w, ")") {
		w = w[:i]
	}
	return strings.ReplaceAll(strings.ToLower(w), "_", " ")
}

// add relates a and b both ways, unless they are the same lemma.
func (t *Thesaurus) add(a, b string) {
	if a == b || a == "" || b == "" {
		return
	}
	for _, p := range [][2]string{{a, b}, {b, a}} {
		m := t.syn[p[0]]
		if m == nil {
			m = map[string]bool{}
			t.syn[p[0]] = m
		}
		m[p[1]] = true
	}
}

// Synonyms returns lemma's synonyms, sorted; nil when it has none.
func (t *Thesaurus) Synonyms(lemma string) []string {
	m := t.syn[lemma]
	if len(m) == 0 {
		return nil
	}
	out := make([]string, 0, len(m))
	for w := range m {
		out = append(out, w)
	}
	slices.Sort(out)
	return out
}

// Related reports whether a and b are synonyms.
func (t *Thesaurus) Related(a, b string) bool { return t.syn[a][b] }

// Len returns how many lemmas have at least one synonym.
func (t *Thesaurus) Len() int { return len(t.syn) }

// Keyed returns the thesaurus of t's lemmas as key writes them (the
// stems of their words, say): lemmas with one key share their synonyms,
// and a pair whose lemmas meet in one key is dropped, as is a lemma key
// maps to "".
func (t *Thesaurus) Keyed(key func(lemma string) string) *Thesaurus {
	k := &Thesaurus{syn: map[string]map[string]bool{}}
	keys := map[string]string{}
	keyOf := func(l string) string {
		v, ok := keys[l]
		if !ok {
			v = key(l)
			keys[l] = v
		}
		return v
	}
	for a, m := range t.syn {
		ka := keyOf(a)
		for b := range m {
			k.add(ka, keyOf(b))
		}
	}
	return k
}
