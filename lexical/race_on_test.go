//go:build race

package lexical

// raceEnabled lets the slowest one-goroutine comparisons step aside under
// -race, which slows scoring about tenfold and finds nothing in a test
// with one goroutine; scripts/test runs them again without -race, and the
// *Concurrent tests are the ones -race is for.
const raceEnabled = true
