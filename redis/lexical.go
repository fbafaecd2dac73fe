package redis

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	goredis "github.com/redis/go-redis/v9"

	"github.com/fonte-rag/fonte"
)

// The lexical leg is fonte's BM25, computed here over postings kept in
// Redis, not the engine's text scorer: RediSearch 2.6 scores a multi-word
// query as one aggregated term frequency with a single idf, which on
// SciFact ranks far below per-term BM25 (see the package documentation
// for figures). Each term's postings hash maps a chunk's version and
// number to the term's frequency in it and the chunk's length, so a
// query costs one pipeline of HGETALLs, exact scores, the filter, a
// top-K cut and one pipeline for the K chunks.

// chunkRef names a chunk by its document version and number.
type chunkRef struct {
	ver uint64
	i   int
}

// LexicalTopK returns the K chunks with the highest BM25 score for
// q.Terms among those q.Filter accepts, best first, ties by document ID
// then position; only scores above 0.
func (s *Store) LexicalTopK(ctx context.Context, q fonte.LexicalQuery) ([]fonte.ScoredChunk, error) {
	if q.K <= 0 || len(q.Terms) == 0 {
		return nil, nil
	}
	var out []fonte.ScoredChunk
	err := s.read(ctx, "lexical search", func(st *state) error {
		res, err := s.lexical(ctx, st, q)
		out = res
		return err
	})
	return out, err
}

func (s *Store) lexical(ctx context.Context, st *state, q fonte.LexicalQuery) ([]fonte.ScoredChunk, error) {
	if st.chunks == 0 {
		return nil, nil
	}
	distinct := slices.Clone(q.Terms)
	slices.Sort(distinct)
	distinct = slices.Compact(distinct)
	postings, err := s.livePostings(ctx, st, distinct)
	if err != nil {
		return nil, err
	}
	accepted := map[uint64]bool{}
	accepts := func(ver uint64) bool {
		ok, seen := accepted[ver]
		if !seen {
			id := st.byVer[ver]
			ok = q.Filter.Accepts(id, st.docs[id].Tags)
			accepted[ver] = ok
		}
		return ok
	}
	// The weight of each posting, then the sum in the query's order (a
	// repeated term counts each time), with the expression and operation
	// order of lexical.BM25 so the scores agree to the last bit. N, the
	// average length and the frequencies are those of what the reader
	// may read, so nothing hidden moves a score.
	rd := st.reader(q.Filter)
	n, avg := float64(rd.chunks), rd.avgLen()
	k1, b := fonte.BM25K1, fonte.BM25B
	weights := map[string][]float64{}
	for t, ps := range postings {
		df := float64(rd.df(ps))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		w := make([]float64, len(ps))
		for j, p := range ps {
			f := float64(p.tf)
			w[j] = idf * f * (k1 + 1) / (f + k1*(1-b+b*float64(p.length)/avg))
		}
		weights[t] = w
	}
	scores := map[chunkRef]float64{}
	for _, t := range q.Terms {
		w := weights[t]
		for j, p := range postings[t] {
			if accepts(p.ver) {
				scores[chunkRef{p.ver, p.i}] += w[j]
			}
		}
	}
	type scored struct {
		ref   chunkRef
		doc   string
		score float64
	}
	cands := make([]scored, 0, len(scores))
	for ref, sc := range scores {
		if sc > 0 {
			cands = append(cands, scored{ref, st.byVer[ref.ver], sc})
		}
	}
	slices.SortFunc(cands, func(a, b scored) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		if c := cmp.Compare(a.doc, b.doc); c != 0 {
			return c
		}
		return cmp.Compare(a.ref.i, b.ref.i) // positions increase with the chunk number
	})
	cands = cands[:min(q.K, len(cands))]

	p := s.rdb.Pipeline()
	cmds := make([]*goredis.SliceCmd, len(cands))
	for i, c := range cands {
		cmds[i] = p.HMGet(ctx, s.k.chunk(c.ref.ver, c.ref.i), hitFields...)
	}
	if err := execPipe(ctx, p); err != nil {
		return nil, err
	}
	out := make([]fonte.ScoredChunk, len(cands))
	for i, c := range cmds {
		m := map[string]string{}
		for j, f := range hitFields {
			if v, ok := c.Val()[j].(string); ok {
				m[f] = v
			}
		}
		if len(m) == 0 {
			return nil, errChanged
		}
		ch, lang, err := decodeChunk(m)
		if err != nil {
			return nil, fmt.Errorf("chunk %s: %w", s.k.chunk(cands[i].ref.ver, cands[i].ref.i), err)
		}
		out[i] = fonte.ScoredChunk{Chunk: ch, Lang: lang, Score: cands[i].score}
	}
	return out, nil
}

// livePostings fetches the terms' postings in one pipeline and keeps
// those of st's live versions (a commit in flight has written others).
func (s *Store) livePostings(ctx context.Context, st *state, terms []string) (map[string][]posting, error) {
	p := s.rdb.Pipeline()
	cmds := make([]*goredis.MapStringStringCmd, len(terms))
	for i, t := range terms {
		cmds[i] = p.HGetAll(ctx, s.k.term(t))
	}
	if err := execPipe(ctx, p); err != nil {
		return nil, err
	}
	out := make(map[string][]posting, len(terms))
	for i, c := range cmds {
		var ps []posting
		for f, v := range c.Val() {
			pst, err := parsePosting(f, v)
			if err != nil {
				return nil, fmt.Errorf("term %q: %w", terms[i], err)
			}
			if _, live := st.byVer[pst.ver]; live {
				ps = append(ps, pst)
			}
		}
		out[terms[i]] = ps
	}
	return out, nil
}

