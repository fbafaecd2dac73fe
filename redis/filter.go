package redis

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fonte-rag/fonte"
)

// maxPinned bounds the documents a prefix filter names one by one
// (@ver:{v1|v2|…}) inside a query.
const maxPinned = 128

// compiledFilter is a Filter as the engine applies it.
type compiledFilter struct {
	expr string // the query's pre-filter, "*" for none
	none bool   // no live document passes the filter: no need to ask
	// live is the number of live chunks expr matches: what a complete
	// answer counts at least (stale versions may add to it).
	live int
	// access says expr keeps out what a restricted reader may not read
	// (see accessExpr): some live document is hidden from it.
	access bool
}

// engineFilter translates f into a query expression the engine applies
// before the KNN cut, as narrow as it can make it exactly; the leg then
// applies f itself to what comes back (Filter.Accepts on the live
// document), so the expression may let more through but never less.
//
// A restricted reader from whom some live document is hidden has its
// access restriction in expr too (accessExpr).
//
// Prefixes are not sent as TAG prefix queries (@doc:{pre*}): the engine
// expands a prefix into at most MAXEXPANSIONS (default 200) tag values and
// drops the rest without an error, and refuses prefixes shorter than
// MINPREFIX (2). Instead:
//   - a prefix ending in '/' matches the dir TAG (every '/'-ending
//     prefix of each ID) exactly;
//   - another prefix matching at most maxPinned live documents pins
//     their versions (@ver:{…}), which also keeps stale versions out;
//   - a wider one is narrowed to its directory, if it has one, and fonte's
//     check does the rest (the leg asks the engine for more hits until
//     enough pass).
//
// TAG values the engine would not match byte for byte (empty, with
// surrounding spaces, with control characters such as the separator)
// are left to fonte's check.
//
// With count, it also counts the live chunks the expression matches (a
// pass over the documents, for the dense leg's completeness check).
func engineFilter(st *state, f fonte.Filter, count bool) compiledFilter {
	var parts []string
	var tags []string // the tags expr requires
	for _, t := range f.Tags {
		if tagSafe(t) {
			parts = append(parts, "@"+fTags+":{"+escapeTag(t)+"}")
			tags = append(tags, t)
		}
	}
	var dirs []string          // prefixes expr matches through the dir TAG
	var pinned map[string]bool // documents expr names by version
	if len(f.Prefixes) > 0 {
		var alts []string
		matched, open := false, false
		for _, p := range f.Prefixes {
			ids := st.withPrefix(p)
			if len(ids) == 0 {
				continue
			}
			matched = true
			dir := p[:strings.LastIndexByte(p, '/')+1]
			switch {
			case p == "":
				open = true
			case dir == p && tagSafe(p):
				alts = append(alts, "@"+fDir+":{"+escapeTag(p)+"}")
				dirs = append(dirs, p)
			case len(ids) <= maxPinned:
				vers := make([]string, len(ids))
				if pinned == nil {
					pinned = map[string]bool{}
				}
				for i, id := range ids {
					vers[i] = fmtVer(st.docs[id].V)
					pinned[id] = true
				}
				alts = append(alts, "@"+fVer+":{"+strings.Join(vers, "|")+"}")
			case dir != "" && tagSafe(dir):
				alts = append(alts, "@"+fDir+":{"+escapeTag(dir)+"}")
				dirs = append(dirs, dir)
			default:
				open = true
			}
		}
		if !matched {
			return compiledFilter{none: true}
		}
		switch {
		case open:
			dirs, pinned = nil, nil
		case len(alts) == 1:
			parts = append(parts, alts[0])
		default:
			parts = append(parts, "("+strings.Join(alts, " | ")+")")
		}
		if open {
			f.Prefixes = nil
		}
	}
	a := accessExpr(st, f)
	if a != "" {
		view := st.accessView(f.Labels)
		if view.chunks == 0 {
			return compiledFilter{none: true} // the reader may read no chunk
		}
		if len(parts) > 0 && len(view.alts) > 1 {
			// Each alternative takes the other conditions itself: the
			// cluster coordinator counted 2 chunks where 3 match for
			// (@dir:{eng/} ((-@tags:{…} -@ver:{…}) | @tags:{…})), every
			// time on some spreads of the keys over the shards, and 3
			// for the same filter distributed over the union.
			branches := make([]string, len(view.alts))
			for i, alt := range view.alts {
				branches[i] = "(" + strings.Join(parts, " ") + " " + alt + ")"
			}
			parts = []string{"(" + strings.Join(branches, " | ") + ")"}
		} else {
			parts = append(parts, a)
		}
	}
	cf := compiledFilter{expr: "*", access: a != ""}
	if len(parts) > 0 {
		cf.expr = "(" + strings.Join(parts, " ") + ")"
	}
	if !count {
		return cf
	}
	// What the engine will match among the live documents, by the same
	// rules as expr: with no other condition, the readable classes'
	// chunks (no walk over the documents).
	constrained := len(f.Prefixes) > 0
	if !constrained && len(tags) == 0 {
		if cf.access {
			cf.live = st.accessView(f.Labels).chunks
		} else {
			cf.live = st.classes().chunks
		}
		return cf
	}
	var rd readerStats
	if cf.access {
		rd = st.reader(f)
	}
	for _, id := range st.ids {
		e := st.docs[id]
		if !hasAll(e.Tags, tags) || cf.access && !rd.reads(e.V) {
			continue
		}
		if constrained && !pinned[id] && !slices.ContainsFunc(dirs, func(d string) bool { return strings.HasPrefix(id, d) }) {
			continue
		}
		cf.live += e.N
	}
	return cf
}

func hasAll(have, want []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}

// tagSafe reports whether the engine's TAG index holds v exactly: it
// trims spaces around a value and splits at the separator.
func tagSafe(v string) bool {
	if v == "" || !utf8.ValidString(v) || strings.ContainsFunc(v, unicode.IsControl) {
		return false // the separator is a control character
	}
	first, _ := utf8.DecodeRuneInString(v)
	last, _ := utf8.DecodeLastRuneInString(v)
	return !unicode.IsSpace(first) && !unicode.IsSpace(last)
}

// escapeTag escapes a value for a TAG query ({…}): every ASCII character
// but letters, digits and '_' is punctuation to the query parser.
func escapeTag(v string) string {
	var b strings.Builder
	for _, r := range v {
		if r < utf8.RuneSelf && !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
