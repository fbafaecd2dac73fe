package disk

import (
	"encoding/binary"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unsafe"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/retrieve"
)

// segDir is a segment's directory: where each document and chunk record
// starts in the meta section, the documents' IDs in a compact sorted
// block, each chunk's graph key and each document's language. A version-3
// segment stores it after the meta section and a snapshot reads it in
// place, so opening a segment parses no document: a chunk is decoded
// when it is asked for. Older segments get one built in memory at open.
type segDir struct {
	docOff   []uint64 // per document: its record's offset in the meta section
	docChunk []uint32 // per document and one more: its first chunk
	idEnd    []uint32 // per document and one more: its ID is ids[idEnd[i]:idEnd[i+1]]
	ids      []byte
	chunkOff []uint64 // per chunk: its record's offset in the meta section
	keys     []uint64 // per chunk: retrieve.ChunkKey of its ID and text hash
	docLang  []uint8  // per document: an index into langs
	langs    []string // the segment's document languages, sorted
}

// maxSegLangs bounds the languages one segment can name (docLang is a
// byte); a segment with more documents languages than that is cut by
// pack before it gets there (see langGroups).
const maxSegLangs = 256

// metaBuilder encodes documents into a meta section and its directory.
type metaBuilder struct {
	meta []byte
	dir  segDir
	lang map[string]int
}

func newMetaBuilder(guess int64, docs, chunks int) *metaBuilder {
	return &metaBuilder{
		meta: make([]byte, 0, guess),
		dir: segDir{docOff: make([]uint64, 0, docs), docChunk: make([]uint32, 1, docs+1),
			idEnd: make([]uint32, 1, docs+1), chunkOff: make([]uint64, 0, chunks), keys: make([]uint64, 0, chunks),
			docLang: make([]uint8, 0, docs)},
		lang: map[string]int{},
	}
}

// add appends d, which must sort after the documents added before.
func (b *metaBuilder) add(d *docData) {
	dir := &b.dir
	dir.docOff = append(dir.docOff, uint64(len(b.meta)))
	b.meta = appendDoc(b.meta, d, func(i, off int) {
		dir.chunkOff = append(dir.chunkOff, uint64(off))
		dir.keys = append(dir.keys, retrieve.ChunkKey(d.chunks[i].ID, d.hashes[i]))
	})
	dir.docChunk = append(dir.docChunk, uint32(len(dir.chunkOff)))
	dir.ids = append(dir.ids, d.doc.ID...)
	dir.idEnd = append(dir.idEnd, uint32(len(dir.ids)))
	l, ok := b.lang[d.doc.Language]
	if !ok {
		l = len(b.lang)
		b.lang[d.doc.Language] = l
	}
	dir.docLang = append(dir.docLang, uint8(l))
}

// finish sorts the language table, renumbering docLang to match.
func (b *metaBuilder) finish() ([]byte, segDir) {
	langs := make([]string, len(b.lang))
	for l, i := range b.lang {
		langs[i] = l
	}
	sorted := slices.Clone(langs)
	slices.Sort(sorted)
	renum := make([]uint8, len(langs))
	for i, l := range langs {
		j, _ := slices.BinarySearch(sorted, l)
		renum[i] = uint8(j)
	}
	for i, l := range b.dir.docLang {
		b.dir.docLang[i] = renum[l]
	}
	b.dir.langs = sorted
	return b.meta, b.dir
}

// buildDir encodes docs, sorted by ID, into a meta section and its
// directory.
func buildDir(docs []*docData) ([]byte, segDir) {
	chunks := 0
	var guess int64
	for _, d := range docs {
		chunks += len(d.chunks)
		guess += d.estimate(0)
	}
	b := newMetaBuilder(guess, len(docs), chunks)
	for _, d := range docs {
		b.add(d)
	}
	return b.finish()
}

// The directory's sections, each starting at a multiple of 8 bytes from
// the directory's start (which is 8-aligned in the file).
func dirSizes(docs, chunks, idBytes int) [7]int {
	return [7]int{8 * docs, 4 * (docs + 1), 4 * (docs + 1), idBytes, 8 * chunks, 8 * chunks, docs}
}

func pad8(n int) int { return (n + 7) &^ 7 }

// encode appends the directory's on-disk form.
func (d *segDir) encode(b []byte) []byte {
	put := func(p []byte) {
		b = append(b, p...)
		b = append(b, make([]byte, pad8(len(b))-len(b))...)
	}
	put(leBytes(d.docOff))
	put(leBytes(d.docChunk))
	put(leBytes(d.idEnd))
	put(d.ids)
	put(leBytes(d.chunkOff))
	put(leBytes(d.keys))
	put(d.docLang)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(d.langs)))
	for _, l := range d.langs {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(l)))
		b = append(b, l...)
	}
	return b
}