// TermStats returns the number of chunks, their total length and each
// term's document frequency, exactly as of one generation. When no
// version is pending (no commit in flight, nothing left by a failed one)
// every posting is live and a term's frequency is its hash's length
// (HLEN); otherwise, and for a reader restricted by access, the
// postings' fields are read and the live ones the reader may read
// counted.
func (s *Store) TermStats(ctx context.Context, terms []string, access fonte.Filter) (fonte.TermStats, error) {
	var out fonte.TermStats
	if s.isClosed() {
		return out, ErrClosed
	}
	pr, err := s.probe(ctx)
	if err != nil {
		return out, s.wrapErr("term statistics", err)
	}
	// A restricted reader's frequencies count the readable postings, so
	// only an unrestricted one may use the hashes' lengths.
	if pr.pending == 0 && !access.Restricted {
		st, err := s.stateAt(ctx, pr.gen)
		if err != nil {
			return out, s.wrapErr("term statistics", err)
		}
		p := s.rdb.Pipeline()
		cmds := make([]*goredis.IntCmd, len(terms))
		for i, t := range terms {
			cmds[i] = p.HLen(ctx, s.k.term(t))
		}
		if err := execPipe(ctx, p); err != nil {
			return out, s.wrapErr("term statistics", err)
		}
		after, err := s.probe(ctx)
		if err != nil {
			return out, s.wrapErr("term statistics", err)
		}
		// No version handed out and no switch meanwhile: no posting
		// appeared or went while the lengths were read.
		if st.gen == pr.gen && after.gen == pr.gen && after.seq == pr.seq {
			out = fonte.TermStats{Chunks: st.chunks, TotalTerms: st.terms, DF: make([]int, len(terms))}
			for i, c := range cmds {
				out.DF[i] = int(c.Val())
			}
			return out, nil
		}
	}
	err = s.read(ctx, "term statistics", func(st *state) error {
		rd := st.reader(access)
		out = fonte.TermStats{Chunks: rd.chunks, TotalTerms: rd.terms}
		out.DF, err = s.countPostings(ctx, terms, rd.reads)
		return err
	})
	return out, err
}

// countPostings returns, per term, how many of its postings are of a
// version counted accepts.
func (s *Store) countPostings(ctx context.Context, terms []string, counted func(ver uint64) bool) ([]int, error) {
	p := s.rdb.Pipeline()
	cmds := make([]*goredis.StringSliceCmd, len(terms))
	for i, t := range terms {
		cmds[i] = p.HKeys(ctx, s.k.term(t))
	}
	if err := execPipe(ctx, p); err != nil {
		return nil, err
	}
	df := make([]int, len(terms))
	for i, c := range cmds {
		for _, f := range c.Val() {
			v, _, _ := strings.Cut(f, ".")
			if ver, err := parseVer(v); err == nil && counted(ver) {
				df[i]++
			}
		}
	}
	return df, nil
}

// TermStatsIn is TermStats whose document frequencies count only the
// chunks of documents in one of langs (see fonte.LanguageTermStats), as
// of one generation: the postings' fields are read and the live ones of
// documents in langs the reader may read counted, the documents'
// languages from their descriptions (read once per generation).
func (s *Store) TermStatsIn(ctx context.Context, terms []string, access fonte.Filter, langs []string) (fonte.TermStats, error) {
	if len(langs) == 0 {
		return s.TermStats(ctx, terms, access)
	}
	var out fonte.TermStats
	err := s.read(ctx, "term statistics", func(st *state) error {
		infos, err := s.infos(ctx, st)
		if err != nil {
			return err
		}
		inLangs := make(map[string]bool, len(infos))
		for _, d := range infos {
			inLangs[d.ID] = slices.Contains(langs, d.Language)
		}
		rd := st.reader(access)
		out = fonte.TermStats{Chunks: rd.chunks, TotalTerms: rd.terms}
		out.DF, err = s.countPostings(ctx, terms, func(ver uint64) bool { return rd.reads(ver) && inLangs[st.byVer[ver]] })
		return err
	})
	return out, err
}

// readerStats are one generation's statistics as a reader sees it: the
// chunks and terms of the live documents it may read, from the
// generation's access classes.
type readerStats struct {
	st     *state
	chunks int
	terms  int64
	view   *accessView // nil: every live document
}

// reader returns st's statistics for a reader under access's
// restriction (its Restricted and Labels only). An unrestricted
// reader's need no access classes.
func (st *state) reader(access fonte.Filter) readerStats {
	rd := readerStats{st: st, chunks: st.chunks, terms: st.terms}
	if access.Restricted {
		rd.view = st.accessView(access.Labels)
		rd.chunks, rd.terms = rd.view.chunks, rd.view.terms
	}
	return rd
}

// reads reports whether ver is a live version the reader may read.
func (rd readerStats) reads(ver uint64) bool {
	if rd.view == nil {
		_, live := rd.st.byVer[ver]
		return live
	}
	c, live := rd.st.access.byVer[ver]
	return live && rd.view.readable[c]
}

// df counts the postings of live versions the reader may read.
func (rd readerStats) df(ps []posting) int {
	if rd.view == nil {
		return len(ps)
	}
	n := 0
	for _, p := range ps {
		if rd.reads(p.ver) {
			n++
		}
	}
	return n
}

// avgLen is the mean length in terms of the chunks the reader may read.
func (rd readerStats) avgLen() float64 {
	if rd.chunks == 0 {
		return 0
	}
	return float64(rd.terms) / float64(rd.chunks)
}
