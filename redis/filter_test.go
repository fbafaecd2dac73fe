package redis

import (
	"fmt"
	"slices"
	"testing"

	"github.com/fonte-rag/fonte"
)

func TestEngineFilter(t *testing.T) {
	st := &state{docs: map[string]docEntry{}}
	add := func(id string, v uint64) {
		st.docs[id] = docEntry{V: v}
		st.ids = append(st.ids, id)
	}
	add("a/b/one.md", 1)
	add("a/b/two.md", 2)
	add("a/c.md", 3)
	for i := range maxPinned + 1 {
		add(fmt.Sprintf("wide/x-%03d", i), uint64(100+i))
		add(fmt.Sprintf("flat-%03d", i), uint64(1000+i))
	}
	slices.Sort(st.ids)
	cases := []struct {
		f    fonte.Filter
		want string
		none bool
	}{
		{fonte.Filter{}, "*", false},
		{fonte.Filter{Prefixes: []string{""}}, "*", false},
		{fonte.Filter{Prefixes: []string{"a/b/"}}, `(@dir:{a\/b\/})`, false},
		{fonte.Filter{Prefixes: []string{"a/b/t"}}, `(@ver:{2})`, false},
		{fonte.Filter{Prefixes: []string{"a/"}, Tags: []string{"x y", " pad"}}, `(@tags:{x\ y} @dir:{a\/})`, false},
		{fonte.Filter{Prefixes: []string{"wide/x-"}}, `(@dir:{wide\/})`, false},  // too many to pin: its folder, then fonte's check
		{fonte.Filter{Prefixes: []string{"flat-"}}, "*", false},                  // too many to pin, no folder: fonte's check alone
		{fonte.Filter{Prefixes: []string{"zzz", "a/c"}}, `(@ver:{3})`, false},    // a prefix matching nothing adds nothing
		{fonte.Filter{Prefixes: []string{"zzz"}, Tags: []string{"t"}}, "", true}, // nothing can pass
		{fonte.Filter{Prefixes: []string{"a/b/", "a/c"}}, `((@dir:{a\/b\/} | @ver:{3}))`, false},
		{fonte.Filter{Tags: []string{"città", "a-b.c"}}, `(@tags:{città} @tags:{a\-b\.c})`, false},
	}
	for _, c := range cases {
		cf := engineFilter(st, c.f, true)
		if cf.expr != c.want || cf.none != c.none {
			t.Errorf("engineFilter(%+v) = %q, %v; want %q, %v", c.f, cf.expr, cf.none, c.want, c.none)
		}
	}
}

// TestAccessExpr: a restricted reader from whom some live document is
// hidden has the restriction in the engine's pre-filter, exactly: the
// documents carrying a held label the engine matches, and the other
// readable ones by version; when those are too many to name, the hidden
// documents' labels kept out unless a held label lets a document back
// in, labels the engine cannot match replaced by versions. A reader who
// may read every document adds nothing, one who may read nothing asks
// nothing.
func TestAccessExpr(t *testing.T) {
	st := &state{docs: map[string]docEntry{}}
	add := func(id string, v uint64, labels ...string) {
		st.docs[id] = docEntry{V: v, N: int(v % 7), Tags: append([]string{"public"}, accessTags(labels)...)}
		st.ids = append(st.ids, id)
	}
	add("board/b.md", 3, "hr", "fin")
	add("hr/a.md", 2, "hr", "hr")
	add("odd.md", 4, "bad\x01")
	add("mixed.md", 5, "hr", "bad\x01")
	add("pub.md", 1)
	wide := &state{docs: map[string]docEntry{}}
	for id, e := range st.docs {
		wide.docs[id] = e
	}
	wide.ids = slices.Clone(st.ids)
	for i := range maxPinnedAccess {
		id := fmt.Sprintf("pub/%04d.md", i)
		wide.docs[id] = docEntry{V: uint64(100 + i), N: 1 + i%3}
		wide.ids = append(wide.ids, id)
	}
	slices.Sort(st.ids)
	slices.Sort(wide.ids)
	closed := &state{docs: map[string]docEntry{"board/b.md": st.docs["board/b.md"]}, ids: []string{"board/b.md"}}
	cases := []struct {
		st     *state
		labels []string
		want   string
		none   bool
	}{
		{st, nil, `(@ver:{1})`, false},
		{st, []string{"fin"}, `((@tags:{access\:fin} | @ver:{1}))`, false},
		{st, []string{"hr", "hr"}, `((@tags:{access\:hr} | @ver:{1}))`, false},
		// odd.md and mixed.md carry no label the engine matches.
		{st, []string{"bad\x01"}, `(@ver:{1|4|5})`, false},
		{st, []string{"hr", "fin", "bad\x01"}, "*", false},
		// Too many unlabelled documents to name: the hidden labels kept out.
		{wide, nil, `((-@tags:{access\:fin|access\:hr} -@ver:{4}))`, false},
		{wide, []string{"fin"}, `(((-@tags:{access\:hr} -@ver:{4}) | @tags:{access\:fin}))`, false},
		// odd.md carries no hidden label; mixed.md is let back in by version.
		{wide, []string{"bad\x01"}, `(((-@tags:{access\:fin|access\:hr}) | @ver:{5}))`, false},
		{closed, []string{"ops"}, "", true},
	}
	for _, c := range cases {
		st := c.st
		f := fonte.Filter{Restricted: true, Labels: c.labels}
		cf := engineFilter(st, f, true)
		if cf.expr != c.want || cf.access != (c.want != "*" && !c.none) || cf.none != c.none {
			t.Errorf("reader %q over %d documents: expr %q (access %v, none %v), want %q", c.labels, len(st.ids), cf.expr, cf.access, cf.none, c.want)
		}
		readable := 0
		for _, id := range st.ids {
			if f.Readable(st.docs[id].Tags) {
				readable += st.docs[id].N
			}
		}
		if cf.live != readable {
			t.Errorf("reader %q: counts %d live chunks, %d are readable", c.labels, cf.live, readable)
		}
	}
	if cf := engineFilter(st, fonte.Filter{}, false); cf.expr != "*" || cf.access {
		t.Errorf("an unrestricted reader's filter: %q, %v", cf.expr, cf.access)
	}
	// With another condition, each alternative of the access filter takes
	// it itself: the cluster coordinator miscounted the condition
	// intersected with the union (TestRestrictedReadersExactExclusion).
	f := fonte.Filter{Restricted: true, Labels: []string{"fin"}, Prefixes: []string{"board/"}}
	want := `(((@dir:{board\/} (-@tags:{access\:hr} -@ver:{4})) | (@dir:{board\/} @tags:{access\:fin})))`
	if cf := engineFilter(wide, f, true); cf.expr != want || cf.live != wide.docs["board/b.md"].N {
		t.Errorf("a reader of board/ holding fin: expr %q, %d live; want %q, %d", cf.expr, cf.live, want, wide.docs["board/b.md"].N)
	}
}

func accessTags(labels []string) []string {
	out := make([]string, len(labels))
	for i, l := range labels {
		out[i] = fonte.AccessTag(l)
	}
	return out
}
