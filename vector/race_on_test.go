//go:build race

package vector

// raceEnabled lets tests that need no full size run smaller under -race,
// which slows the inner-product loops about twentyfold; the numeric tests
// that do are in numeric_norace_test.go, built without it.
const raceEnabled = true
