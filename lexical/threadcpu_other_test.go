//go:build !linux

package lexical

import "time"

var processStart = time.Now()

// threadCPU falls back to wall time where the thread's CPU clock is not
// read.
func threadCPU() time.Duration { return time.Since(processStart) }

// processCPU falls back to wall time too.
func processCPU() time.Duration { return time.Since(processStart) }
