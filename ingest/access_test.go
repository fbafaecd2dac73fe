package ingest

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestFrontMatterAccessMistakesAreRefused: an access value that is not a
// list of non-empty label strings, or front matter that sets access but
// cannot be read, refuses the file naming the field; it was indexed with
// no label, that is public.
func TestFrontMatterAccessMistakesAreRefused(t *testing.T) {
	cases := []struct{ name, front, field, detail string }{
		{"number", "access: [42]", "access", "item 1 is the number 42"},
		{"year", "access: [hr, 2024]", "access", "item 2 is the number 2024"},
		{"boolean", "access: true", "access", "the boolean true"},
		{"empty label", `access: [""]`, "access", "is empty"},
		{"empty string", `access: ""`, "access", "is empty"},
		{"empty label in string", `access: "hr, "`, "access", "label 2"},
		{"empty list", "access: []", "access", "empty list"},
		{"no value", "access:", "access", "access is empty"},
		{"map", "access: {hr: true}", "access", "a map"},
		{"nested list", "access: [[hr]]", "access", "item 1 is a list"},
		{"malformed yaml", "title: Pay\naccess: [hr", "front matter", "cannot be read"},
		{"malformed quoted key", "\"Access\": [hr\ntitle: x", "front matter", "cannot be read"},
		{"twice in two cases", "Access: [hr]\naccess: [finance]", "front matter", "twice"},
		{"toml number", "+++\naccess = [7]\n+++", "access", "item 1 is the number 7"},
		{"malformed toml", "+++\naccess = [\"hr\"\n+++", "front matter", "cannot be read"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			front := c.front
			if !strings.HasPrefix(front, "+++") {
				front = "---\n" + front + "\n---"
			}
			src := front + "\n# Salaries\n\nThe salary of the director is 123456 euros a year.\n"
			p, err := ParseMarkdown("hr/pay.md", []byte(src))
			var r *Refusal
			if !errors.As(err, &r) {
				t.Fatalf("parsed with tags %v (err %v); want a refusal", tagsOf(p), err)
			}
			if r.Reason != ReasonAccess || r.Field != c.field || r.Path != "hr/pay.md" || !strings.Contains(r.Error(), c.detail) {
				t.Fatalf("refusal %q (reason %q, field %q); want reason access, field %q, naming %q", r.Error(), r.Reason, r.Field, c.field, c.detail)
			}
		})
	}
}

// TestFrontMatterAccessForms: the accepted forms give the same tags;
// malformed front matter that does not mention access is still read as
// before (a warning), and says why in FrontMatterErr so the engine can
// refuse it under a folder rule.
func TestFrontMatterAccessForms(t *testing.T) {
	for _, front := range []string{"access: [hr, finance]", "access: \"hr, finance\"", "Access:\n  - hr\n  - finance\n  - hr", "+++\naccess = [\"hr\", \"finance\"]\n+++"} {
		if !strings.HasPrefix(front, "+++") {
			front = "---\n" + front + "\n---"
		}
		p, err := ParseMarkdown("pay.md", []byte(front+"\n# Pay\n\nText of the page.\n"))
		if err != nil {
			t.Fatalf("%q: %v", front, err)
		}
		if got := tagsOf(p); !slices.Equal(got, []string{"access:hr", "access:finance"}) {
			t.Fatalf("%q: tags %v", front, got)
		}
		if p.FrontMatterErr != nil {
			t.Fatalf("%q: %v", front, p.FrontMatterErr)
		}
	}
	p, err := ParseMarkdown("notes.md", []byte("---\ntitle: [Notes\n---\n# Notes\n\nSome text.\n"))
	if err != nil {
		t.Fatal(err)
	}
	if p.FrontMatterErr == nil || len(p.Warnings) == 0 || len(tagsOf(p)) != 0 {
		t.Fatalf("malformed front matter without access: err %v, warnings %v, tags %v", p.FrontMatterErr, p.Warnings, tagsOf(p))
	}
}

func tagsOf(p *Parsed) []string {
	if p == nil {
		return nil
	}
	return p.Doc.Tags
}
