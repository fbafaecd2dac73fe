package main

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used, garbage collection
// included. Beside wall-clock time it is the steadier measure on a shared
// machine: a run that waits for a core loses wall time, not CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// rssBytes is the process's resident set size (VmRSS), or 0 if unknown.
func rssBytes() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range bytes.Lines(b) {
		if rest, ok := bytes.CutPrefix(line, []byte("VmRSS:")); ok {
			f := bytes.Fields(rest)
			if len(f) == 0 {
				return 0
			}
			kb, _ := strconv.ParseInt(string(f[0]), 10, 64)
			return kb * 1024
		}
	}
	return 0
}
