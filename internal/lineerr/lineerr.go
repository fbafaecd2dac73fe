// Package lineerr holds the error of a line-oriented data file (a JSONL
// question set, a file of hand labels): the file, the line and the field
// at fault, so that a user can find and fix the line.
package lineerr

import "fmt"

// Error reports a problem on one line of a data file, naming the field at
// fault when there is one.
type Error struct {
	File  string
	Line  int    // 1-based
	Field string // e.g. "gold[1].quote"; "" when the line as a whole is at fault
	Err   error
}

// Error prints "file:line: field: problem".
func (e *Error) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
	}
	return fmt.Sprintf("%s:%d: %s: %v", e.File, e.Line, e.Field, e.Err)
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }
