//go:build abstainsignals

package answer

import "github.com/fonte-rag/fonte"

// The abstention measurement (abstain_signals_test.go) reads Ask's
// inputs and the gates' decisions through these.

// ObserveAsk sets the function Ask calls with what it is given (nil
// removes it).
func ObserveAsk(f func(question string, hits []fonte.Hit, docs map[string]fonte.Document, cfg Config)) {
	observeAsk = f
}

// SetUngated makes Ask answer past the floor and the name and kind checks.
func SetUngated(on bool) { ungated = on }

// MissingName is missingName.
func MissingName(question string, hits []fonte.Hit, docs map[string]fonte.Document, c *Coverage) string {
	return missingName(question, hits, docs, c)
}

// HoldsAskedKind is holdsAskedKind.
func HoldsAskedKind(question string, hits []fonte.Hit, c *Coverage) bool {
	return holdsAskedKind(question, hits, c)
}

// CrossLanguage is crossLanguage.
func CrossLanguage(lang string, hits []fonte.Hit, docs map[string]fonte.Document, c *Coverage) string {
	return crossLanguage(lang, hits, docs, c)
}