// leBytes is v in little-endian bytes.
func leBytes[T uint32 | uint64](v []T) []byte {
	size := int(unsafe.Sizeof(T(0)))
	out := make([]byte, 0, size*len(v))
	for _, x := range v {
		if size == 4 {
			out = binary.LittleEndian.AppendUint32(out, uint32(x))
		} else {
			out = binary.LittleEndian.AppendUint64(out, uint64(x))
		}
	}
	return out
}

// leView reads n values of T from b: in place on a little-endian machine
// when b is aligned for T, else decoded into a new slice.
func leView[T uint32 | uint64](b []byte, n int) []T {
	size := int(unsafe.Sizeof(T(0)))
	b = b[:size*n]
	if n == 0 {
		return nil
	}
	if littleEndian && uintptr(unsafe.Pointer(unsafe.SliceData(b)))%uintptr(size) == 0 {
		return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)
	}
	out := make([]T, n)
	for i := range out {
		if size == 4 {
			out[i] = T(binary.LittleEndian.Uint32(b[4*i:]))
		} else {
			out[i] = T(binary.LittleEndian.Uint64(b[8*i:]))
		}
	}
	return out
}

// readDir views a directory of docs documents and chunks chunks in b,
// the directory section of a segment whose meta section is metaLen bytes,
// and checks every offset and count in it, so that lookups through it stay
// in bounds whatever the file holds.
func readDir(b []byte, docs, chunks int, metaLen uint64) (segDir, error) {
	var d segDir
	need := func(n int) ([]byte, error) {
		if n < 0 || n > len(b) {
			return nil, fmt.Errorf("directory truncated")
		}
		p := b[:n]
		b = b[min(pad8(n), len(b)):]
		return p, nil
	}
	sizes := dirSizes(docs, chunks, 0)
	var p [7][]byte
	for i, size := range sizes {
		if i == 3 {
			continue // the IDs' size is known once idEnd is read
		}
		if i == 4 {
			if len(d.idEnd) == 0 {
				return d, fmt.Errorf("directory without ID ends")
			}
			var err error
			if p[3], err = need(int(d.idEnd[docs])); err != nil {
				return d, err
			}
		}
		var err error
		if p[i], err = need(size); err != nil {
			return d, err
		}
		if i == 2 {
			d.idEnd = leView[uint32](p[2], docs+1)
		}
	}
	d.docOff = leView[uint64](p[0], docs)
	d.docChunk = leView[uint32](p[1], docs+1)
	d.ids = p[3]
	d.chunkOff = leView[uint64](p[4], chunks)
	d.keys = leView[uint64](p[5], chunks)
	d.docLang = p[6]
	if len(b) < 4 {
		return d, fmt.Errorf("directory without languages")
	}
	nl := int(binary.LittleEndian.Uint32(b))
	b = b[4:]
	if nl > maxSegLangs {
		return d, fmt.Errorf("%d languages", nl)
	}
	for range nl {
		if len(b) < 4 {
			return d, fmt.Errorf("languages truncated")
		}
		n := int(binary.LittleEndian.Uint32(b))
		if n > len(b)-4 {
			return d, fmt.Errorf("languages truncated")
		}
		d.langs = append(d.langs, string(b[4:4+n]))
		b = b[4+n:]
	}
	if len(b) != 0 {
		return d, fmt.Errorf("%d stray bytes after the languages", len(b))
	}
	return d, d.check(docs, chunks, metaLen)
}

// check verifies the directory's invariants: chunk ranges increasing and
// covering every chunk, IDs strictly sorted, offsets inside the meta
// section and increasing, languages known.
func (d *segDir) check(docs, chunks int, metaLen uint64) error {
	if d.docChunk[0] != 0 || int(d.docChunk[docs]) != chunks || d.idEnd[0] != 0 {
		return fmt.Errorf("directory ranges do not start at 0 or cover the %d chunks", chunks)
	}
	for i := range docs {
		if d.docChunk[i+1] < d.docChunk[i] || d.idEnd[i+1] <= d.idEnd[i] {
			return fmt.Errorf("directory entry %d out of order", i)
		}
		if d.docOff[i] >= metaLen || i > 0 && d.docOff[i] <= d.docOff[i-1] {
			return fmt.Errorf("document %d at offset %d of %d meta bytes", i, d.docOff[i], metaLen)
		}
		if int(d.docLang[i]) >= len(d.langs) {
			return fmt.Errorf("document %d has language %d of %d", i, d.docLang[i], len(d.langs))
		}
	}
	// Only now are all the ID ends known to be within the IDs.
	for i := 1; i < docs; i++ {
		if string(d.id(i-1)) >= string(d.id(i)) {
			return fmt.Errorf("document %q after %q: not in ID order", d.id(i), d.id(i-1))
		}
	}
	for i, off := range d.chunkOff {
		if off >= metaLen || i > 0 && off <= d.chunkOff[i-1] {
			return fmt.Errorf("chunk %d at offset %d of %d meta bytes", i, off, metaLen)
		}
	}
	return nil
}

// id is document i's ID, a view of the directory.
func (d *segDir) id(i int) []byte { return d.ids[d.idEnd[i]:d.idEnd[i+1]] }

