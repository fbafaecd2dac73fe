package disk

import (
	"fmt"
	"maps"
	"slices"

	"github.com/fonte-rag/fonte"
)

// Record is what the store keeps per document (fonte.Record). Its Terms
// are not kept: the lexical index is derived from the chunks' text with
// the store's analysis.
type Record = fonte.Record

// DocInfo describes one stored document without its text.
type DocInfo = fonte.DocInfo

// docData is one document as the store handles it internally: the chunks
// carry their DocID, hashes always has one entry per chunk, and the vectors
// are one row-major block (nil while they are still on disk).
type docData struct {
	doc    fonte.Document
	meta   map[string]string
	chunks []fonte.Chunk
	hashes []string
	vecs   []float32
}

// newDocData validates r against the dimension and copies it, so the
// caller may reuse its slices once Put returns.
func newDocData(r Record, dim int) (*docData, error) {
	if err := r.Check(dim, false); err != nil {
		return nil, fmt.Errorf("disk: %w", err)
	}
	n := len(r.Chunks)
	d := &docData{
		doc:    r.Doc,
		meta:   maps.Clone(r.Meta),
		chunks: make([]fonte.Chunk, n),
		hashes: make([]string, n),
		vecs:   make([]float32, n*dim),
	}
	d.doc.Tags = slices.Clone(r.Doc.Tags)
	for i, c := range r.Chunks {
		c.DocID = r.Doc.ID
		c.Headings = slices.Clone(c.Headings)
		d.chunks[i] = c
		copy(d.vecs[i*dim:], r.Vectors[i])
		if r.TextHashes != nil {
			d.hashes[i] = r.TextHashes[i]
		}
	}
	return d, nil
}

// estimate is roughly the bytes d takes in a segment, to cut segments near
// Options.SegmentBytes without encoding twice.
func (d *docData) estimate(dim int) int64 {
	n := int64(64 + len(d.doc.ID) + len(d.doc.Title) + len(d.doc.Source) + len(d.doc.Text))
	for _, t := range d.doc.Tags {
		n += int64(2 + len(t))
	}
	for k, v := range d.meta {
		n += int64(4 + len(k) + len(v))
	}
	for i, c := range d.chunks {
		n += int64(24 + len(c.ID) + len(d.hashes[i]) + 4*dim)
		if c.Start < 0 || c.End > len(d.doc.Text) || c.Start > c.End || d.doc.Text[c.Start:c.End] != c.Text {
			n += int64(len(c.Text))
		}
		for _, h := range c.Headings {
			n += int64(2 + len(h))
		}
	}
	return n
}

// record converts d to the exported form. Vectors share d.vecs.
func (d *docData) record(dim int) Record {
	r := Record{
		Doc:        d.doc,
		Chunks:     slices.Clone(d.chunks),
		TextHashes: slices.Clone(d.hashes),
		Vectors:    make([][]float32, len(d.chunks)),
		Meta:       maps.Clone(d.meta),
	}
	r.Doc.Tags = slices.Clone(d.doc.Tags)
	for i := range r.Vectors {
		r.Vectors[i] = d.vecs[i*dim : (i+1)*dim : (i+1)*dim]
	}
	return r
}
