package answer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

// TestSynonymStudy checks the study's hook in ExtractSpan (synonyms.go): off, as
// it is by default, a sentence that says "gather" does not hold the
// question's "collect" and its shorter neighbour with the question's
// other words is quoted; on, with a WordNet database in which the two
// verbs share a synset, "gather" holds half of "collect" and its sentence
// is quoted. An Italian question is never touched.
func TestSynonymStudy(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"data.verb":  "00000000 35 v 02 gather 0 collect 0 000 | assemble\n",
		"index.verb": "collect v 1 0 1 0 00000000  \ngather v 1 0 1 0 00000000  \n",
	}
	for _, p := range []string{"noun", "adj", "adv"} {
		files["data."+p], files["index."+p] = "", ""
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	oldShare, oldDir := synonymShare, synonymDir
	t.Cleanup(func() { synonymShare, synonymDir = oldShare, oldDir })
	synonymDir = dir

	chunks := []fonte.Chunk{{ID: "c1", Text: "The feedback forms are kept in the drive. Volunteers gather the feedback forms from each stand on Friday."}}
	q := "Who should collect the feedback forms?"
	synonymShare = 0
	if got, _, _ := ExtractSpan(q, chunks); !strings.Contains(got, "kept in the drive") {
		t.Fatalf("off: ExtractSpan = %q, want the sentence without the synonym", got)
	}
	synonymShare = 0.5
	if got, _, _ := ExtractSpan(q, chunks); !strings.Contains(got, "Volunteers gather") {
		t.Errorf("on: ExtractSpan = %q, want the sentence that says gather", got)
	}
	if syn := synonymsOf("Chi deve raccogliere i moduli?", ContentKeys("Chi deve raccogliere i moduli?")); syn != nil {
		t.Errorf("on: an Italian question has synonyms %v", syn)
	}
}
