package judge

import "testing"

// TestCodeJoinedOtherwise pins that a code written with a space, a
// hyphen or nothing between its letters and its number, or with spaces
// around its slash, is the same code in both languages; that another
// number joined the same way, or a longer code that begins with it, is
// not the reference's; and that a form the reference itself writes is
// kept.
func TestCodeJoinedOtherwise(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"a space inside", "Which form do I file?", "Form RX204.", "Form RX 204.", Right},
		{"a hyphen inside", "Which form do I file?", "Form RX204.", "Form RX-204.", Right},
		{"another number spaced", "Which form do I file?", "Form RX204.", "Form RX 205.", Misleading},
		{"a hyphen for a space", "Quale cifratura si usa?", "AES 192 sui dischi.", "AES-192 sui dischi.", Right},
		{"a stray space at the slash", "How is a release branch named?", "release/versionTag.", "Name it release /versionTag, as the guide says.", Right},
		{"the reference's two forms", "Which licence?", "The OL 2.0 licence (OL-2.0).", "OL 2.0.", Right},
		{"a longer code kept apart", "Quale norma si applica?", "La norma XQ 700.", "La norma XQ-700-2.", Partial},
	})
}
