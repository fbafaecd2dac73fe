package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte/engine"
)

func handbookFile(rel string) string {
	return filepath.Join(examplesDir, "handbook", filepath.FromSlash(rel))
}

func TestInspectMarkdownTable(t *testing.T) {
	code, out, stderr := runCLI(t, "inspect", handbookFile("people/leave.md"))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"accepted (markdown)",
		"title: Leave and time off",
		"language: en (analysis en)",
		"tables: 1",
		"flags: none",
		"### Annual leave › How many days you get\n\nFull-time employees accrue 26 working days",
		"[table: 6 rows × 3 columns]\n| Type of leave | Paid days | How to request it |\n| Marriage or civil union | 15 calendar days |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "--- chunks") {
		t.Errorf("chunks printed without --chunks")
	}
}

func TestInspectPDFPages(t *testing.T) {
	code, out, stderr := runCLI(t, "inspect", handbookFile("finance/travel-and-expenses-policy.pdf"))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"accepted (pdf)", "pages: 3,", "--- page 1 ---", "--- page 2 ---", "--- page 3 ---", "## 3. Spending limits"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if p1, p3 := strings.Index(out, "--- page 1 ---"), strings.Index(out, "--- page 3 ---"); p1 > p3 {
		t.Errorf("page marks out of order")
	}
}

func TestInspectFlagsHiddenText(t *testing.T) {
	code, out, stderr := runCLI(t, "inspect", handbookFile("it-help-desk.html"))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "flag dropped text hidden-text: ") || !strings.Contains(out, "elements hidden from readers") {
		t.Errorf("the hidden injections are not flagged:\n%s", out)
	}
	// The hidden text is reported, not shown as content.
	if strings.Contains(out, "Ignore previous instructions") || strings.Contains(out, "administrator password") {
		t.Errorf("hidden text shown as extracted text:\n%s", out)
	}
}

func TestInspectChunks(t *testing.T) {
	file := handbookFile("people/leave.md")
	code, out, stderr := runCLI(t, "inspect", "--chunks", file)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"--- chunks (structure, ", "[" + filepath.ToSlash(file) + "#1] Annual leave › How many days you get\nFull-time employees"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// A smaller window chunker makes more chunks.
	_, small, _ := runCLI(t, "inspect", "--chunks", "--json", "--chunker", "window", "--chunk-size", "40", "--overlap", "5", file)
	_, def, _ := runCLI(t, "inspect", "--chunks", "--json", file)
	n := func(s string) int {
		var v struct {
			Chunks []json.RawMessage `json:"chunks"`
			Count  int               `json:"chunk_count"`
		}
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, s)
		}
		if len(v.Chunks) != v.Count {
			t.Errorf("%d chunks listed, chunk_count %d", len(v.Chunks), v.Count)
		}
		return v.Count
	}
	if a, b := n(small), n(def); a <= b {
		t.Errorf("window 40 words: %d chunks, default structure: %d", a, b)
	}
}

