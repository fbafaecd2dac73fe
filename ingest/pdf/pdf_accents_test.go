package pdf

import "testing"

// TestJoinAccents: accents that TeX's OT1 fonts draw as separate glyphs
// are put back on their letters.
func TestJoinAccents(t *testing.T) {
	for in, want := range map[string]string{
		"pu`o":          "può",
		"cos`ı":         "così",
		"`E vero":       "È vero",
		"na¨ıve":        "naïve",
		"`ls -l` files": "`ls -l` files", // code keeps its backquotes
		"fran¸cais":     "français",
	} {
		if got := joinAccents(in); got != want {
			t.Errorf("joinAccents(%q) = %q, want %q", in, got, want)
		}
	}
}