// find returns the index of the document with the given ID.
func (d *segDir) find(id string) (int, bool) {
	n := len(d.docOff)
	lo, hi := 0, n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if strings.Compare(view(d.id(m)), id) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, lo < n && view(d.id(lo)) == id
}

// docOfChunk returns the document holding local chunk c.
func (d *segDir) docOfChunk(c int) int {
	// The last document starting at or before c: a document without
	// chunks starts where the next one does.
	return sort.Search(len(d.docChunk), func(i int) bool { return d.docChunk[i] > uint32(c) }) - 1
}

// docHead decodes document i's record up to its chunks, its metadata
// only withMeta; its strings are views of the meta section (see detach).
func (sf *segFile) docHead(i int, withMeta bool) (*docData, int, error) {
	r := &metaReader{b: sf.meta[sf.dir.docOff[i]:]}
	d := &docData{}
	n := readDocHead(r, d, true, withMeta)
	switch {
	case r.err != nil:
		return nil, 0, sf.damaged(fmt.Errorf("document %d: %v", i, r.err))
	case d.doc.ID != view(sf.dir.id(i)):
		return nil, 0, sf.damaged(fmt.Errorf("document %d is %q, the directory says %q", i, d.doc.ID, sf.dir.id(i)))
	case n != int(sf.dir.docChunk[i+1]-sf.dir.docChunk[i]):
		return nil, 0, sf.damaged(fmt.Errorf("document %q has %d chunks, the directory says %d", d.doc.ID, n, sf.dir.docChunk[i+1]-sf.dir.docChunk[i]))
	}
	return d, n, nil
}

// decodeDoc decodes document i whole, its vectors rows of the segment's
// block; its strings are views of the meta section (see detach).
func (sf *segFile) decodeDoc(i int) (*docData, error) {
	d, n, err := sf.docHead(i, true)
	if err != nil {
		return nil, err
	}
	first := int(sf.dir.docChunk[i])
	d.chunks = make([]fonte.Chunk, n)
	d.hashes = make([]string, n)
	var prev []string
	for j := range n {
		r := &metaReader{b: sf.meta[sf.dir.chunkOff[first+j]:]}
		d.hashes[j] = readChunk(r, &d.doc, j, &d.chunks[j], prev)
		if r.err != nil {
			return nil, sf.damaged(fmt.Errorf("document %q chunk %d: %v", d.doc.ID, j, r.err))
		}
		prev = d.chunks[j].Headings
	}
	lo, hi := first*sf.dim, (first+n)*sf.dim
	d.vecs = sf.vecs[lo:hi:hi]
	return d, nil
}

// decodeChunk decodes local chunk c and its text hash, with strings of
// their own: a chunk outlives the snapshot that found it (a search's
// hits), and the meta section may be unmapped by then.
func (sf *segFile) decodeChunk(c int) (fonte.Chunk, string, error) {
	i := sf.dir.docOfChunk(c)
	d, _, err := sf.docHead(i, false)
	if err != nil {
		return fonte.Chunk{}, "", err
	}
	var out fonte.Chunk
	r := &metaReader{b: sf.meta[sf.dir.chunkOff[c]:]}
	hash := readChunk(r, &d.doc, c-int(sf.dir.docChunk[i]), &out, nil)
	if r.err != nil {
		return fonte.Chunk{}, "", sf.damaged(fmt.Errorf("document %q chunk %d: %v", d.doc.ID, c-int(sf.dir.docChunk[i]), r.err))
	}
	return cloneChunk(out), strings.Clone(hash), nil
}

// cloneChunk gives c strings of its own.
func cloneChunk(c fonte.Chunk) fonte.Chunk {
	c.ID, c.DocID, c.Title, c.Text = strings.Clone(c.ID), strings.Clone(c.DocID), strings.Clone(c.Title), strings.Clone(c.Text)
	c.Headings = cloneStrings(c.Headings)
	return c
}

func cloneStrings(ss []string) []string {
	if ss == nil {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.Clone(s)
	}
	return out
}

// detach gives d strings of its own, for handing it out of the store.
func (d *docData) detach() {
	doc := &d.doc
	doc.ID, doc.Title, doc.Source, doc.Language = strings.Clone(doc.ID), strings.Clone(doc.Title), strings.Clone(doc.Source), strings.Clone(doc.Language)
	doc.SHA256, doc.Text = strings.Clone(doc.SHA256), strings.Clone(doc.Text)
	doc.Tags = cloneStrings(doc.Tags)
	if d.meta != nil {
		m := make(map[string]string, len(d.meta))
		for k, v := range d.meta {
			m[strings.Clone(k)] = strings.Clone(v)
		}
		d.meta = m
	}
	chunks := make([]fonte.Chunk, len(d.chunks))
	for j, c := range d.chunks {
		chunks[j] = cloneChunk(c)
		chunks[j].DocID = doc.ID
	}
	d.chunks = chunks
	d.hashes = cloneStrings(d.hashes)
}
