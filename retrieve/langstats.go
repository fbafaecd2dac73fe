package retrieve

import (
	"slices"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/lexical"
)

// langClasses group a mixed-language corpus's chunks by access class
// (see partition) and language, with every term's document frequency per
// group: what TermStatsIn sums over the groups a reader may read in the
// languages asked, without a pass over a term's postings. Built once per
// index, on the first TermStatsIn that narrows a corpus of several
// languages.
type langClasses struct {
	langs  []string // the corpus's languages, in order of first chunk
	groups int      // classes · languages
	freqs  *lexical.GroupFreqs
}

func newLangClasses(p *partition, src ChunkSource, lex *lexical.Index) *langClasses {
	// Each chunk's language, by its document's first chunk.
	lang := make([]uint32, len(p.class))
	at := map[string]uint32{}
	lc := &langClasses{}
	first := docStart(src)
	for i := range lang {
		if first(i) {
			l := src.Lang(i)
			if _, ok := at[l]; !ok {
				at[l] = uint32(len(lc.langs))
				lc.langs = append(lc.langs, l)
			}
			lang[i] = at[l]
		} else {
			lang[i] = lang[i-1]
		}
	}
	// Each chunk's group, in place of its language.
	nl := uint32(len(lc.langs))
	group := lang
	for i, c := range p.class {
		group[i] = c*nl + lang[i]
	}
	lc.groups = len(p.tags) * len(lc.langs)
	lc.freqs = lex.GroupFreqs(group, lc.groups)
	return lc
}

// TermStatsIn is TermStats whose document frequencies count only the
// chunks of documents in one of langs (Document.Language as the index
// records it, "" for one not told): a term is then a word of those
// languages, which text of another does not hold even where it has the
// same stem ("can", the Italian "cane" stemmed, and the English "can").
// The chunks and their length are every chunk the reader may read, as in
// TermStats: an Italian word held by one Italian chunk of a thousand is
// as rare as it is, whatever the share of Italian text. Empty langs, or
// langs holding every language of the corpus, make it TermStats.
func (ix *Index) TermStatsIn(terms []string, f Filter, langs []string) fonte.TermStats {
	st := ix.TermStats(terms, f)
	if len(langs) == 0 || !slices.ContainsFunc(ix.langs, func(l string) bool { return !slices.Contains(langs, l) }) {
		return st
	}
	ix.langOnce.Do(func() {
		ix.langGroups = newLangClasses(ix.partition(), ix.src, ix.bm25.Index())
	})
	lc := ix.langGroups
	// Only access decides what the statistics count, as in TermStats:
	// prefixes and tags narrow a search, not its statistics.
	access := fonte.Filter{Restricted: f.Restricted, Labels: f.Labels}
	nl := len(lc.langs)
	visible := make([]bool, lc.groups)
	for c, tags := range ix.partition().tags {
		if !access.Readable(tags) {
			continue
		}
		for li, l := range lc.langs {
			visible[c*nl+li] = slices.Contains(langs, l)
		}
	}
	lex := ix.bm25.Index()
	for i, t := range terms {
		st.DF[i] = 0
		if id, ok := lex.TermID(t); ok {
			st.DF[i] = lc.freqs.DocFreq(id, visible)
		}
	}
	return st
}
