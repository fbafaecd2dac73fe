package engine

import (
	"context"
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

// TestNoTextToChunkSaysTheOldVersionIsKept: a document whose new version
// has nothing to chunk (a heading alone) keeps its last indexed version,
// as every refused file does, and the refusal says so: answers go on
// citing the old text, and the operator must know why.
func TestNoTextToChunkSaysTheOldVersionIsKept(t *testing.T) {
	ctx := context.Background()
	docs := t.TempDir()
	write(t, docs, "otter.md", "# Otter\n\nThe otterlake office opens at 8.\n")
	e, err := Open(ctx, Settings{Store: t.TempDir()}, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, err := e.Index(ctx, docs, nil); err != nil {
		t.Fatal(err)
	}
	write(t, docs, "otter.md", "# Otter\n")
	rep, err := e.Index(ctx, docs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Refused) != 1 || rep.Refused[0].Reason != "empty: no text to chunk (the previously indexed version is kept)" {
		t.Errorf("refused %+v", rep.Refused)
	}
	if st, err := e.Status(ctx); err != nil || st.Documents != 1 {
		t.Errorf("status %+v, %v: want the old version kept", st, err)
	}
}
