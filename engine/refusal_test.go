package engine

import (
	"io/fs"
	"syscall"
	"testing"

	"github.com/fonte-rag/fonte/ingest"
)

// TestRefusalReasonSaysWhyAFileCannotBeRead: a file the walk cannot open
// or read (permissions, a folder it may not list) is refused with the
// system's reason, not "unreadable: " and nothing after it; the path is
// left out since the refusal's line names the file already.
func TestRefusalReasonSaysWhyAFileCannotBeRead(t *testing.T) {
	for _, c := range []struct {
		r    ingest.Refusal
		want string
	}{
		{ingest.Refusal{Path: "/docs/leave.md", Reason: ingest.ReasonUnreadable,
			Err: &fs.PathError{Op: "open", Path: "/docs/leave.md", Err: syscall.EACCES}}, "unreadable: permission denied"},
		{ingest.Refusal{Path: "/docs/hr", Reason: ingest.ReasonUnreadable,
			Err: &fs.PathError{Op: "open", Path: "/docs/hr", Err: syscall.EIO}}, "unreadable: input/output error"},
		{ingest.Refusal{Path: "/docs/a.pdf", Reason: ingest.ReasonUnreadable, Detail: "broken PDF"}, "unreadable: broken PDF"},
		{ingest.Refusal{Path: "/docs/b.md", Reason: ingest.ReasonEmpty}, "empty"},
	} {
		if got := refusalReason(&c.r); got != c.want {
			t.Errorf("%s: %q, want %q", c.r.Path, got, c.want)
		}
	}
}
