//go:build fontesynonyms

package answer

import (
	"os"
	"strconv"
)

// A build with the tag fontesynonyms turns the synonym study on
// (synonyms.go, lexical/wordnet/README.md): a question key is held
// at half its weight by a synonym among the first sense of either word;
// FONTE_SYNONYM_SHARE and FONTE_SYNONYM_SENSES change the two numbers in
// such a build only.
func init() {
	synonymShare = 0.5
	if v, err := strconv.ParseFloat(os.Getenv("FONTE_SYNONYM_SHARE"), 64); err == nil {
		synonymShare = v
	}
	if v, err := strconv.Atoi(os.Getenv("FONTE_SYNONYM_SENSES")); err == nil {
		synonymSenses = v
	}
}
