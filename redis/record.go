package redis

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	goredis "github.com/redis/go-redis/v9"

	"github.com/fonte-rag/fonte"
)

// tagSep separates the values of a TAG field. The default, ',', occurs in
// document IDs and tags; the unit separator does not in practice, and a
// value that holds it is left to the filter fonte applies after the
// engine's (see filter.go).
const tagSep = "\x1f"

// Fields of a chunk hash. The indexed ones are in the FT schema
// (index.go); the others are what a hit returns.
const (
	fDoc      = "doc"     // TAG: the document ID
	fDir      = "dir"     // TAG: every prefix of the ID ending in '/', for prefix filters
	fVer      = "ver"     // TAG: the document version, for filters pinned to documents
	fTags     = "tags"    // TAG: the document's tags
	fLang     = "lang"    // TAG: the document's language
	fHash     = "th"      // TAG: the hash of the embedded text (the embedding cache)
	fUpdated  = "updated" // NUMERIC: the document's update time, Unix seconds
	fTerms    = "terms"   // TEXT: fonte's terms, joined by spaces
	fTermList = "tl"      // the terms as JSON, when joining by spaces would lose some
	fVec      = "vec"     // VECTOR: float32 little-endian
	fPos      = "pos"
	fID       = "id"
	fTitle    = "title"
	fHead     = "head" // the heading path, JSON
	fText     = "text"
	fStart    = "start"
	fEnd      = "end"
	fPage     = "page"
)

// hitFields are what a search hit needs from a chunk hash.
var hitFields = []string{fDoc, fVer, fLang, fPos, fID, fTitle, fHead, fText, fStart, fEnd, fPage}

// Fields of a document hash.
const (
	docInfo = "info" // fonte.DocInfo, JSON
	docText = "text"
)

// prepared is a validated record encoded for the store, waiting for its
// version.
type prepared struct {
	id     string
	info   fonte.DocInfo
	text   string
	entry  docEntry
	chunks []preparedChunk
}

type preparedChunk struct {
	fields []any          // field/value pairs, all but the version
	tf     map[string]int // term → count
	length int            // number of terms
}

// prepare checks r as the interface demands (errors wrap
// fonte.ErrInvalidRecord and name the document and chunk) and encodes it.
// It copies what it keeps, so the caller may reuse r.
func prepare(r fonte.Record, dim int) (*prepared, error) {
	if err := r.Check(dim, true); err != nil {
		return nil, fmt.Errorf("redis: %w", err)
	}
	id, n := r.Doc.ID, len(r.Chunks)
	d := &prepared{id: id, text: r.Doc.Text, chunks: make([]preparedChunk, n)}
	d.info = fonte.DocInfo{ID: id, Title: r.Doc.Title, Source: r.Doc.Source, Language: r.Doc.Language, SHA256: r.Doc.SHA256,
		Updated: r.Doc.Updated, Tags: slices.Clone(r.Doc.Tags), Bytes: len(r.Doc.Text), Chunks: n, Meta: maps.Clone(r.Meta)}
	d.entry = docEntry{N: n, Tags: d.info.Tags}
	dirs := strings.Join(dirPrefixes(id), tagSep)
	tags := strings.Join(r.Doc.Tags, tagSep)
	updated := strconv.FormatInt(r.Doc.Updated.Unix(), 10)
	for i, c := range r.Chunks {
		v := r.Vectors[i]
		hash := ""
		if r.TextHashes != nil {
			hash = r.TextHashes[i]
		}
		terms := r.Terms[i]
		f := []any{
			fDoc, id, fDir, dirs, fTags, tags, fLang, r.Doc.Language, fHash, hash, fUpdated, updated,
			fTerms, strings.Join(terms, " "), fVec, vectorBytes(v),
			fPos, c.Position, fID, c.ID, fTitle, c.Title, fText, c.Text, fStart, c.Start, fEnd, c.End, fPage, c.Page,
		}
		if len(c.Headings) > 0 {
			h, _ := json.Marshal(c.Headings)
			f = append(f, fHead, h)
		}
		if slices.ContainsFunc(terms, func(t string) bool { return t == "" || strings.Contains(t, " ") }) {
			tl, _ := json.Marshal(terms)
			f = append(f, fTermList, tl)
		}
		tf := make(map[string]int, len(terms))
		for _, t := range terms {
			tf[t]++
		}
		d.chunks[i] = preparedChunk{fields: f, tf: tf, length: len(terms)}
		d.entry.T += int64(len(terms))
	}
	return d, nil
}

// dirPrefixes lists every prefix of id that ends in '/': the TAG values a
// prefix filter ending in '/' matches exactly.
func dirPrefixes(id string) []string {
	var out []string
	for i := 0; i < len(id); i++ {
		if id[i] == '/' {
			out = append(out, id[:i+1])
		}
	}
	return out
}

func vectorBytes(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

func parseVector(s string) ([]float32, error) {
	if len(s)%4 != 0 {
		return nil, fmt.Errorf("vector of %d bytes", len(s))
	}
	v := make([]float32, len(s)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32([]byte(s[4*i : 4*i+4])))
	}
	return v, nil
}