func TestInspectJSON(t *testing.T) {
	files := []string{handbookFile("people/leave.md"), handbookFile("finance/travel-and-expenses-policy.pdf"), handbookFile("it-help-desk.html")}
	code, out, stderr := runCLI(t, append([]string{"inspect", "--json"}, files...)...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != len(files) {
		t.Fatalf("%d lines for %d files:\n%s", len(lines), len(files), out)
	}
	type block struct {
		Kind     string     `json:"kind"`
		Headings []string   `json:"headings"`
		Page     int        `json:"page"`
		Text     string     `json:"text"`
		Rows     [][]string `json:"rows"`
	}
	type file struct {
		Path       string    `json:"path"`
		Accepted   bool      `json:"accepted"`
		Refusal    *struct{} `json:"refusal"`
		Format     string    `json:"format"`
		Title      string    `json:"title"`
		Language   string    `json:"language"`
		Analysis   string    `json:"analysis"`
		Pages      int       `json:"pages"`
		Characters int       `json:"characters"`
		Tables     int       `json:"tables"`
		Blocks     []block   `json:"blocks"`
		Flags      []struct {
			Chunk int    `json:"chunk"`
			Kind  string `json:"kind"`
		} `json:"flags"`
		Chunks []json.RawMessage `json:"chunks"`
	}
	var got []file
	for i, l := range lines {
		requireKeys(t, "inspect --json", l, "path", "accepted", "format", "title", "language", "analysis", "pages", "characters", "tables", "blocks", "flags", "chunk_count")
		var f file
		if err := json.Unmarshal([]byte(l), &f); err != nil {
			t.Fatal(err)
		}
		if f.Path != files[i] || !f.Accepted || f.Refusal != nil || f.Characters == 0 || len(f.Blocks) == 0 || f.Chunks != nil {
			t.Errorf("file %d: %+v", i, f)
		}
		got = append(got, f)
	}
	md, pdf, html := got[0], got[1], got[2]
	if md.Tables != 1 || md.Title != "Leave and time off" || md.Language != "en" || md.Analysis != "en" || md.Format != "markdown" {
		t.Errorf("markdown: %+v", md)
	}
	tables := 0
	for _, b := range md.Blocks {
		if b.Kind == "table" {
			tables++
			if len(b.Rows) != 6 || len(b.Rows[0]) != 3 || b.Rows[0][0] != "Type of leave" {
				t.Errorf("table rows %q", b.Rows)
			}
		}
	}
	if tables != 1 {
		t.Errorf("%d table blocks", tables)
	}
	if pdf.Pages != 3 || pdf.Format != "pdf" || pdf.Blocks[len(pdf.Blocks)-1].Page != 3 {
		t.Errorf("pdf: pages %d, format %s", pdf.Pages, pdf.Format)
	}
	if len(html.Flags) == 0 || html.Flags[0].Kind != "hidden-text" || html.Flags[0].Chunk != -1 {
		t.Errorf("html flags %+v", html.Flags)
	}
}

func TestInspectRefused(t *testing.T) {
	fake := filepath.Join(t.TempDir(), "report.pdf")
	writeFile(t, fake, []byte("this is not a PDF at all, only text with a .pdf name\n"))
	code, out, stderr := runCLI(t, "inspect", handbookFile("people/leave.md"), fake)
	if code != exitFailure {
		t.Fatalf("exit %d, want %d: %s", code, exitFailure, stderr)
	}
	if !strings.Contains(stderr, "refused "+fake+": unreadable: not a PDF") {
		t.Errorf("stderr does not name the refused file with its reason: %q", stderr)
	}
	if !strings.Contains(out, "=== "+fake+"\nrefused: unreadable: not a PDF") || !strings.Contains(out, "accepted (markdown)") {
		t.Errorf("output:\n%s", out)
	}
	code, out, _ = runCLI(t, "inspect", "--json", fake)
	if code != exitFailure {
		t.Errorf("--json: exit %d", code)
	}
	var v struct {
		Accepted bool `json:"accepted"`
		Refusal  struct {
			Reason string `json:"reason"`
			Detail string `json:"detail"`
		} `json:"refusal"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || v.Accepted || v.Refusal.Reason != "unreadable" || !strings.Contains(v.Refusal.Detail, "not a PDF") {
		t.Errorf("--json refusal %+v (%v): %s", v, err, out)
	}
	// A missing file is refused too; no argument, an unknown chunker or
	// a folder are usage errors.
	if code, _, stderr := runCLI(t, "inspect", filepath.Join(t.TempDir(), "missing.md")); code != exitFailure || !strings.Contains(stderr, "unreadable") {
		t.Errorf("missing file: exit %d, %q", code, stderr)
	}
	for _, args := range [][]string{{"inspect"}, {"inspect", "--chunker", "bogus", handbookFile("people/leave.md")}, {"inspect", t.TempDir()}} {
		if code, _, _ := runCLI(t, args...); code != exitUsage {
			t.Errorf("%q: exit %d, want %d", args, code, exitUsage)
		}
	}
}

func TestIndexReport(t *testing.T) {
	docs := copyHandbook(t)
	writeFile(t, filepath.Join(docs, "finance", "broken.pdf"), []byte("%PDF-1.4 truncated"))
	writeFile(t, filepath.Join(docs, "notes.xlsx"), []byte("not a supported type"))
	idx := filepath.Join(t.TempDir(), "idx")
	report := filepath.Join(t.TempDir(), "report.json")
	code, out, stderr := runCLI(t, "index", docs, "--index", idx, "--report", report, "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var sum struct {
		Indexed int `json:"indexed"`
		Skipped int `json:"skipped"`
		Chunks  int `json:"chunks"`
		Refused []struct {
			Path   string `json:"path"`
			Reason string `json:"reason"`
		} `json:"refused"`
		Flagged []struct {
			Path string `json:"path"`
		} `json:"flagged"`
		ReportFile string `json:"report_file"`
	}
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if sum.ReportFile != report {
		t.Errorf("report_file %q", sum.ReportFile)
	}
	lines := readReport(t, report)
	if len(lines) != 15 { // 13 handbook files, the broken PDF, the .docx
		t.Fatalf("%d report lines, want 15", len(lines))
	}
	counts := map[string]int{}
	chunks, flags := 0, 0
	byPath := map[string]engine.FileReport{}
	for _, l := range lines {
		counts[l.Status]++
		chunks += l.Chunks
		flags += l.Flags
		byPath[l.Path] = l
	}
	if counts["indexed"] != sum.Indexed || counts["refused"] != len(sum.Refused) || counts["skipped"] != sum.Skipped || chunks != sum.Chunks || flags != len(sum.Flagged) {
		t.Errorf("report counts %v, %d chunks, %d flags; index output: %+v", counts, chunks, flags, sum)
	}
	if counts["indexed"] != 13 || counts["refused"] != 1 || counts["skipped"] != 1 {
		t.Errorf("statuses %v", counts)
	}
	broken := byPath["finance/broken.pdf"]
	if broken.Status != "refused" || !strings.HasPrefix(broken.Reason, "unreadable") || broken.Reason != sum.Refused[0].Reason {
		t.Errorf("broken file %+v, index output %+v", broken, sum.Refused)
	}
	if s := byPath["notes.xlsx"]; s.Status != "skipped" || !strings.Contains(s.Reason, ".xlsx") {
		t.Errorf("unsupported file %+v", s)
	}
	pdf := byPath["finance/travel-and-expenses-policy.pdf"]
	if pdf.Pages != 3 || pdf.Language != "en" || pdf.Characters == 0 || pdf.Chunks == 0 || pdf.OCRPages != 0 {
		t.Errorf("pdf %+v", pdf)
	}
	if md := byPath["people/leave.md"]; md.Tables != 1 || md.Format != "markdown" {
		t.Errorf("leave.md %+v", md)
	}
	html := byPath["it-help-desk.html"]
	if html.Flags == 0 || len(html.FlagKinds) == 0 || html.FlagKinds[0] != "hidden-text" {
		t.Errorf("it-help-desk.html %+v", html)
	}

	// A second run: unchanged files keep their counts; the text output
	// says where the report went, and no temporary file is left behind.
	code, out, stderr = runCLI(t, "index", docs, "--index", idx, "--report", report)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "report of the 15 files written to "+report) {
		t.Errorf("text output does not name the report:\n%s", out)
	}
	again := readReport(t, report)
	for _, l := range again {
		want := byPath[l.Path]
		if want.Status == "indexed" {
			want.Status = "unchanged"
		}
		if l.Status != want.Status || l.Chunks != want.Chunks || l.Flags != want.Flags || l.Pages != want.Pages || l.Characters != want.Characters {
			t.Errorf("second run %+v, first %+v", l, byPath[l.Path])
		}
	}
	entries, err := os.ReadDir(filepath.Dir(report))
	if err != nil || len(entries) != 1 {
		t.Errorf("report folder holds %d entries (%v)", len(entries), err)
	}
	// A report that cannot be written fails the command.
	if code, _, stderr := runCLI(t, "index", docs, "--index", idx, "--report", filepath.Join(t.TempDir(), "no", "such", "r.json")); code != exitFailure || !strings.Contains(stderr, "report") {
		t.Errorf("unwritable report: exit %d, %q", code, stderr)
	}
}

func readReport(t *testing.T, path string) []engine.FileReport {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []engine.FileReport
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		requireKeys(t, "report line", sc.Text(), "path", "status", "pages", "characters", "language", "tables", "ocr_pages", "flags", "flag_kinds", "chunks", "reason")
		var l engine.FileReport
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("report line %q: %v", sc.Text(), err)
		}
		out = append(out, l)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
