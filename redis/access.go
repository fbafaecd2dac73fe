package redis

import (
	"maps"
	"slices"
	"strings"

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

// accessExpr is the query expression that passes exactly the live
// documents a reader restricted by f may read, or "" when it may read
// every one (nothing to keep out). A document is hidden when it carries
// access labels and none the reader holds, so the expression keeps out
// every document carrying one of the labels hidden documents carry,
// unless it carries a label the reader holds. A label the engine cannot
// match byte for byte (see tagSafe) is replaced by the versions of the
// documents it decides.
func accessExpr(st *state, f fonte.Filter) string {
	if !f.Restricted {
		return ""
	}
	hidden := map[string]bool{} // the matchable labels of hidden documents
	var hiddenVers []string     // hidden documents with no matchable label
	for _, id := range st.ids {
		e := st.docs[id]
		if f.Readable(e.Tags) {
			continue
		}
		matchable := false
		for _, t := range e.Tags {
			if isAccessTag(t) && tagSafe(t) {
				hidden[t], matchable = true, true
			}
		}
		if !matchable {
			hiddenVers = append(hiddenVers, fmtVer(e.V))
		}
	}
	if len(hidden) == 0 && len(hiddenVers) == 0 {
		return ""
	}
	var held []string // the matchable labels the reader holds
	for _, l := range f.Labels {
		if t := fonte.AccessTag(l); tagSafe(t) && !slices.Contains(held, t) {
			held = append(held, t)
		}
	}
	// Readable documents that carry a hidden label but no matchable held
	// one are let back in by version.
	var heldVers []string
	for _, id := range st.ids {
		e := st.docs[id]
		if f.Readable(e.Tags) && slices.ContainsFunc(e.Tags, func(t string) bool { return hidden[t] }) &&
			!slices.ContainsFunc(e.Tags, func(t string) bool { return slices.Contains(held, t) }) {
			heldVers = append(heldVers, fmtVer(e.V))
		}
	}
	var out []string
	if len(hidden) > 0 {
		out = append(out, "-"+tagUnion(fTags, slices.Sorted(maps.Keys(hidden)), true))
	}
	if len(hiddenVers) > 0 {
		out = append(out, "-"+tagUnion(fVer, hiddenVers, false))
	}
	expr := "(" + strings.Join(out, " ") + ")"
	alts := []string{expr}
	if len(held) > 0 {
		slices.Sort(held)
		alts = append(alts, tagUnion(fTags, held, true))
	}
	if len(heldVers) > 0 {
		alts = append(alts, tagUnion(fVer, heldVers, false))
	}
	if len(alts) == 1 {
		return expr
	}
	return "(" + strings.Join(alts, " | ") + ")"
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