// writeVersion writes document d as version ver: its document and chunk
// hashes in one pipeline, then its postings. The order matters for
// clean-up: a posting exists only if its chunk hash does, so deleting a
// version reads the chunks' terms to find its postings.
func (s *Store) writeVersion(ctx context.Context, ver uint64, d *prepared) error {
	p := s.rdb.Pipeline()
	info, err := json.Marshal(d.info)
	if err != nil {
		return err
	}
	p.HSet(ctx, s.k.doc(ver), docInfo, info, docText, d.text)
	sver := fmtVer(ver)
	for i, c := range d.chunks {
		p.HSet(ctx, s.k.chunk(ver, i), append(slices.Clip(c.fields), fVer, sver)...)
		if p.Len() >= pipeBatch {
			if err := execPipe(ctx, p); err != nil {
				return err
			}
		}
	}
	if err := execPipe(ctx, p); err != nil {
		return err
	}
	byTerm := map[string][]any{}
	for i, c := range d.chunks {
		field := postingField(ver, i)
		for t, tf := range c.tf {
			byTerm[t] = append(byTerm[t], field, postingValue(tf, c.length))
		}
	}
	for t, fv := range byTerm {
		p.HSet(ctx, s.k.term(t), fv...)
		if p.Len() >= pipeBatch {
			if err := execPipe(ctx, p); err != nil {
				return err
			}
		}
	}
	return execPipe(ctx, p)
}

// readRecord reads a document version whole. A missing key means a
// commit replaced the version meanwhile (errChanged).
func (s *Store) readRecord(ctx context.Context, e docEntry) (fonte.Record, error) {
	p := s.rdb.Pipeline()
	dc := p.HGetAll(ctx, s.k.doc(e.V))
	cc := make([]*goredis.MapStringStringCmd, e.N)
	for i := range cc {
		cc[i] = p.HGetAll(ctx, s.k.chunk(e.V, i))
	}
	if err := execPipe(ctx, p); err != nil {
		return fonte.Record{}, err
	}
	dm := dc.Val()
	if len(dm) == 0 {
		return fonte.Record{}, errChanged
	}
	var info fonte.DocInfo
	if err := json.Unmarshal([]byte(dm[docInfo]), &info); err != nil {
		return fonte.Record{}, fmt.Errorf("document version %s: %w", fmtVer(e.V), err)
	}
	r := fonte.Record{
		Doc: fonte.Document{ID: info.ID, Title: info.Title, Source: info.Source, Language: info.Language,
			SHA256: info.SHA256, Updated: info.Updated, Text: dm[docText], Tags: info.Tags},
		Chunks:     make([]fonte.Chunk, e.N),
		TextHashes: make([]string, e.N),
		Vectors:    make([][]float32, e.N),
		Terms:      make([][]string, e.N),
		Meta:       info.Meta,
	}
	for i, c := range cc {
		m := c.Val()
		if len(m) == 0 {
			return fonte.Record{}, errChanged
		}
		ch, _, err := decodeChunk(m)
		if err != nil {
			return fonte.Record{}, fmt.Errorf("chunk %s: %w", s.k.chunk(e.V, i), err)
		}
		r.Chunks[i] = ch
		r.TextHashes[i] = m[fHash]
		if r.Vectors[i], err = parseVector(m[fVec]); err != nil {
			return fonte.Record{}, fmt.Errorf("chunk %s: %w", s.k.chunk(e.V, i), err)
		}
		if r.Terms[i], err = decodeTerms(m); err != nil {
			return fonte.Record{}, fmt.Errorf("chunk %s: %w", s.k.chunk(e.V, i), err)
		}
	}
	return r, nil
}

// decodeChunk rebuilds a chunk from its hash fields (HGETALL, or a
// search hit's returned fields) and returns its document's language.
func decodeChunk(m map[string]string) (fonte.Chunk, string, error) {
	c := fonte.Chunk{DocID: m[fDoc], ID: m[fID], Title: m[fTitle], Text: m[fText]}
	for _, x := range []struct {
		f   string
		dst *int
	}{{fPos, &c.Position}, {fStart, &c.Start}, {fEnd, &c.End}, {fPage, &c.Page}} {
		n, err := strconv.Atoi(m[x.f])
		if err != nil {
			return fonte.Chunk{}, "", fmt.Errorf("field %s: %w", x.f, err)
		}
		*x.dst = n
	}
	if h := m[fHead]; h != "" {
		if err := json.Unmarshal([]byte(h), &c.Headings); err != nil {
			return fonte.Chunk{}, "", fmt.Errorf("field %s: %w", fHead, err)
		}
	}
	return c, m[fLang], nil
}

// decodeTerms returns a chunk's terms as they were put.
func decodeTerms(m map[string]string) ([]string, error) {
	if tl, ok := m[fTermList]; ok {
		var terms []string
		err := json.Unmarshal([]byte(tl), &terms)
		return terms, err
	}
	if m[fTerms] == "" {
		return nil, nil
	}
	return strings.Split(m[fTerms], " "), nil
}
