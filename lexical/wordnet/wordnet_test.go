package wordnet

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeDB writes a database in dir whose parts of speech have the given
// synsets (each a list of words) and index lines (lemma → the synsets'
// numbers, most frequent sense first), with true byte offsets and the
// licence lines WordNet's files open with.
func writeDB(t *testing.T, dir string, synsets map[string][][]string, index map[string]map[string][]int) {
	t.Helper()
	for _, p := range parts {
		var data strings.Builder
		data.WriteString("  1 This software and database is being provided to you, the LICENSEE\n")
		offsets := []int{}
		for _, words := range synsets[p] {
			offsets = append(offsets, data.Len())
			var ws []string
			for _, w := range words {
				ws = append(ws, w, "0")
			}
			fmt.Fprintf(&data, "%08d 29 v %02x %s 000 | a gloss\n", data.Len(), len(words), strings.Join(ws, " "))
		}
		var idx strings.Builder
		idx.WriteString("  1 This software and database is being provided to you, the LICENSEE\n")
		lemmas := make([]string, 0, len(index[p]))
		for l := range index[p] {
			lemmas = append(lemmas, l)
		}
		slices.Sort(lemmas)
		for _, l := range lemmas {
			var offs []string
			for _, s := range index[p][l] {
				offs = append(offs, fmt.Sprintf("%08d", offsets[s]))
			}
			fmt.Fprintf(&idx, "%s %c %d 2 @ ~ %d 0 %s  \n", l, p[0], len(offs), len(offs), strings.Join(offs, " "))
		}
		if err := os.WriteFile(filepath.Join(dir, "data."+p), []byte(data.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "index."+p), []byte(idx.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func testDB(t *testing.T) string {
	dir := t.TempDir()
	writeDB(t, dir, map[string][][]string{
		"verb": {
			{"buy", "purchase"},                // 0
			{"collect", "take_in"},             // 1
			{"gather", "collect", "garner"},    // 2
			{"switch_off", "cut", "turn_off"},  // 3
			{"pick_up", "collect", "call_for"}, // 4
			{"cut", "trim"},                    // 5
			{"roll_up", "collect"},             // 6
			{"roll_up", "wrap"},                // 7
		},
		"adj": {{"quick(a)", "speedy"}},
	}, map[string]map[string][]int{
		"verb": {
			"buy": {0}, "purchase": {0},
			"collect":    {1, 4, 2, 6}, // gather's first sense is collect's third
			"gather":     {2},
			"garner":     {2},
			"switch_off": {3}, "turn_off": {3},
			"cut":     {5, 3}, // "cut" for "switch off" is cut's second sense
			"take_in": {1}, "pick_up": {4}, "call_for": {4}, "trim": {5},
			"roll_up": {7, 6}, "wrap": {7}, // collect is roll up's second sense and collect's fourth
		},
		"adj": {"quick": {0}, "speedy": {0}},
	})
	return dir
}

func TestLoadFirstSenses(t *testing.T) {
	dir := testDB(t)
	for _, senses := range []int{1, 2} {
		th, err := Load(dir, senses)
		if err != nil {
			t.Fatal(err)
		}
		cases := []struct {
			a, b string
			want bool
		}{
			{"buy", "purchase", true},
			{"purchase", "buy", true},
			{"collect", "gather", true},  // gather's first sense holds collect
			{"collect", "take in", true}, // collect's first sense
			{"collect", "pick up", true}, // pick up's first sense
			{"collect", "roll up", senses >= 2},
			{"switch off", "turn off", true},
			{"switch off", "cut", true}, // switch off's first sense holds cut
			{"cut", "trim", true},
			{"trim", "turn off", false},
			{"quick", "speedy", true}, // the adjective marker is dropped
			{"buy", "gather", false},
			{"buy", "buy", false},
		}
		for _, c := range cases {
			if got := th.Related(c.a, c.b); got != c.want {
				t.Errorf("senses %d: Related(%q, %q) = %v, want %v", senses, c.a, c.b, got, c.want)
			}
		}
		if got := th.Synonyms("purchase"); !slices.Equal(got, []string{"buy"}) {
			t.Errorf("senses %d: Synonyms(purchase) = %q", senses, got)
		}
		if got := th.Synonyms("nothing"); got != nil {
			t.Errorf("senses %d: Synonyms(nothing) = %q, want nil", senses, got)
		}
	}
	if _, err := Load(dir, 0); err == nil {
		t.Error("Load(dir, 0) did not fail")
	}
}

func TestKeyed(t *testing.T) {
	th, err := Load(testDB(t), 1)
	if err != nil {
		t.Fatal(err)
	}
	// A toy stemmer: strip a final "e" or "s".
	k := th.Keyed(func(l string) string {
		ws := strings.Fields(l)
		for i, w := range ws {
			ws[i] = strings.TrimRight(w, "es")
		}
		return strings.Join(ws, " ")
	})
	if !k.Related("purcha", "buy") || !k.Related("switch off", "turn off") {
		t.Errorf("keyed thesaurus lost a pair: purcha %q, switch off %q", k.Synonyms("purcha"), k.Synonyms("switch off"))
	}
	if k.Related("buy", "buy") || k.Related("purchase", "buy") {
		t.Error("keyed thesaurus keeps a self pair or an unkeyed lemma")
	}
}

func TestLoadErrors(t *testing.T) {
	if _, err := Load(t.TempDir(), 1); err == nil {
		t.Error("Load of an empty folder did not fail")
	}
	dir := testDB(t)
	// An index line pointing at an offset where no record starts.
	bad := "buy v 1 0 1 0 00000005  \n"
	if err := os.WriteFile(filepath.Join(dir, "index.verb"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir, 1); err == nil || !strings.Contains(err.Error(), "index.verb") {
		t.Errorf("Load with a bad offset: err = %v", err)
	}
	// An index line announcing more synsets than it lists.
	if err := os.WriteFile(filepath.Join(dir, "index.verb"), []byte("buy v 3 0 3 0 00000000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir, 1); err == nil {
		t.Error("Load with a short index line did not fail")
	}
}
