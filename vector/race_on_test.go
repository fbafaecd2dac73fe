//go:build race

package vector

// raceEnabled lets the slowest numeric tests step aside under -race, which
// slows the inner-product loops about twentyfold; the concurrency tests
// are the ones -race is for.
const raceEnabled = true
