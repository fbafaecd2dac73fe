package ingest

import (
	"strings"
	"testing"
)

// TestMarkdownERB: ERB statements and comments go, and a block that
// content_for captures for the layout with them; an output tag whose
// arguments are string literals reads as those words, any other output
// tag goes, and code keeps its tags.
func TestMarkdownERB(t *testing.T) {
	src := strings.Join([]string{
		"---",
		"title: Storing credentials",
		"---",
		"",
		"<% content_for :sidebar do %>",
		"    <ul>",
		"      <li><% if x %>Sidebar link<% end %></li>",
		"    </ul>",
		"    <% end %>",
		"",
		"<%= partial 'partials/site-banner' %>",
		"",
		"# <%= current_page.data.title %>",
		"",
		"<% if team? %>",
		"Shared accounts",
		"<% end %>",
		"",
		`<%= warning_text('Never commit a token, even one \'for a test\'') %>`,
		"",
		`<%- if team? -%>Rotate keys <%= t "every", 'three months' %>.<%# why: audit %>`,
		"",
		"The year is <%= Time.current.year %> in the footer and <%== \"ok #{x}\" %> here.",
		"",
		"Write `<%= render 'x' %>` in a view:",
		"",
		"    <% if admin? %>",
		"    <%= link_to \"Admin\", admin_path %>",
		"",
		"A literal <%% sign, and an unclosed <% tag stays.",
	}, "\n")
	p := parseString(t, "creds.html.md", src)
	want := []string{
		"heading: Storing credentials",
		"paragraph: Shared accounts",
		"paragraph: Never commit a token, even one 'for a test'",
		"paragraph: Rotate keys every three months.",
		"paragraph: The year is in the footer and here.",
		"paragraph: Write <%= render 'x' %> in a view:",
		"code: <% if admin? %>\n<%= link_to \"Admin\", admin_path %>",
		"paragraph: A literal <% sign, and an unclosed <% tag stays.",
	}
	if got := kindTexts(p); got != strings.Join(want, "\n|\n") {
		t.Errorf("blocks:\n%s\nwant:\n%s", got, strings.Join(want, "\n|\n"))
	}
}

// TestERBLiterals: which output tags print their literals.
func TestERBLiterals(t *testing.T) {
	for _, c := range []struct {
		expr string
		want []string
		ok   bool
	}{
		{`warning_text('Do not')`, []string{"Do not"}, true},
		{`"plain"`, []string{"plain"}, true},
		{`t 'a', "b"`, []string{"a", "b"}, true},
		{`link_to 'Home', root_path`, nil, false},
		{`warning_text('x', class: 'y')`, nil, false},
		{`"#{name} here"`, nil, false},
		{`current_page.data.title`, nil, false},
		{`warning_text('unclosed)`, nil, false},
		{`f('a',)`, nil, false},
		{``, nil, false},
	} {
		got, ok := erbLiterals(c.expr)
		if ok != c.ok || strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("erbLiterals(%q) = %q, %v; want %q, %v", c.expr, got, ok, c.want, c.ok)
		}
	}
}

// TestERBCaptureUnclosed: a content_for block without its end loses only
// its opening tag.
func TestERBCaptureUnclosed(t *testing.T) {
	p := parseString(t, "x.md", "<% content_for :a do %>\nFirst.\n\n<% content_for :b do %>\nSecond.\n")
	if got := strings.Join(blockTexts(p, KindParagraph), "|"); got != "First.|Second." {
		t.Errorf("paragraphs %q", got)
	}
}
