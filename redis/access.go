package redis

import (
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/fonte-rag/fonte"
)

// A restricted reader's dense leg. The HNSW graph's links were shaped by
// every chunk, hidden ones included, so which readable chunks a walk
// filtered afterwards reaches could depend on chunks the reader may not
// read. For a reader from whom some live document is hidden, the access
// restriction therefore goes into the engine's pre-filter (accessExpr)
// and the KNN runs with HYBRID_POLICY ADHOC_BF: the engine computes the
// distance of every chunk the pre-filter passes and keeps the K nearest,
// an exact answer over the readable chunks whose cost grows with them.

// isAccessTag reports whether tag carries an access label.
func isAccessTag(tag string) bool {
	return len(tag) > len(fonte.AccessTagPrefix) && strings.HasPrefix(tag, fonte.AccessTagPrefix)
}

// maxPinnedAccess bounds the readable documents without a held label
// (unlabelled ones, mostly) an access pre-filter names by version (a
// variable so that a test can send the other form to the engine).
var maxPinnedAccess = 1024

// accessExpr is the query expression that passes exactly the live
// documents a reader restricted by f may read, or "" when it may read
// every one (nothing to keep out); see accessView.
func accessExpr(st *state, f fonte.Filter) string {
	if !f.Restricted {
		return ""
	}
	return st.accessView(f.Labels).expr
}

// accessClass is the live documents of one generation that carry the
// same access tags.
type accessClass struct {
	tags      []string // the access tags, sorted, distinct; none: unlabelled
	matchable []string // those the engine matches byte for byte (tagSafe)
	chunks    int
	terms     int64
	vers      []string // the documents' versions (fmtVer), sorted
}

// accessClasses groups a generation's live documents by access tags,
// once per generation, so that a reader's statistics and pre-filter are
// made from a few classes instead of a walk over every document.
type accessClasses struct {
	list   []accessClass
	byVer  map[uint64]int // live version → its class
	chunks int            // every live document's chunks

	mu    sync.Mutex
	views map[string]*accessView // by the reader's labels (labelsKey)
}

// accessView is one reader's view of a generation's classes.
type accessView struct {
	readable []bool // per class
	chunks   int    // what the reader may read
	terms    int64
	// expr is the pre-filter passing exactly the live documents the
	// reader may read, "" when none is hidden from it: the union of alts.
	expr string
	alts []string
}

// classes returns st's access classes, made on first use.
func (st *state) classes() *accessClasses {
	st.classesOnce.Do(func() {
		a := &accessClasses{byVer: make(map[uint64]int, len(st.docs)), views: map[string]*accessView{}}
		byKey := map[string]int{}
		for _, id := range st.ids {
			e := st.docs[id]
			var tags []string
			for _, t := range e.Tags {
				if isAccessTag(t) {
					tags = append(tags, t)
				}
			}
			slices.Sort(tags)
			tags = slices.Compact(tags)
			key := strings.Join(tags, "\x00")
			c, ok := byKey[key]
			if !ok {
				c = len(a.list)
				byKey[key] = c
				cl := accessClass{tags: tags}
				for _, t := range tags {
					if tagSafe(t) {
						cl.matchable = append(cl.matchable, t)
					}
				}
				a.list = append(a.list, cl)
			}
			cl := &a.list[c]
			cl.chunks += e.N
			cl.terms += e.T
			cl.vers = append(cl.vers, fmtVer(e.V))
			a.byVer[e.V] = c
			a.chunks += e.N
		}
		for i := range a.list {
			slices.Sort(a.list[i].vers)
		}
		st.access = a
	})
	return st.access
}

// accessView returns the view of a reader holding labels, made once per
// generation and reader.
func (st *state) accessView(labels []string) *accessView {
	a := st.classes()
	held := slices.Clone(labels)
	slices.Sort(held)
	held = slices.Compact(held)
	key := strings.Join(held, "\x00")
	a.mu.Lock()
	defer a.mu.Unlock()
	if v, ok := a.views[key]; ok {
		return v
	}
	v := a.view(held)
	a.views[key] = v
	return v
}

