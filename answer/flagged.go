package answer

import (
	"slices"
	"strings"

	"github.com/fonte-rag/fonte"
)

// citedOnlyInFlagged returns, sorted, the content words of a's text
// that are not the question's and that the sources it cites hold only in
// their flagged sentences, titles or headings: an answer that takes
// them follows the flagged text of the passage it cites, whatever other
// sources say.
func citedOnlyInFlagged(a *fonte.Answer, chunks []fonte.Chunk) []string {
	clean, flagged := map[string]bool{}, map[string]bool{}
	for _, n := range Citations(a.Text) {
		if n < 1 || n > len(chunks) {
			continue
		}
		c := chunks[n-1]
		for k := range ContentKeys(cleanText(c)) {
			clean[k] = true
		}
		for k := range ContentKeys(strings.Join(FlaggedSentences([]fonte.Chunk{c}), " ")) {
			flagged[k] = true
		}
	}
	asked := ContentKeys(a.Question)
	var out []string
	for k := range ContentKeys(stripCitations(a.Text)) {
		if flagged[k] && !clean[k] && !asked[k] {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// cleanText returns what of a chunk guard does not flag: its title and
// headings unless flagged, and its text with flagged sentences blanked.
func cleanText(c fonte.Chunk) string {
	w := WithholdFlaggedLabels(c)
	return w.Title + " " + strings.Join(w.Headings, " ") + " " + maskFlagged(c.Text)
}
