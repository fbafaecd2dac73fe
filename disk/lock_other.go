//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package disk

import "os"

// Without flock in the standard library, writers are excluded only within
// one process (by Store's own semaphore); see the package documentation.
func tryLock(*os.File) (bool, error) { return true, nil }

func unlockFile(*os.File) error { return nil }

// syncDir is a no-op where directories cannot be opened and fsynced.
func syncDir(string) error { return nil }
