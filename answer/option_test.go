package answer

import (
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

// The sentence that writes the option a question asks about is quoted
// over its neighbours, which share every other word with the question.
func TestOptionOfTheQuestionIsQuoted(t *testing.T) {
	for _, c := range [][3]string{
		{"In the tar command, what does the -a option do?",
			"In the tar command, the -c option creates an archive.\n\nIn the tar command, the -a option appends the files given to an existing archive.",
			"In the tar command, the -a option"},
		{"Nel comando tar, a cosa serve l'opzione -a?",
			"Nel comando tar, l'opzione -c crea un archivio.\n\nNel comando tar, l'opzione -a aggiunge i file indicati a un archivio esistente.",
			"Nel comando tar, l'opzione -a"},
	} {
		if got, _, _ := ExtractSpan(c[0], []fonte.Chunk{{ID: "a", Text: c[1]}}); !strings.HasPrefix(got, c[2]) {
			t.Errorf("%q: quoted %q, want %q…", c[0], got, c[2])
		}
	}
}

func TestOptionsOf(t *testing.T) {
	got := optionsOf(`Use git push --force-with-lease, not "-f"; e-mail and 5-10 are no options.`)
	if strings.Join(got, " ") != "--force-with-lease -f" {
		t.Errorf("optionsOf = %q, want --force-with-lease and -f", got)
	}
}
