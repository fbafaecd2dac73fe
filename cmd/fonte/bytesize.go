package main

import (
	"errors"
	"strconv"
	"strings"
)

// byteUnits are the suffixes parseByteSize knows, longest first so that
// "MiB" is not read as "B".
var byteUnits = []struct {
	suffix string
	factor int64
}{
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30},
	{"KB", 1000}, {"MB", 1000 * 1000}, {"GB", 1000 * 1000 * 1000},
	{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"B", 1},
}

// parseByteSize reads a size such as 4096, 64KiB or 100MB (positive,
// whole).
func parseByteSize(s string) (int64, error) {
	num, factor := strings.TrimSpace(s), int64(1)
	for _, u := range byteUnits {
		if rest, ok := strings.CutSuffix(num, u.suffix); ok {
			num, factor = strings.TrimSpace(rest), u.factor
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 {
		return 0, errors.New("want a positive whole number of bytes, optionally with KiB, MiB or GiB")
	}
	if n > (1<<62)/factor {
		return 0, errors.New("too large")
	}
	return n * factor, nil
}
