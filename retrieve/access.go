package retrieve

import (
	"slices"
	"strings"
	"sync"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/lexical"
	"github.com/fonte-rag/fonte/vector"
)

// accessClasses groups a corpus's chunks by their document's access
// labels (a class per distinct set, the unlabelled chunks one of them),
// with each class's chunk count and analysed length: what a restricted
// reader's corpus statistics are summed from, per query, without a pass
// over the chunks. It is built once per index, on the first restricted
// search.
type accessClasses struct {
	class  []uint32   // per chunk
	tags   [][]string // per class: its access tags, sorted
	chunks []int      // per class
	total  []uint64   // per class: the sum of its chunks' analysed lengths
	langs  [][]string // per class: its chunks' languages, sorted
	// freqs is every term's document frequency per class, so that a
	// reader's is summed over the classes it may read, not counted over
	// postings that hidden chunks share.
	freqs *lexical.GroupFreqs

	rangesMu sync.Mutex
	ranges   map[string]viewRanges // by view key (see runs)

	// codes is each class's int8 copy of its rows, made on the first
	// search of a reader who may read the class (see classCodes).
	codesOnce []sync.Once
	codes     []*vector.Gathered
	codesErr  []error

	// signs is each class's 1-bit copy, made on the first search that
	// takes the 1-bit pass over it (see classSigns).
	signsOnce []sync.Once
	signs     []*vector.SignCodes
}

func newAccessClasses(p *partition, src ChunkSource, lex *lexical.Index) *accessClasses {
	a := &accessClasses{class: p.class, tags: p.tags, chunks: p.chunks}
	a.total = make([]uint64, len(a.tags))
	a.langs = make([][]string, len(a.tags))
	first := docStart(src)
	for i, c := range a.class {
		if first(i) {
			if l := src.Lang(i); !slices.Contains(a.langs[c], l) {
				a.langs[c] = append(a.langs[c], l)
				slices.Sort(a.langs[c])
			}
		}
		a.total[c] += uint64(lex.DocLen(i))
	}
	a.freqs = lex.GroupFreqs(a.class, len(a.tags))
	a.codesOnce = make([]sync.Once, len(a.tags))
	a.codes = make([]*vector.Gathered, len(a.tags))
	a.codesErr = make([]error, len(a.tags))
	a.signsOnce = make([]sync.Once, len(a.tags))
	a.signs = make([]*vector.SignCodes, len(a.tags))
	return a
}

// partition is the corpus's chunks grouped by their document's access
// labels: a class per distinct set (the unlabelled chunks one of them),
// numbered in order of first appearance. It is what the access classes
// and the class graphs share, made once per index.
type partition struct {
	class  []uint32   // per chunk
	tags   [][]string // per class: its access tags, sorted
	chunks []int      // per class
}

// accessSource is a ChunkSource that tells where documents start and
// their access tags without decoding a chunk (a store's snapshot).
type accessSource interface {
	FirstOfDoc(i int) bool
	AccessTags(i int) []string
}

// partitionOf groups src's chunks by access labels, reading one chunk's
// tags per document.
func partitionOf(src ChunkSource) *partition {
	p := &partition{class: make([]uint32, src.Len())}
	byKey := map[string]uint32{}
	as, fast := src.(accessSource)
	first, last := docStart(src), uint32(0)
	for i := range p.class {
		if first(i) {
			var labels []string
			if fast {
				labels = as.AccessTags(i)
			} else {
				for _, t := range src.Tags(i) {
					if strings.HasPrefix(t, fonte.AccessTagPrefix) {
						labels = append(labels, t)
					}
				}
			}
			slices.Sort(labels)
			key := labelsKey(labels)
			c, ok := byKey[key]
			if !ok {
				c = uint32(len(p.tags))
				byKey[key] = c
				p.tags = append(p.tags, labels)
				p.chunks = append(p.chunks, 0)
			}
			last = c
		}
		p.class[i] = last
		p.chunks[last]++
	}
	return p
}

// docStart returns whether chunk i, asked of every chunk in order, is its
// document's first: from the source's FirstOfDoc when it has one (no
// record decoded), else by comparing document ids.
func docStart(src ChunkSource) func(i int) bool {
	if as, ok := src.(accessSource); ok {
		return as.FirstOfDoc
	}
	lastDoc := ""
	return func(i int) bool {
		doc := src.DocID(i)
		first := i == 0 || doc != lastDoc
		lastDoc = doc
		return first
	}
}

