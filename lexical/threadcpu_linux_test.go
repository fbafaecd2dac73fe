package lexical

import (
	"syscall"
	"time"
	"unsafe"
)

// threadCPU is the CPU time the calling thread has used (Linux's
// CLOCK_THREAD_CPUTIME_ID): on a shared machine a query's CPU time
// leaves out the time the scheduler gave other processes, which its wall
// time includes. The caller locks its goroutine to the thread.
func threadCPU() time.Duration {
	const clockThreadCPUTime = 3
	var ts syscall.Timespec
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0)
	return time.Duration(ts.Nano())
}

// processCPU is the CPU time all the process's threads have used
// (CLOCK_PROCESS_CPUTIME_ID): a split query's own and its helper's.
func processCPU() time.Duration {
	const clockProcessCPUTime = 2
	var ts syscall.Timespec
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockProcessCPUTime, uintptr(unsafe.Pointer(&ts)), 0)
	return time.Duration(ts.Nano())
}
