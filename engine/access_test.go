package engine

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const pay = "# Pay\n\nThe director's salary is 123456 euros a year.\n"

// openWithAccess opens the index idx with folder rules.
func openWithAccess(t *testing.T, idx string, rules map[string][]string) *Engine {
	t.Helper()
	e, err := Open(context.Background(), Settings{IndexDir: idx, Access: rules}, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// tagsByID is each stored document's tags.
func tagsByID(t *testing.T, e *Engine) map[string][]string {
	t.Helper()
	docs, err := e.Store().Documents(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, d := range docs {
		out[d.ID] = d.Tags
	}
	return out
}

// TestFolderRulesLabelWhatTheyName: rules written "./hr/", "/fin/" or in
// another case than the folder ("secret/" for "Secret/") label the
// documents under them, on a folder run and on an upload; each was
// accepted and matched nothing, so those documents were public. Status
// counts the documents of each label.
func TestFolderRulesLabelWhatTheyName(t *testing.T) {
	ctx := context.Background()
	docs := t.TempDir()
	write(t, docs, "hr/pay.md", pay)
	write(t, docs, "fin/budget.md", "# Budget\n\nThe budget is approved in March.\n")
	write(t, docs, "Secret/plan.md", "# Plan\n\nThe plan is kept secret.\n")
	write(t, docs, "open.md", "# Open\n\nEveryone may read this page.\n")
	e := openWithAccess(t, filepath.Join(t.TempDir(), "index"), map[string][]string{"./hr/": {"hr"}, "/fin/": {"finance", " hr"}, "secret/": {"board"}})
	rep, err := e.Index(ctx, docs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Indexed) != 4 || len(rep.Refused) != 0 {
		t.Fatalf("report %+v", rep)
	}
	if _, err := e.Add(ctx, []Upload{{ID: "SECRET/minutes.md", Data: []byte("# Minutes\n\nThe board met on Monday.\n")}}, nil); err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"hr/pay.md":         {"access:hr"},
		"fin/budget.md":     {"access:finance", "access:hr"},
		"Secret/plan.md":    {"access:board"},
		"SECRET/minutes.md": {"access:board"},
		"open.md":           nil,
	}
	got := tagsByID(t, e)
	for id, tags := range want {
		if !slices.Equal(got[id], tags) {
			t.Errorf("%s: tags %q, want %q", id, got[id], tags)
		}
	}
	st, err := e.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if wantCounts := map[string]int{"hr": 2, "finance": 1, "board": 2}; len(st.Labels) != len(wantCounts) || st.Labels["hr"] != 2 || st.Labels["finance"] != 1 || st.Labels["board"] != 2 {
		t.Fatalf("label counts %v, want %v", st.Labels, wantCounts)
	}
}

// TestFolderRuleMatchingNothingFailsIndex: a rule that matches no file of
// the folder (written from another root, "docs/hr/") fails the run,
// naming the rule and the rule's tail that would match, and commits
// nothing; a rule without labels or with an empty one fails Open.
func TestFolderRuleMatchingNothingFailsIndex(t *testing.T) {
	ctx := context.Background()
	docs, idx := t.TempDir(), filepath.Join(t.TempDir(), "index")
	write(t, docs, "hr/pay.md", pay)
	first := openWithAccess(t, idx, map[string][]string{"hr/": {"hr"}})
	if _, err := first.Index(ctx, docs, nil); err != nil {
		t.Fatal(err)
	}
	first.Close()
	write(t, docs, "open.md", "# Open\n\nEveryone may read this page.\n")
	e := openWithAccess(t, idx, map[string][]string{"docs/hr/": {"hr"}})
	_, err := e.Index(ctx, docs, nil)
	var ruleErr *AccessRuleError
	if !errors.As(err, &ruleErr) || ruleErr.Rule != "docs/hr/" || !strings.Contains(err.Error(), `did you mean "hr/"`) {
		t.Fatalf("err %v; want the rule docs/hr/ named, with hr/ suggested", err)
	}
	if got := tagsByID(t, e); len(got) != 1 || !slices.Equal(got["hr/pay.md"], []string{"access:hr"}) {
		t.Fatalf("after the failed run the index holds %v; want the previous run's", got)
	}
	for _, rules := range []map[string][]string{{"hr/": {}}, {"hr/": nil}, {"hr/": {"hr", " "}}} {
		_, err := Open(ctx, Settings{IndexDir: filepath.Join(t.TempDir(), "index"), Access: rules}, OpenOptions{})
		if !errors.As(err, &ruleErr) || ruleErr.Rule != "hr/" {
			t.Fatalf("rules %q: err %v; want an AccessRuleError naming hr/", rules, err)
		}
	}
}

// TestLabelMistakesAreRefused: a file whose access labels cannot be read
// (front matter access [42], or unreadable front matter under a folder
// rule) is refused with the field named, never indexed public, while the
// folder's other files are indexed; an upload holding one is refused
// whole, before anything is committed.
func TestLabelMistakesAreRefused(t *testing.T) {
	ctx := context.Background()
	docs := t.TempDir()
	write(t, docs, "pay.md", "---\naccess: [42]\n---\n"+pay)
	write(t, docs, "hr/leave.md", "---\ntitle: [Leave\n---\n# Leave\n\nTwenty days of leave a year.\n")
	write(t, docs, "notes.md", "---\ntitle: [Notes\n---\n# Notes\n\nUnreadable front matter outside any rule is only a warning.\n")
	write(t, docs, "hr/open.md", "# Holidays\n\nThe office closes in August.\n")
	e := openWithAccess(t, filepath.Join(t.TempDir(), "index"), map[string][]string{"hr/": {"hr"}})
	rep, err := e.Index(ctx, docs, nil)
	if err != nil {
		t.Fatal(err)
	}
	fields := map[string]string{}
	for _, r := range rep.Refused {
		fields[r.Path] = r.Field
	}
	if len(rep.Refused) != 2 || fields["pay.md"] != "access" || fields["hr/leave.md"] != "front matter" {
		t.Fatalf("refused %+v; want pay.md (access) and hr/leave.md (front matter)", rep.Refused)
	}
	got := tagsByID(t, e)
	if _, ok := got["notes.md"]; !ok || len(got) != 2 || !slices.Equal(got["hr/open.md"], []string{"access:hr"}) {
		t.Fatalf("the index holds %v; want notes.md and hr/open.md (labelled hr)", got)
	}

	before := tagsByID(t, e)
	for _, bad := range []Upload{
		{ID: "salary.md", Data: []byte("---\naccess: true\n---\n" + pay)},
		{ID: "HR/salary.md", Data: []byte("---\naccess: [hr\n---\n" + pay)},
		{ID: "hr/salary.md", Data: []byte("---\ntitle: [Pay\n---\n" + pay)},
	} {
		rep, err := e.Add(ctx, []Upload{{ID: "fine.md", Data: []byte("# Fine\n\nA public page.\n")}, bad}, nil)
		var labelErr *LabelError
		if !errors.As(err, &labelErr) || len(labelErr.Refused) != 1 || labelErr.Refused[0].Path != bad.ID || labelErr.Refused[0].Field == "" {
			t.Fatalf("upload of %s: report %+v, err %v; want a LabelError naming it and its field", bad.ID, rep, err)
		}
		if !strings.Contains(err.Error(), bad.ID) {
			t.Fatalf("error %q does not name %s", err, bad.ID)
		}
	}
	if after := tagsByID(t, e); len(after) != len(before) {
		t.Fatalf("refused uploads changed the index: %v, was %v", after, before)
	}
}

// TestInheritedRulesNeedNotMatch: rules a server gives every collection
// label what they match, but a folder without a file under one still
// indexes (they are written for several folders); they are checked for
// labels as Access is.
func TestInheritedRulesNeedNotMatch(t *testing.T) {
	ctx := context.Background()
	docs := t.TempDir()
	write(t, docs, "Board/minutes.md", "# Minutes\n\nThe board met on Monday.\n")
	write(t, docs, "open.md", "# Open\n\nEveryone may read this page.\n")
	e, err := Open(ctx, Settings{IndexDir: filepath.Join(t.TempDir(), "index"), InheritedAccess: map[string][]string{"hr/": {"hr"}, "/board/": {"board"}}}, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, err := e.Index(ctx, docs, nil); err != nil {
		t.Fatalf("a shared rule matching no file of this folder failed the run: %v", err)
	}
	if got := tagsByID(t, e); !slices.Equal(got["Board/minutes.md"], []string{"access:board"}) || got["open.md"] != nil {
		t.Fatalf("tags %v", got)
	}
	if _, err := Open(ctx, Settings{IndexDir: filepath.Join(t.TempDir(), "index"), InheritedAccess: map[string][]string{"hr/": {}}}, OpenOptions{}); err == nil {
		t.Fatal("a shared rule without labels was accepted")
	}
}
