package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// An index run over a folder that holds no file, where the index holds
// documents read from a folder (an unmounted share, a mistyped path), is
// refused and changes nothing; removing every document is asked for by
// name, with fonte delete '**'.
func TestIndexRefusesAnEmptiedFolder(t *testing.T) {
	t.Parallel()
	docs := copyHandbook(t)
	idx := filepath.Join(t.TempDir(), "idx")
	mustOK(t, run{}, "index", docs, "--index", idx, "--json")
	before := decode[statusOut](t, mustOK(t, run{}, "status", "--index", idx, "--json"))
	if before.Documents == 0 {
		t.Fatal("the handbook indexed no document")
	}
	empty := t.TempDir()
	res := runFonte(t, "index", empty, "--index", idx)
	if res.code == 0 || !strings.Contains(res.stderr, empty) || !strings.Contains(res.stderr, "holds no file") || !strings.Contains(res.stderr, "fonte delete") {
		t.Fatalf("indexing an empty folder over a full index: %s; want a refusal naming the folder and how to remove the documents", res)
	}
	after := decode[statusOut](t, mustOK(t, run{}, "status", "--index", idx, "--json"))
	if after.Documents != before.Documents || after.Generation != before.Generation {
		t.Errorf("after the refusal: %d documents at generation %d, want %d at %d: nothing changed", after.Documents, after.Generation, before.Documents, before.Generation)
	}
	mustOK(t, run{}, "delete", "**", "--index", idx)
	if st := decode[statusOut](t, mustOK(t, run{}, "status", "--index", idx, "--json")); st.Documents != 0 {
		t.Errorf("fonte delete '**' left %d documents", st.Documents)
	}
	// An empty index over an empty folder is no loss: it runs.
	mustOK(t, run{}, "index", empty, "--index", idx)
}
