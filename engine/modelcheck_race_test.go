//go:build race

package engine

// modelcheckRace: the test binary is built with -race, several times
// slower; TestModelChecks then measures the example handbook only unless
// given sets (see modelcheckSetsUnderRace).
const modelcheckRace = true
