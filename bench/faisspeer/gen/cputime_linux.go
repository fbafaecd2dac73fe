package main

import (
	"syscall"
	"time"
)

// threadCPU returns the CPU time the calling thread has used
// (getrusage(RUSAGE_THREAD)).
func threadCPU() time.Duration {
	const rusageThread = 1 // RUSAGE_THREAD, Linux only
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
