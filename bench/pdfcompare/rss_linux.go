//go:build linux

package main

import (
	"os"
	"strconv"
	"strings"
)

// resetPeakRSS resets the kernel's peak resident set (VmHWM) to the
// current one, so peakRSSMB reports the peak of what follows.
func resetPeakRSS() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

func rssMB() float64     { return statusMB("VmRSS:") }
func peakRSSMB() float64 { return statusMB("VmHWM:") }

// statusMB reads a kB field of /proc/self/status in MB.
func statusMB(field string) float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, field); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}
