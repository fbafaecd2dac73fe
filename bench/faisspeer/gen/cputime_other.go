//go:build !linux

package main

import "time"

var start = time.Now()

// threadCPU falls back to wall-clock time where RUSAGE_THREAD is missing.
func threadCPU() time.Duration { return time.Since(start) }
