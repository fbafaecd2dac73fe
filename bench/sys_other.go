//go:build !linux

package main

import "time"

var start = time.Now()

// cpuTime falls back to wall-clock time where getrusage is not used.
func cpuTime() time.Duration { return time.Since(start) }

// rssBytes is unknown outside Linux.
func rssBytes() int64 { return 0 }
