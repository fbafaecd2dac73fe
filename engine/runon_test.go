package engine

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// runOnParagraph is n words of filler with no sentence end and fact in
// the middle, as a transcript or a pasted export reads.
func runOnParagraph(filler []string, n int, fact string) string {
	words := make([]string, 0, n+len(fact))
	for i := 0; len(words) < n/2; i++ {
		words = append(words, filler[i%len(filler)])
	}
	words = append(words, strings.Fields(fact)...)
	for i := 0; len(words) < n; i++ {
		words = append(words, filler[(i*7)%len(filler)])
	}
	return strings.Join(words, " ")
}

// TestRunOnParagraphIsAnswered: a question about a fact in the middle of
// a 16,000-word paragraph without a sentence end is answered by the
// offline answerer, in English and Italian. The paragraph used to be one
// chunk of about 100 KB, which the answer budget dropped, so fonte said
// it did not know.
func TestRunOnParagraphIsAnswered(t *testing.T) {
	cases := []struct {
		lang, fact, question, want string
		filler                     []string
	}{
		{"en", "the replacement of a lost badge costs 35 euros and takes two days", "How much does the replacement of a lost badge cost?", "35 euros",
			strings.Fields("the committee discussed the weather the garden the parking spaces the canteen menu and the colour of the walls")},
		{"it", "la sostituzione di un badge smarrito costa 35 euro e richiede due giorni", "Quanto costa la sostituzione di un badge smarrito?", "35 euro",
			strings.Fields("il comitato ha discusso del tempo del giardino dei parcheggi del menu della mensa e del colore delle pareti")},
	}
	for _, c := range cases {
		t.Run(c.lang, func(t *testing.T) {
			ctx := context.Background()
			docs := t.TempDir()
			body := runOnParagraph(c.filler, 16000, c.fact)
			write(t, docs, "verbale.md", fmt.Sprintf("---\nlang: %s\n---\n# Verbale\n\n%s\n", c.lang, body))
			e := open(t, filepath.Join(t.TempDir(), "index"))
			rep, err := e.Index(ctx, docs, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Indexed) != 1 || rep.Chunks < 16000/e.settings.ChunkSize {
				t.Fatalf("indexed %v into %d chunks; want the paragraph cut to the chunk size", rep.Indexed, rep.Chunks)
			}
			a, err := e.Ask(ctx, c.question, AskOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if a.Abstained || !strings.Contains(a.Text, c.want) || len(a.Citations) == 0 {
				t.Fatalf("answer %q (abstained %v), want it to state %q", a.Text, a.Abstained, c.want)
			}
		})
	}
}
