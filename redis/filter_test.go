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
