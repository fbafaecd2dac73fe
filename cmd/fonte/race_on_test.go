//go:build race

package main

// raceEnabled: the test binary is built with -race, so re-executing it as
// the CLI (the crash trials' derived-stored chain) is several times slower.
const raceEnabled = true
