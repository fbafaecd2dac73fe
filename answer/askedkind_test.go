package answer

import (
	"context"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

// TestAskAbstainsWithoutTheAskedKind: passages about the question's
// subject that state no figure of the kind it asks for do not answer
// it, in English and Italian; a passage that states one does, and a
// question that asks for no figure is answered from the same passages.
func TestAskAbstainsWithoutTheAskedKind(t *testing.T) {
	backups := []string{
		"Backups are encrypted and versioned. Only the platform team can delete a backup from the offline account.",
		"Restore a backup to a separate database before you check it.",
	}
	chiavi := []string{
		"La chiave del magazzino è custodita in portineria. Chi perde una chiave lo segnala al responsabile della sede.",
	}
	for _, tc := range []struct {
		question, lang string
		texts          []string
		abstains       bool
	}{
		{"How long do we have to keep backups before we can delete them?", "en", backups, true},
		{"How often should backups be restored to check them?", "en", backups, true},
		{"What's the session timeout for the backup account?", "en", backups, true},
		{"What share of the backups must be encrypted?", "en", backups, true},
		{"Who can delete a backup?", "en", backups, false},
		{"How long do we have to keep backups before we can delete them?", "en",
			append([]string{"Keep backups for 90 days, then delete them from the offline account."}, backups...), false},
		{"Per quanto tempo bisogna tenere la chiave del magazzino?", "it", chiavi, true},
		{"Chi custodisce la chiave del magazzino?", "it", chiavi, false},
		{"Per quanto tempo bisogna tenere la chiave del magazzino?", "it",
			append([]string{"La chiave del magazzino va tenuta per 2 giorni al massimo."}, chiavi...), false},
	} {
		var hits []fonte.Hit
		for i, text := range tc.texts {
			hits = append(hits, fonte.Hit{Chunk: fonte.Chunk{ID: string(rune('a' + i)), DocID: "d", Text: text}, Score: 1, Relevance: 0.9})
		}
		tr := &Trace{}
		a, err := Ask(context.Background(), tc.question, hits, nil, Config{Floor: 0.25, Lang: tc.lang, Trace: tr})
		if err != nil {
			t.Fatal(err)
		}
		if a.Abstained != tc.abstains {
			t.Errorf("%q: abstained %v, want %v (answer %q)", tc.question, a.Abstained, tc.abstains, a.Text)
		}
		if tc.abstains && !strings.Contains(tr.AbstainReason, "asks for a figure") {
			t.Errorf("%q: the trace says %q", tc.question, tr.AbstainReason)
		}
		if tc.abstains && a.Text != MessagesFor(tc.lang).DontKnow {
			t.Errorf("%q: %q is not the abstention in %s", tc.question, a.Text, tc.lang)
		}
	}
}