// labelsKey names a class by its sorted access tags.
func labelsKey(labels []string) string { return strings.Join(labels, "\x00") }

// partition returns the index's partition, made on first need.
func (ix *Index) partition() *partition {
	ix.partOnce.Do(func() { ix.part = partitionOf(ix.src) })
	return ix.part
}

// classCodes returns the int8 copies of the rows of the classes view v
// shows (but those skip skips), from f, the exact view of every chunk's row: what a restricted
// reader's dense scan reads, contiguous per class however its chunks are
// scattered, and no hidden row. A class's copy is made by the first
// search that needs it (one pass over every chunk's class, and a read of
// the class's rows) and kept: 396 bytes a chunk at 384 dimensions, so at
// most the whole corpus's int8 copy once readers have read every class.
func (a *accessClasses) classCodes(v *readerView, f *vector.FlatView, skip func(c int) bool) ([]*vector.Gathered, error) {
	var gs []*vector.Gathered
	for c, ok := range v.visible {
		if !ok || a.chunks[c] == 0 || skip != nil && skip(c) {
			continue
		}
		a.codesOnce[c].Do(func() {
			rows := make([]int, 0, a.chunks[c])
			for i, cl := range a.class {
				if cl == uint32(c) {
					rows = append(rows, i)
				}
			}
			a.codes[c], a.codesErr[c] = f.Gather(rows)
		})
		if a.codesErr[c] != nil {
			return nil, a.codesErr[c]
		}
		gs = append(gs, a.codes[c])
	}
	return gs, nil
}

// maxRangeViews bounds the readable row ranges kept per reader view: each
// holds up to one range per readable document.
const maxRangeViews = 8

// viewRanges are the runs of chunks a view shows, in the two forms the
// legs read them: the dense scan's rows, and lexical.View.WithRanges's
// bounds.
type viewRanges struct {
	rows []vector.RowRange
	docs []uint32
}

// rowRanges returns the runs of chunks view v shows, in order: what a
// restricted reader's exact dense scan reads, so that it touches no
// hidden row.
func (a *accessClasses) rowRanges(v *readerView) []vector.RowRange {
	return a.runs(v).rows
}

// lexicalShare: a reader who may read at most 1/lexicalShare of the
// chunks has its BM25 lists walked over the runs it may read
// (lexical.View.WithRanges), each query choosing the runs when seeking
// them costs less than walking its lists.
const lexicalShare = 8

// lexicalRanges returns rowRanges(v) as lexical.View.WithRanges takes
// them.
func (a *accessClasses) lexicalRanges(v *readerView) []uint32 {
	return a.runs(v).docs
}

// runs returns the runs of chunks view v shows. They are kept for the
// next search of the same view (up to maxRangeViews views); a view not
// kept costs one pass over the class of every chunk, the same pass
// whoever the reader is.
func (a *accessClasses) runs(v *readerView) viewRanges {
	key := v.key()
	a.rangesMu.Lock()
	rs, ok := a.ranges[key]
	a.rangesMu.Unlock()
	if ok {
		return rs
	}
	rs = viewRanges{rows: []vector.RowRange{}}
	for i := 0; i < len(a.class); {
		for i < len(a.class) && !v.visible[a.class[i]] {
			i++
		}
		lo := i
		for i < len(a.class) && v.visible[a.class[i]] {
			i++
		}
		if lo < i {
			rs.rows = append(rs.rows, vector.RowRange{Lo: lo, Hi: i})
			rs.docs = append(rs.docs, uint32(lo), uint32(i))
		}
	}
	a.rangesMu.Lock()
	defer a.rangesMu.Unlock()
	if a.ranges == nil {
		a.ranges = map[string]viewRanges{}
	}
	if len(a.ranges) < maxRangeViews {
		a.ranges[key] = rs
	}
	return rs
}

// readerView is what one reader may see of the corpus: the visible
// classes, their chunks and length. whole says the reader sees every
// chunk, so the corpus's own statistics (and stored weights) are theirs.
type readerView struct {
	visible []bool // per class
	chunks  int
	total   uint64
	whole   bool
	langs   []string // the visible chunks' languages, sorted
}

// view returns what a reader restricted by f may see.
func (a *accessClasses) view(f fonte.Filter) readerView {
	access := fonte.Filter{Restricted: f.Restricted, Labels: f.Labels}
	v := readerView{visible: make([]bool, len(a.tags)), whole: true}
	for c, tags := range a.tags {
		if access.Readable(tags) {
			v.visible[c] = true
			v.chunks += a.chunks[c]
			v.total += a.total[c]
			for _, l := range a.langs[c] {
				if !slices.Contains(v.langs, l) {
					v.langs = append(v.langs, l)
				}
			}
		} else {
			v.whole = false
		}
	}
	slices.Sort(v.langs)
	return v
}

