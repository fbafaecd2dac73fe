package retrieve

import (
	"slices"
	"strings"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/lexical"
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
}

func newAccessClasses(src ChunkSource, lex *lexical.Index) *accessClasses {
	a := &accessClasses{class: make([]uint32, src.Len())}
	byKey := map[string]uint32{}
	lastDoc, last := "", uint32(0)
	for i := range a.class {
		if doc := src.DocID(i); i == 0 || doc != lastDoc {
			var labels []string
			for _, t := range src.Tags(i) {
				if strings.HasPrefix(t, fonte.AccessTagPrefix) {
					labels = append(labels, t)
				}
			}
			slices.Sort(labels)
			key := strings.Join(labels, "\x00")
			c, ok := byKey[key]
			if !ok {
				c = uint32(len(a.tags))
				byKey[key] = c
				a.tags = append(a.tags, labels)
				a.chunks = append(a.chunks, 0)
				a.total = append(a.total, 0)
				a.langs = append(a.langs, nil)
			}
			if l := src.Lang(i); !slices.Contains(a.langs[c], l) {
				a.langs[c] = append(a.langs[c], l)
				slices.Sort(a.langs[c])
			}
			lastDoc, last = doc, c
		}
		a.class[i] = last
		a.chunks[last]++
		a.total[last] += uint64(lex.DocLen(i))
	}
	return a
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
	ix.accessOnce.Do(func() { ix.access = newAccessClasses(ix.src, ix.bm25.Index()) })
	rv := ix.access.view(f)
	if rv.whole {
		return nil, nil
	}
	class := ix.access.class
	visible := func(d int) bool { return rv.visible[class[d]] }
	return ix.bm25.View(visible, rv.chunks, rv.total), &rv
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
