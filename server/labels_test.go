package server_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUploadWithUnreadableLabelsIs422: an upload holding a file whose
// front matter access is not a list of label strings is refused whole
// with a 422 problem naming the file and the field; it was indexed as a
// public document that a token without labels could search.
func TestUploadWithUnreadableLabelsIs422(t *testing.T) {
	ts := start(t, config{})
	for _, front := range []string{"access: [42]", "access: true", `access: [""]`, "access: [hr"} {
		status, raw := ts.upload(t, "/v1/documents", adminToken, map[string]string{
			"salaries.md": "---\n" + front + "\n---\n# Salaries\n\nThe director earns 987654 euros a year.\n",
			"public.md":   "# Public\n\nThe canteen opens at noon.\n",
		})
		p := problemOf(t, raw)
		if status != http.StatusUnprocessableEntity || !strings.HasSuffix(p.Type, "#access-labels") || p.Field != "file" ||
			!strings.Contains(p.Detail, "salaries.md") || !(strings.Contains(p.Detail, "(access)") || strings.Contains(p.Detail, "(front matter)")) {
			t.Fatalf("%s: %d %s; want 422 access-labels naming salaries.md and its field", front, status, raw)
		}
		if _, body := ts.searchText(t, "/v1/search", readToken, "director earns euros canteen noon"); strings.Contains(body, `"doc":"salaries.md"`) || strings.Contains(body, `"doc":"public.md"`) {
			t.Fatalf("%s: the refused upload was indexed: %s", front, body)
		}
	}
}

// TestStatusListsLabelsToAdminsOnly: an admin's status counts the
// documents of each access label (under `labels`, kept apart from the
// rest); a read token's status has no such field.
func TestStatusListsLabelsToAdminsOnly(t *testing.T) {
	ts := start(t, config{access: map[string][]string{"People/": {"hr"}}})
	labels := func(token string) (map[string]int, bool) {
		status, raw, _ := ts.call(t, "GET", "/v1/status", token, nil)
		if status != http.StatusOK {
			t.Fatalf("status %d: %s", status, raw)
		}
		var body map[string]json.RawMessage
		if err := json.Unmarshal(raw, &body); err != nil {
			t.Fatal(err)
		}
		var counts map[string]int
		field, ok := body["labels"]
		if ok {
			if err := json.Unmarshal(field, &counts); err != nil {
				t.Fatal(err)
			}
		}
		return counts, ok
	}
	if counts, _ := labels(adminToken); len(counts) != 1 || counts["hr"] != 4 {
		t.Fatalf("admin sees labels %v; want hr on the 4 documents under people/", counts)
	}
	if counts, ok := labels(readToken); ok {
		t.Fatalf("a read token sees labels %v", counts)
	}
}

// TestIndexWithRuleMatchingNothingIs422: re-indexing a folder where a
// folder access rule matches no file answers 422 naming the rule, and
// keeps the index as it was.
func TestIndexWithRuleMatchingNothingIs422(t *testing.T) {
	folder := t.TempDir()
	if err := os.WriteFile(filepath.Join(folder, "open.md"), []byte("# Open\n\nThe canteen opens at noon.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ts := start(t, config{access: map[string][]string{"people/": {"hr"}}, folder: folder})
	status, raw, _ := ts.call(t, "POST", "/v1/index", adminToken, nil)
	p := problemOf(t, raw)
	if status != http.StatusUnprocessableEntity || !strings.HasSuffix(p.Type, "#access-rule") || p.Field != "access" || !strings.Contains(p.Detail, `"people/"`) {
		t.Fatalf("%d %s; want 422 access-rule naming people/", status, raw)
	}
	if _, body := ts.searchText(t, "/v1/search", adminToken, "canteen noon"); strings.Contains(body, "open.md") {
		t.Fatalf("the failed run indexed open.md: %s", body)
	}
}
