package answer

import (
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

// The stemmer cuts "chiavi" to "chi" and "chiave" to "chiav"; the two
// numbers of the noun must still share a key.
func TestContentKeysMeetBothNumbersOfAnOverStemmedNoun(t *testing.T) {
	plural, singular := ContentKeys("chiavi"), ContentKeys("chiave")
	if !hasAny(plural, singular) {
		t.Fatalf("chiavi %v and chiave %v share no key", plural, singular)
	}
	// A word the stemmer leaves whole gets no second key.
	if got := inflectionKeys([]string{"complessivo", "soluzione", "casa"}); len(got) != 0 {
		t.Fatalf("inflectionKeys = %v, want none", got)
	}
}

// The sentence on the lost key shares "chiave" with the question's
// "chiavi": it is quoted (before, it shared no key and nothing was).
func TestExtractSpanQuotesTheSingularOfAPluralQuestionWord(t *testing.T) {
	chunks := []fonte.Chunk{
		{ID: "bici", Headings: []string{"Parcheggio e biciclette"}, Text: "Le biciclette si lasciano nella rastrelliera del cortile; non è permesso portarle negli uffici."},
		{ID: "regole", Headings: []string{"Regole"}, Text: "Lo smarrimento di una chiave va comunicato ai Servizi generali entro 24 ore."},
	}
	got, n, _ := ExtractSpan("Cosa devo fare se perdo le chiavi?", chunks)
	if n != 2 || !strings.Contains(got, "smarrimento di una chiave") {
		t.Fatalf("ExtractSpan = %q from chunk %d, want the lost-key sentence of chunk 2", got, n)
	}
}
