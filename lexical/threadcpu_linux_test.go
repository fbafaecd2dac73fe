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
