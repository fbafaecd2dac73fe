package evalsets

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestAllAsScriptsEvalSets: the list is scripts/eval-sets's, set for set
// and in order, and every folder and file it names exists.
func TestAllAsScriptsEvalSets(t *testing.T) {
	root := filepath.Join("..", "..")
	script, err := os.ReadFile(filepath.Join(root, "scripts", "eval-sets"))
	if err != nil {
		t.Fatal(err)
	}
	var fromScript []Set
	for _, m := range regexp.MustCompile(`(?m)^\s+"(\S+) (\S+) (\S+)"$`).FindAllStringSubmatch(string(script), -1) {
		fromScript = append(fromScript, Set{m[1], m[2], m[3]})
	}
	if len(fromScript) != len(All) {
		t.Fatalf("scripts/eval-sets lists %d sets, All %d", len(fromScript), len(All))
	}
	for i, s := range All {
		if fromScript[i] != s {
			t.Errorf("set %d: All has %+v, scripts/eval-sets %+v", i, s, fromScript[i])
		}
		for _, p := range []string{s.Docs, s.Questions} {
			if _, err := os.Stat(filepath.Join(root, p)); err != nil {
				t.Errorf("%s: %v", s.Name, err)
			}
		}
	}
}
