package engine

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// DefaultMemory is the memory budget of indexing when Settings.Memory is
// zero: a quarter of the machine's physical memory (read from
// /proc/meminfo; 4 GiB where it cannot be read), at least 512 MiB. A
// quarter leaves room for the page cache the memory-mapped index is read
// through, and for the other programs of a laptop.
func DefaultMemory() int64 {
	total := physicalMemory()
	if total <= 0 {
		return 4 << 30
	}
	return max(total/4, 512<<20)
}

// physicalMemory is MemTotal of /proc/meminfo in bytes, or 0.
func physicalMemory() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:")
		if !ok {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		if err != nil {
			return 0
		}
		return kb << 10
	}
	return 0
}

// txMemory is the part of the budget a store transaction may hold before
// it writes documents out, and the postings the lexical build holds
// before it spills a sorted run: a thirty-second each. What they hold is
// live data, which the garbage collector lets grow to about twice its
// size between collections, and the graph (which grows with the corpus)
// and the page cache the mapped files are read through need the rest;
// a smaller share costs only more, smaller files written along the way.
func txMemory(budget int64) int64 {
	if budget <= 0 {
		budget = DefaultMemory()
	}
	return budget / 32
}

// ParseBytes reads a size such as "6GiB", "512MiB", "2G", "800M" or a
// plain number of bytes. Units are binary (K, M, G, T with or without
// "iB" or "B" are powers of 1,024).
func ParseBytes(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "IB"), "B")
	shift := 0
	if n := len(t); n > 0 {
		switch t[n-1] {
		case 'K':
			shift = 10
		case 'M':
			shift = 20
		case 'G':
			shift = 30
		case 'T':
			shift = 40
		}
		if shift > 0 {
			t = strings.TrimSpace(t[:n-1])
		}
	}
	x, err := strconv.ParseFloat(t, 64)
	if err != nil || !(x > 0) || x*float64(int64(1)<<shift) >= 1<<62 {
		return 0, fmt.Errorf("size %q: want a positive number of bytes with an optional unit (K, M, G, T; e.g. 6GiB, 512MiB)", s)
	}
	return int64(x * float64(int64(1)<<shift)), nil
}
