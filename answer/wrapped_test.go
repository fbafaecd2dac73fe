package answer

import (
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/chunk"
)

// A sentence that a hard wrap breaks over two lines is quoted whole, not
// up to the line's end.
func TestExtractSpanWrappedSentence(t *testing.T) {
	c := fonte.Chunk{ID: "c", Text: "Il registro dei fornitori accreditati, istituito nel 2009 con la delibera numero 14 della Giunta\n" +
		"della Camera di Commercio, non basta più da solo. Altre delibere sono seguite."}
	got, _, _ := ExtractSpan("Quando è stato istituito il registro dei fornitori accreditati?", []fonte.Chunk{c})
	if !strings.Contains(got, "della Camera di Commercio, non basta più da solo.") {
		t.Errorf("ExtractSpan = %q, want the whole wrapped sentence", got)
	}
}

func TestJoinWrapped(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       int // sentences after joining
	}{
		{"prose wrapped mid-sentence", "La strategia suggerisce quindi un percorso che passa per le basi\ndi dati di interesse nazionale e le rende aperte.", 1},
		{"a bracket goes on", "Si applica alle società inserite nel conto economico consolidato\n(come individuate dall'ISTAT).", 1},
		{"a sentence ends the line", "Le linee guida sono approvate con atti amministrativi della giunta.\nla riga dopo inizia in minuscolo.", 2},
		{"a short line is a label", "Livello 3\nformato non proprietario e leggibile da un programma.", 2},
		{"commands are not prose", "dpkg-buildpackage -us -uc --build=binary --no-sign -j4\nlintian ../foo_1.0_amd64.changes", 2},
		{"a command goes on no line", "Per installare il pacchetto eseguite sempre il comando seguente\napt-get install foo", 2},
		{"a table row is no prose", "| Responsabile OD | Responsabile BD | Referente tecnico BD |\nil gruppo comunicazione è informato", 2},
		{"a list item starts a new line", "Prima di pubblicare i dati assicurati di aver completato le azioni\n- verifica la licenza e i metadati", 2},
	} {
		got := joinWrapped(c.text, chunk.SentenceSpans(c.text))
		if len(got) != c.want {
			var s []string
			for _, sp := range got {
				s = append(s, c.text[sp[0]:sp[1]])
			}
			t.Errorf("%s: joinWrapped = %q, want %d sentences", c.name, s, c.want)
		}
	}
}