// view makes the view of a reader holding labels.
//
// A document is hidden when it carries access labels and none the
// reader holds. When some is, the pre-filter names what the reader may
// read: the documents carrying a held label the engine can match, and
// by version the other readable ones (unlabelled documents, mostly), so
// the engine evaluates nothing but what the reader may read. When those
// are more than maxPinnedAccess it keeps out instead every document
// carrying a label hidden documents carry, unless it carries a held
// label, and names by version the hidden documents with no matchable
// label and the readable ones such a label would keep out.
func (a *accessClasses) view(labels []string) *accessView {
	f := fonte.Filter{Restricted: true, Labels: labels}
	v := &accessView{readable: make([]bool, len(a.list))}
	hiddenSome := false
	for i, c := range a.list {
		if v.readable[i] = f.Readable(c.tags); v.readable[i] {
			v.chunks += c.chunks
			v.terms += c.terms
		} else {
			hiddenSome = true
		}
	}
	if !hiddenSome {
		return v
	}
	var held []string // the matchable labels the reader holds
	for _, l := range labels {
		if t := fonte.AccessTag(l); tagSafe(t) {
			held = append(held, t)
		}
	}
	heldBy := func(c accessClass) bool {
		return slices.ContainsFunc(c.matchable, func(t string) bool { return slices.Contains(held, t) })
	}
	var pinned []string
	for i, c := range a.list {
		if v.readable[i] && !heldBy(c) {
			pinned = append(pinned, c.vers...)
		}
	}
	if len(pinned) <= maxPinnedAccess && len(held)+len(pinned) > 0 {
		var alts []string
		if len(held) > 0 {
			alts = append(alts, tagUnion(fTags, held, true))
		}
		if len(pinned) > 0 {
			slices.Sort(pinned)
			alts = append(alts, tagUnion(fVer, pinned, false))
		}
		v.setAlts(alts)
		return v
	}
	hidden := map[string]bool{} // the matchable labels of hidden documents
	var hiddenVers []string     // hidden documents with no matchable label
	for i, c := range a.list {
		if v.readable[i] {
			continue
		}
		for _, t := range c.matchable {
			hidden[t] = true
		}
		if len(c.matchable) == 0 {
			hiddenVers = append(hiddenVers, c.vers...)
		}
	}
	// Readable documents that carry a hidden label but no matchable held
	// one are let back in by version.
	var heldVers []string
	for i, c := range a.list {
		if v.readable[i] && slices.ContainsFunc(c.matchable, func(t string) bool { return hidden[t] }) && !heldBy(c) {
			heldVers = append(heldVers, c.vers...)
		}
	}
	var out []string
	if len(hidden) > 0 {
		out = append(out, "-"+tagUnion(fTags, slices.Sorted(maps.Keys(hidden)), true))
	}
	if len(hiddenVers) > 0 {
		slices.Sort(hiddenVers)
		out = append(out, "-"+tagUnion(fVer, hiddenVers, false))
	}
	expr := "(" + strings.Join(out, " ") + ")"
	alts := []string{expr}
	if len(held) > 0 {
		slices.Sort(held)
		alts = append(alts, tagUnion(fTags, slices.Compact(held), true))
	}
	if len(heldVers) > 0 {
		slices.Sort(heldVers)
		alts = append(alts, tagUnion(fVer, heldVers, false))
	}
	v.setAlts(alts)
	return v
}

// setAlts makes alts the view's pre-filter.
func (v *accessView) setAlts(alts []string) {
	v.alts = alts
	if v.expr = alts[0]; len(alts) > 1 {
		v.expr = "(" + strings.Join(alts, " | ") + ")"
	}
}

// tagUnion is the expression matching a TAG field holding any of values
// (escaped when escape says they need it).
func tagUnion(field string, values []string, escape bool) string {
	vs := values
	if escape {
		vs = make([]string, len(values))
		for i, v := range values {
			vs[i] = escapeTag(v)
		}
	}
	return "@" + field + ":{" + strings.Join(vs, "|") + "}"
}
