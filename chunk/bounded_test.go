package chunk

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// runOn is a paragraph of n words from vocab with no sentence end; every
// clauseEvery words (0: never) a word takes one of the clause marks.
func runOn(vocab []string, n, clauseEvery int, seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, 1))
	marks := []string{",", ";", ":", " —", " –"}
	var sb strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(vocab[rng.IntN(len(vocab))])
		if clauseEvery > 0 && i%clauseEvery == clauseEvery-1 && i < n-1 {
			sb.WriteString(marks[rng.IntN(len(marks))])
		}
	}
	return sb.String()
}

var (
	runOnEnglish = strings.Fields("the staff member requests leave from the manager and the office keeps a record of every request made during the year")
	runOnItalian = strings.Fields("il dipendente chiede le ferie al responsabile e l'ufficio conserva una traccia di ogni richiesta fatta durante l'anno")
)

// TestStructureBoundsRunOnParagraph: a 16,000-word paragraph without a
// sentence end, in English and Italian, with and without clause marks,
// becomes chunks of at most MaxWords whose text is their span and which
// together hold every word, cut at a clause mark whenever one is within
// reach. It was one chunk of some 100 KB.
func TestStructureBoundsRunOnParagraph(t *testing.T) {
	for _, lang := range []struct {
		name  string
		vocab []string
	}{{"en", runOnEnglish}, {"it", runOnItalian}} {
		for _, every := range []int{0, 11, 500} {
			t.Run(fmt.Sprintf("%s/clause-every-%d", lang.name, every), func(t *testing.T) {
				para := runOn(lang.vocab, 16000, every, uint64(every)+7)
				doc, blocks := build(h(1, "Title"), p(para), p("A closing sentence. Another one."))
				st := DefaultStructure()
				cs := st.Split(doc, blocks)
				checkSpans(t, doc, cs)
				start := blocks[1].Start
				covered := start // every byte of the paragraph before this is in a chunk or is white space
				for i, c := range cs {
					if n := wordCount(c.Text); n > st.MaxWords {
						t.Fatalf("chunk %d has %d words (%d bytes), over %d", i, n, len(c.Text), st.MaxWords)
					}
					if c.Start > covered && strings.TrimSpace(doc.Text[covered:c.Start]) != "" {
						t.Fatalf("words %q fall between chunks", doc.Text[covered:c.Start])
					}
					covered = max(covered, c.End)
					if every == 11 && c.End < blocks[1].End {
						last, _ := utf8.DecodeLastRuneInString(c.Text)
						if !strings.ContainsRune(clauseMarks, last) {
							t.Fatalf("chunk %d ends %q, not at a clause mark", i, c.Text[max(0, len(c.Text)-20):])
						}
					}
				}
				if covered < blocks[1].End {
					t.Fatalf("the paragraph's end %q is in no chunk", doc.Text[covered:blocks[1].End])
				}
				if len(cs) < 16000/st.MaxWords {
					t.Fatalf("%d chunks for 16,000 words", len(cs))
				}
			})
		}
	}
}

// TestBoundedSpansKeepsShortSentences: sentences within the size are
// left as SentenceSpans gives them.
func TestBoundedSpansKeepsShortSentences(t *testing.T) {
	text := "One short sentence, with a comma. Another: with a colon; and more."
	got, want := boundedSpans(text, 20), SentenceSpans(text)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	got = boundedSpans("alpha beta, gamma delta; epsilon — zeta", 2)
	var parts []string
	for _, sp := range got {
		parts = append(parts, "alpha beta, gamma delta; epsilon — zeta"[sp[0]:sp[1]])
	}
	if want := "alpha beta,|gamma delta;|epsilon —|zeta"; strings.Join(parts, "|") != want {
		t.Fatalf("got %q, want %q", strings.Join(parts, "|"), want)
	}
}
