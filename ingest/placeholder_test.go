package ingest

import (
	"slices"
	"strings"
	"testing"
)

func TestIsPlaceholder(t *testing.T) {
	for s, want := range map[string]bool{
		"<%= current_page.data.title %>": true,
		"  {{ page.title }} ":            true,
		"{{- page.title -}}":             true,
		`{{< param "title" >}}`:          true,
		`{{% param "title" %}}`:          true,
		`{% t "intro.title" %}`:          true,
		"<%- title %>":                   true,
		"{{}}":                           false, // nothing inside
		"{{ }}":                          false,
		"{{ a }} and {{ b }}":            false, // two expressions
		"{{ a }}{{ b }}":                 false,
		"Using {{ braces }} in prose":    false,
		"{{ page.title }}: an overview":  false,
		"<% a %> <% b %>":                false,
		"{ not a tag }":                  false,
		"Plain heading":                  false,
		"":                               false,
	} {
		if got := isPlaceholder(s); got != want {
			t.Errorf("isPlaceholder(%q) = %v, want %v", s, got, want)
		}
	}
}

// headings returns the heading blocks' texts and, for every block, its
// heading path joined by " > ".
func headings(p *Parsed) (heads, paths []string) {
	for _, b := range p.Blocks {
		if b.Kind == KindHeading {
			heads = append(heads, b.Text)
		}
		paths = append(paths, strings.Join(b.Headings, " > "))
	}
	return heads, paths
}

func TestPlaceholderHeadingIsFrontMatterTitle(t *testing.T) {
	for _, ph := range []string{
		"<%= current_page.data.title %>", // Middleman (the GDS Way)
		"{{ page.title }}",               // Jekyll
		`{{< param "title" >}}`,          // Hugo
		"{{<param>}}",                    // renders as "{{}}": <param> reads as HTML
	} {
		src := "---\ntitle: Use continuous delivery\n---\n\n# " + ph +
			"\n\nIntro text.\n\n## Benefits\n\nMore text.\n"
		p, err := ParseMarkdown("cd.md", []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", ph, err)
		}
		if p.Doc.Title != "Use continuous delivery" {
			t.Errorf("%s: title %q", ph, p.Doc.Title)
		}
		heads, paths := headings(p)
		if want := []string{"Use continuous delivery", "Benefits"}; !slices.Equal(heads, want) {
			t.Errorf("%s: headings %q, want %q", ph, heads, want)
		}
		want := []string{"", "Use continuous delivery", "Use continuous delivery", "Use continuous delivery > Benefits"}
		if !slices.Equal(paths, want) {
			t.Errorf("%s: heading paths %q, want %q", ph, paths, want)
		}
		if strings.ContainsAny(p.Doc.Text, "{}%") {
			t.Errorf("%s: placeholder left in the text: %q", ph, p.Doc.Text)
		}
	}
}

func TestPlaceholderSetextHeading(t *testing.T) {
	p, err := ParseMarkdown("x.md", []byte("---\ntitle: Real title\n---\n\n{{ page.title }}\n================\n\nText.\n"))
	if err != nil {
		t.Fatal(err)
	}
	heads, paths := headings(p)
	if !slices.Equal(heads, []string{"Real title"}) || paths[1] != "Real title" {
		t.Errorf("headings %q, paths %q", heads, paths)
	}
}

// Without a front matter title there is nothing to fill the placeholder
// with: the heading is dropped rather than given an invented text, and the
// title is the next real level-1 heading, else the file name.
func TestPlaceholderHeadingWithoutFrontMatterTitle(t *testing.T) {
	p, err := ParseMarkdown("use-continuous-delivery.md", []byte("# <%= current_page.data.title %>\n\nIntro.\n\n# Benefits\n\nText.\n"))
	if err != nil {
		t.Fatal(err)
	}
	heads, paths := headings(p)
	if p.Doc.Title != "Benefits" || !slices.Equal(heads, []string{"Benefits"}) {
		t.Errorf("title %q, headings %q", p.Doc.Title, heads)
	}
	if paths[0] != "" {
		t.Errorf("the intro sits under %q, want no heading", paths[0])
	}

	p, err = ParseMarkdown("use-continuous-delivery.md", []byte("---\nreview_in: 12 months\n---\n\n# {{ page.title }}\n\nIntro.\n\n## Benefits\n\nText.\n"))
	if err != nil {
		t.Fatal(err)
	}
	heads, paths = headings(p)
	if p.Doc.Title != "use continuous delivery" || !slices.Equal(heads, []string{"Benefits"}) {
		t.Errorf("title %q, headings %q", p.Doc.Title, heads)
	}
	if want := []string{"", "", "Benefits"}; !slices.Equal(paths, want) {
		t.Errorf("heading paths %q, want %q", paths, want)
	}
}

// Only a whole-heading placeholder that opens the document stands for the
// title; one further down stands for something else and is dropped.
func TestLaterPlaceholderHeadingIsDropped(t *testing.T) {
	for _, ph := range []string{"<%= current_page.data.subtitle %>", "{{ page.subtitle }}"} {
		p, err := ParseMarkdown("x.md", []byte("---\ntitle: Guide\n---\n\n# Guide\n\n## "+ph+"\n\nText.\n"))
		if err != nil {
			t.Fatal(err)
		}
		heads, paths := headings(p)
		if !slices.Equal(heads, []string{"Guide"}) || paths[1] != "Guide" {
			t.Errorf("%s: headings %q, paths %q", ph, heads, paths)
		}
	}
}

// Template tags, Liquid's and ERB's, are stripped from the front matter
// before it is read: a title that is one ERB expression names nothing.
func TestPlaceholderFrontMatterTitle(t *testing.T) {
	p, err := ParseMarkdown("x.md", []byte("---\ntitle: \"<%= site.name %>\"\n---\n\n# Real\n\nText.\n"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Doc.Title != "Real" {
		t.Errorf("title %q, want the first heading", p.Doc.Title)
	}
}

// Headings that only contain template syntax keep their usual treatment
// (Liquid and ERB tags stripped), and code is never touched.
func TestPlaceholderInProseOrCodeUntouched(t *testing.T) {
	src := "---\ntitle: Front\n---\n\n# Using {{ braces }} in prose\n\nText.\n\n" +
		"## <%= a %> and <%= b %>\n\nMore.\n\n## `{{ page.title }}`\n\nThe variable.\n\n```\n# {{ page.title }}\n```\n"
	p, err := ParseMarkdown("x.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	heads, _ := headings(p)
	if want := []string{"Using in prose", "and", "{{ page.title }}"}; !slices.Equal(heads, want) {
		t.Errorf("headings %q, want %q", heads, want)
	}
	last := p.Blocks[len(p.Blocks)-1]
	if last.Kind != KindCode || last.Text != "# {{ page.title }}" {
		t.Errorf("code block %v %q", last.Kind, last.Text)
	}
}

func TestHTMLPlaceholderTitleAndHeading(t *testing.T) {
	src := "<html><head><title>{{ page.title }}</title></head><body>" +
		"<h1><%= title %></h1><p>Intro.</p><h1>Real</h1><p>Text.</p></body></html>"
	p, err := ParseHTML("page.html", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	heads, paths := headings(p)
	if p.Doc.Title != "Real" || !slices.Equal(heads, []string{"Real"}) || paths[0] != "" {
		t.Errorf("title %q, headings %q, paths %q", p.Doc.Title, heads, paths)
	}
}