// key names the view's visible classes, for caching what is built per
// view.
func (v readerView) key() string {
	b := make([]byte, len(v.visible))
	for c, ok := range v.visible {
		if ok {
			b[c] = 1
		}
	}
	return string(b)
}

// accessView returns the statistics a search under f scores with: nil
// when the reader sees the whole corpus (unrestricted, or no document
// hidden from them), which keeps the stored weights and pruning.
func (ix *Index) accessView(f fonte.Filter) (*lexical.View, *readerView) {
	if !f.Restricted {
		return nil, nil
	}
	ix.accessOnce.Do(func() { ix.access = newAccessClasses(ix.partition(), ix.src, ix.bm25.Index()) })
	rv := ix.access.view(f)
	if rv.whole {
		return nil, nil
	}
	class := ix.access.class
	visible := func(d int) bool { return rv.visible[class[d]] }
	v := ix.bm25.View(visible, rv.chunks, rv.total).WithGroups(ix.access.freqs, rv.visible)
	if rv.chunks*lexicalShare <= len(class) {
		v.WithRanges(ix.access.lexicalRanges(&rv))
	}
	return v, &rv
}

// allowFor returns the filter f as a predicate over chunk numbers, or nil
// when it passes every chunk, for a reader whose view (see accessView) is
// rv. Access is decided by the chunk's class, so a restricted reader's
// predicate reads no chunk record; the document prefixes and tags, when
// f has any, are checked on the chunks it may read only.
func (ix *Index) allowFor(f Filter, rv *readerView) func(int) bool {
	rest := Filter{Prefixes: f.Prefixes, Tags: f.Tags}
	var passes func(int) bool
	if !rest.Empty() {
		passes = func(i int) bool {
			var tags []string
			if len(rest.Tags) > 0 {
				tags = ix.src.Tags(i)
			}
			return rest.Accepts(ix.src.DocID(i), tags)
		}
	}
	if !f.Restricted || rv == nil {
		// Unrestricted, or a reader who may read every chunk.
		return passes
	}
	class, visible := ix.access.class, rv.visible
	if passes == nil {
		return func(i int) bool { return visible[class[i]] }
	}
	return func(i int) bool { return visible[class[i]] && passes(i) }
}

// maxTFIDFViews bounds the TF-IDF models kept per reader view: each costs
// a pass over the postings and a weight per posting.
const maxTFIDFViews = 8

// tfidfFor returns the TF-IDF model a reader with view rv scores with:
// the corpus's own when rv is nil, else one fitted on the visible chunks
// (kept for the next search of the same view, up to maxTFIDFViews).
func (ix *Index) tfidfFor(rv *readerView) *lexical.TFIDF {
	ix.tfidfOnce.Do(func() { ix.tfidf = lexical.NewTFIDFIndex(ix.bm25.Index(), lexical.TFIDFOptions{Sublinear: true}) })
	if rv == nil {
		return ix.tfidf
	}
	key := rv.key()
	ix.tfidfMu.Lock()
	m, ok := ix.tfidfViews[key]
	ix.tfidfMu.Unlock()
	if ok {
		return m
	}
	class := ix.access.class
	m = lexical.NewTFIDFVisible(ix.bm25.Index(), lexical.TFIDFOptions{Sublinear: true}, func(d int) bool { return rv.visible[class[d]] })
	ix.tfidfMu.Lock()
	defer ix.tfidfMu.Unlock()
	if ix.tfidfViews == nil {
		ix.tfidfViews = map[string]*lexical.TFIDF{}
	}
	if len(ix.tfidfViews) < maxTFIDFViews {
		ix.tfidfViews[key] = m
	}
	return m
}

// Languages returns the languages of the chunks a reader under f may
// read, sorted ("" for chunks whose language was not told): the corpus's
// for an unrestricted reader, else those of the access classes f may
// read, from the classes a restricted search builds once per index, so
// that asking costs neither a pass over the documents nor memory of
// their number.
func (ix *Index) Languages(f fonte.Filter) []string {
	if !f.Restricted {
		return ix.langs
	}
	ix.accessOnce.Do(func() { ix.access = newAccessClasses(ix.partition(), ix.src, ix.bm25.Index()) })
	return ix.access.view(f).langs
}
