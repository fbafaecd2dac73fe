package judge

import "testing"

// TestCommonWordsByTheirCognates pins that an answer in the other
// language keeps the reference's words it writes by a cognate
// ("direct" for "dirette", "autore" for author) in both directions,
// and that a word of the same language or one without a cognate does
// not count.
func TestCommonWordsByTheirCognates(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"english answer, italian reason", "Nel preventivo vanno messe le spese del personale?", "Sì, sono spese dirette.", "Yes, they are direct.", Right},
		{"italian answer, english reference", "Who signs the report, the author or the editor?", "The author.", "L'autore del rapporto.", Right},
		{"a bare yes, the same language", "Nel preventivo vanno messe le spese del personale?", "Sì, sono spese dirette.", "Sì.", Partial},
		{"no cognate", "Who signs the report, the author or the editor?", "The author.", "Chi lo ha scritto.", Wrong},
	})
}

// TestCognateWords pins the spellings cognateWords makes alike and the
// pairs it keeps apart.
func TestCognateWords(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"direct", "diretti", true}, {"phase", "fase", false}, {"system", "sistema", true}, {"expert", "esperto", true},
		{"original", "originale", true}, {"internal", "internazionale", false}, {"direct", "indiretti", false},
	} {
		if got := cognateWords(c.a, c.b); got != c.want {
			t.Errorf("cognateWords(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
