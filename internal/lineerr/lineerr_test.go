package lineerr

import (
	"errors"
	"io"
	"testing"
)

func TestError(t *testing.T) {
	e := &Error{File: "q.jsonl", Line: 3, Field: "gold[0].quote", Err: io.ErrUnexpectedEOF}
	if got := e.Error(); got != "q.jsonl:3: gold[0].quote: unexpected EOF" {
		t.Errorf("Error() = %q", got)
	}
	if got := (&Error{File: "q.jsonl", Line: 3, Err: io.ErrUnexpectedEOF}).Error(); got != "q.jsonl:3: unexpected EOF" {
		t.Errorf("without a field: %q", got)
	}
	if !errors.Is(e, io.ErrUnexpectedEOF) {
		t.Error("Unwrap does not reach the cause")
	}
}
