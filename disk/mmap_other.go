//go:build !unix

package disk

import (
	"errors"
	"os"
)

// mapReadOnly is unavailable here (Windows would also refuse to delete a
// mapped file, which retention and Purge do): segments are read into
// memory instead.
func mapReadOnly(*os.File, int) ([]byte, error) { return nil, errors.ErrUnsupported }

func unmap([]byte) error { return nil }

// mmapSupported tells whether files are mapped (else read into memory).
const mmapSupported = false

func mapAnon(int) ([]byte, error) { return nil, errors.ErrUnsupported }
