//go:build !race

package engine

// modelcheckRace: the test binary is built without -race (see
// modelcheck_race_test.go).
const modelcheckRace = false
