package answer

import (
	"slices"
	"testing"
)

// TestContentKeysAcronymPlural: an acronym's plural gives the acronym's
// keys alone in every chain, English and Italian, so "gli SLIs" and "lo
// SLI" share all their keys.
func TestContentKeysAcronymPlural(t *testing.T) {
	for _, c := range []struct{ plural, singular string }{
		{"Definire gli SLIs del servizio", "Definire lo SLI del servizio"},
		{"Publish the APIs", "Publish the API"},
	} {
		p, s := ContentKeys(c.plural), ContentKeys(c.singular)
		var extra []string
		for k := range p {
			if !s[k] {
				extra = append(extra, k)
			}
		}
		slices.Sort(extra)
		if len(extra) > 0 {
			t.Errorf("ContentKeys(%q) has %v, which %q lacks", c.plural, extra, c.singular)
		}
	}
}
