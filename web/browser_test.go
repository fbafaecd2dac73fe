package web_test

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/retrieve"
	"github.com/fonte-rag/fonte/server"
)

const adminToken = "admin-token-for-the-web-tests"

// parrot is a document only the upload brings: its answer is nowhere in
// the handbook.
const parrot = `# The office parrot

The office parrot is called Garibaldi and lives by the window of the third floor kitchen.
Garibaldi eats sunflower seeds on Tuesdays and is fed by the facilities team.
`

// sourceGen is a fake fonte.Generator that answers with the first
// two sentences of the source that shares most words with the question,
// citing it, streamed a few words at a time with small pauses (the
// server holds them until the answer is checked). Prompts without
// sources (the follow-up rewrite) get no answer, so the engine falls
// back to its heuristic.
type sourceGen struct{}

func (sourceGen) Model() string { return "fake/streaming" }

func (sourceGen) Generate(ctx context.Context, msgs []fonte.Message, onDelta func(string)) (string, error) {
	prompt := msgs[len(msgs)-1].Content
	open, end := strings.Index(prompt, "<sources>\n"), strings.LastIndex(prompt, "</sources>")
	if open < 0 || end < open {
		return "", nil
	}
	question := strings.ToLower(prompt[end:])
	// Each source opens with a line "[n] label"; fences and blank lines
	// around it are not its text.
	texts := map[int]*strings.Builder{}
	cur := 0
	for _, line := range strings.Split(prompt[open:end], "\n") {
		var n int
		if _, err := fmt.Sscanf(line, "[%d] ", &n); err == nil && strings.HasPrefix(line, "[") {
			cur = n
			texts[n] = &strings.Builder{}
			continue
		}
		if cur > 0 && !strings.HasPrefix(line, "<<<") {
			texts[cur].WriteString(line + "\n")
		}
	}
	best, bestN, bestScore := "", 0, -1
	for n := 1; n <= len(texts); n++ {
		if texts[n] == nil {
			continue
		}
		text := texts[n].String()
		score := 0
		for _, w := range strings.Fields(strings.ToLower(text)) {
			if w = strings.Trim(w, ".,;:()?!\"'"); len(w) > 3 && strings.Contains(question, w) {
				score++
			}
		}
		if score > bestScore {
			best, bestN, bestScore = text, n, score
		}
	}
	// Two sentences when the source has them: fonte shows a model's
	// sentence once it is whole and checked, so the page shows the first
	// while the second streams.
	var parts []string
	rest := best
	for len(parts) < 2 {
		sentence := firstSentence(rest)
		if sentence == "" || slices.Contains(parts, fmt.Sprintf("%s [%d].", strings.TrimSuffix(sentence, "."), bestN)) {
			break
		}
		parts = append(parts, fmt.Sprintf("%s [%d].", strings.TrimSuffix(sentence, "."), bestN))
		i := strings.Index(rest, sentence)
		if i < 0 {
			break
		}
		rest = rest[i+len(sentence):]
	}
	answer := strings.Join(parts, " ")
	words := strings.SplitAfter(answer, " ")
	var b strings.Builder
	for i := 0; i < len(words); i += 3 {
		piece := strings.Join(words[i:min(i+3, len(words))], "")
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(25 * time.Millisecond):
		}
		if onDelta != nil {
			onDelta(piece)
		}
		b.WriteString(piece)
	}
	return b.String(), nil
}

// firstSentence is the first sentence of a passage's prose (headings and
// list marks left out).
func firstSentence(text string) string {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "#-*>|0123456789. "))
		if len(strings.Fields(line)) < 4 {
			continue
		}
		if i := strings.Index(line, ". "); i > 0 {
			return line[:i+1]
		}
		return line
	}
	return strings.TrimSpace(text)
}

// lockedLog collects the browser's console and exceptions.
type lockedLog struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (l *lockedLog) add(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf.WriteString(s + "\n")
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func describe(o *runtime.RemoteObject) string {
	if o == nil {
		return ""
	}
	if o.Description != "" {
		return o.Description
	}
	return string(o.Value)
}

// page is one browser tab on the page under test.
type page struct {
	t    *testing.T
	ctx  context.Context
	url  string
	dir  string // screenshots
	wide int64  // the desktop width
}

func (p *page) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		p.fail(what, err)
	}
}

func (p *page) fail(what string, err error) {
	p.t.Helper()
	p.shot("failure-"+strings.ReplaceAll(what, " ", "-"), 0)
	body, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string](`document.querySelector('main').innerText + '\n---\n' + document.getElementById('notice').innerText`))
	p.t.Fatalf("%s: %v\npage text:\n%s", what, err, body)
}

func eval[T any](p *page, expr string, opts ...chromedp.EvaluateOption) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, opts...))
	if err != nil {
		p.fail("evaluate "+expr, err)
	}
	return v
}

// wait polls a JavaScript expression until it is truthy.
func (p *page) wait(what, expr string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingInterval(20*time.Millisecond))); err != nil {
		p.fail(what, err)
	}
}

// shot saves the viewport as name-1280.png and, when narrow > 0, as
// name-360.png at a phone's width.
func (p *page) shot(name string, narrow int64) {
	p.t.Helper()
	save := func(width int64) {
		buf, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
		if err != nil {
			p.t.Logf("screenshot %s: %v", name, err)
			return
		}
		file := filepath.Join(p.dir, fmt.Sprintf("%s-%d.png", name, width))
		if err := os.WriteFile(file, buf, 0o644); err != nil {
			p.t.Errorf("screenshot %s: %v", name, err)
		}
		// README's screenshot: the offline answer a user gets, its
		// source open beside it (scripts/screenshot).
		if name == "readme-answer" && width == 1280 && os.Getenv("FONTE_UPDATE_SCREENSHOT") == "1" {
			if err := os.WriteFile("../docs/web-answer.png", buf, 0o644); err != nil {
				p.t.Errorf("docs/web-answer.png: %v", err)
			}
		}
	}
	save(p.wide)
	if narrow > 0 {
		_ = chromedp.Do(p.ctx, chromedp.EmulateViewport(narrow, 780), chromedp.Sleep(150*time.Millisecond))
		save(narrow)
		_ = chromedp.Do(p.ctx, chromedp.EmulateViewport(p.wide, 860), chromedp.Sleep(100*time.Millisecond))
	}
}

// ask types a question and presses Enter, then waits for the answer.
func (p *page) ask(question string) {
	p.t.Helper()
	n := eval[int](p, `document.querySelectorAll('#conversation article.turn').length`)
	p.do("type the question "+question, chromedp.Click(chromedp.CSS("#question")), chromedp.SendKeys(chromedp.CSS("#question"), question+kb.Enter))
	p.wait("the answer to "+question, fmt.Sprintf(`(() => { const ts = document.querySelectorAll('#conversation article.turn');
		return ts.length === %d && ['done', 'error'].includes(ts[ts.length - 1].dataset.state); })()`, n+1))
	if state := eval[string](p, `[...document.querySelectorAll('#conversation article.turn')].pop().dataset.state`); state != "done" {
		p.fail("ask "+question, fmt.Errorf("turn state %s", state))
	}
}

// citedDocs are the documents the last answer cites, from the kept
// conversation.
func (p *page) citedDocs() string {
	return eval[string](p, `(() => { const c = JSON.parse(localStorage.getItem('fonte.conversation.default'));
		return c[c.length - 1].citations.map((x) => x.doc).join(' '); })()`)
}

// screenshotDir is where the screenshots go: $FONTE_SCREENSHOTS, the
// test's artifact folder under go test -artifacts, else a temporary
// folder kept when the test fails.
func screenshotDir(t *testing.T) string {
	if dir := os.Getenv("FONTE_SCREENSHOTS"); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	if f := flag.Lookup("test.artifacts"); f != nil && f.Value.String() == "true" {
		return t.ArtifactDir()
	}
	dir, err := os.MkdirTemp("", "fonte-web-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if !t.Failed() {
			os.RemoveAll(dir)
		}
	})
	return dir
}

// startServer serves the example handbook with a streaming fake model
// and the hybrid retriever, so the trace has both legs whatever the
// default retriever.
func startServer(t *testing.T) string {
	t.Helper()
	return serveHandbook(t, engine.Settings{Generator: sourceGen{}, Mode: retrieve.Hybrid})
}

// serveHandbook indexes the example handbook with settings (in a fresh
// store) and serves it on a free loopback port, the handbook as the
// default collection's folder; it returns the server's URL.
func serveHandbook(t *testing.T, settings engine.Settings) string {
	t.Helper()
	ctx := context.Background()
	settings.Store = t.TempDir()
	e, err := engine.Open(ctx, settings, engine.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	if _, err := e.Index(ctx, "../examples/handbook", nil); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	settings.Store = ""
	quiet := slog.New(slog.DiscardHandler)
	srv, err := server.New(e, server.Options{Addr: ln.Addr().String(), AdminToken: adminToken, Logger: quiet,
		DataDir: t.TempDir(), Template: settings, RateLimit: &server.RateLimit{},
		Default: server.CollectionConfig{Folder: "../examples/handbook"}})
	if err != nil {
		t.Fatal(err)
	}
	sctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- server.Serve(sctx, ln, srv, quiet) }()
	t.Cleanup(func() {
		stop()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
		srv.Close()
	})
	return "http://" + ln.Addr().String()
}

// openBrowser starts headless Chromium in the language lang (its
// navigator.language, which the page's labels follow) at width×height,
// and returns a tab on url's origin; the browser's console and
// exceptions are logged at the end of the test.
func openBrowser(t *testing.T, url, dir, lang string, width, height int64) *page {
	t.Helper()
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatalf("the web tests need Chromium (apt-get install chromium; scripts/test installs it): %v", err)
	}
	actx, cancel := chromedp.NewExecAllocator(context.Background(), append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("lang", lang), chromedp.Flag("accept-lang", lang), chromedp.Env("LANGUAGE="+strings.ReplaceAll(lang, "-", "_"), "LANG="+strings.ReplaceAll(lang, "-", "_")+".UTF-8"), chromedp.WindowSize(int(width), int(height)))...)
	t.Cleanup(cancel)
	var logs lockedLog
	ctx, cancel := chromedp.NewContext(actx, chromedp.WithListener(func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			logs.add("exception: " + ev.ExceptionDetails.Text + " " + describe(ev.ExceptionDetails.Exception))
		case *runtime.EventConsoleAPICalled:
			var args []string
			for _, a := range ev.Args {
				args = append(args, describe(a))
			}
			logs.add("console." + string(ev.Type) + ": " + strings.Join(args, " "))
		}
	}))
	t.Cleanup(cancel)
	t.Cleanup(func() {
		if out := logs.String(); out != "" {
			t.Logf("browser console:\n%s", out)
		}
	})
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, height)); err != nil {
		t.Fatal(err)
	}
	return &page{t: t, ctx: ctx, url: url, dir: dir, wide: width}
}

// sixQuestions writes the first six questions of the example set (dev
// and test mixed) to a file and returns its path.
func sixQuestions(t *testing.T) string {
	t.Helper()
	questions, err := os.ReadFile("../examples/questions.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	qfile := filepath.Join(t.TempDir(), "six.jsonl")
	if err := os.WriteFile(qfile, []byte(strings.Join(strings.SplitN(string(questions), "\n", 7)[:6], "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	return qfile
}

// TestPage drives the page in headless Chromium against the real server:
// a streamed answer with citations, the passage with its quote marked,
// why, a follow-up, reload, abstention, upload, delete and stale
// citations, a wrong token, and the phone layout. It saves a screenshot
// of each screen at 1280 and 360 px wide.
func TestPage(t *testing.T) {
	url := startServer(t)
	dir := screenshotDir(t)
	t.Logf("screenshots in %s", dir)
	p := openBrowser(t, url, dir, "en-US", 1280, 860)

	// The token comes in the URL once; the page keeps it and drops it
	// from the address.
	p.do("open the page", chromedp.Navigate(url+"/#token="+adminToken))
	p.wait("the collections", `document.querySelector('#collection option') && document.querySelector('#collection').value === 'default' && document.querySelector('#collection option').textContent.includes('(')`)
	if loc := eval[string](p, `location.href`); strings.Contains(loc, "token") {
		t.Errorf("the token stayed in the URL: %s", loc)
	}

	// Ask: the checked answer comes with citation buttons (a model's
	// answer is held until every check has run on it, so the page never
	// shows text the checks would take back, nor the answer growing).
	p.do("type a question", chromedp.Click(chromedp.CSS("#question")),
		chromedp.SendKeys(chromedp.CSS("#question"), "How many days of annual leave do full-time employees accrue?"+kb.Enter))
	p.wait("the answer done", `document.querySelector('#conversation article.turn[data-state="done"] .answer-text button.cite:not([disabled])')`)
	if live := eval[string](p, `document.getElementById('conversation').getAttribute('aria-live')`); live != "polite" {
		t.Errorf("the conversation is not a live region: %q", live)
	}
	p.shot("answer", 360)

	// The citation opens the passage beside the answer, its quote marked.
	p.do("open the citation", chromedp.Click(chromedp.CSS("article.turn .answer-text button.cite")))
	p.wait("the passage", `document.querySelector('#passage:not([hidden]) #passage-text mark')`)
	mark := eval[string](p, `document.querySelector('#passage-text mark').textContent`)
	quote := eval[string](p, `(() => { const b = document.querySelector('article.turn .answer-text button.cite');
		const c = JSON.parse(localStorage.getItem('fonte.conversation.default'))[0].citations.find((x) => String(x.n) === b.dataset.n);
		return c.quote; })()`)
	if strings.TrimSpace(mark) == "" || strings.Join(strings.Fields(mark), " ") != strings.Join(strings.Fields(quote), " ") {
		t.Errorf("the marked text %q is not the citation's quote %q", mark, quote)
	}
	if pos := eval[string](p, `getComputedStyle(document.getElementById('passage')).position`); pos == "fixed" {
		t.Errorf("at 1280 px the passage is a sheet, want a side panel")
	}
	p.shot("passage", 360)
	// Escape closes it and gives the focus back to the citation.
	p.do("escape", chromedp.KeyEvent(kb.Escape))
	p.wait("the passage closed", `document.getElementById('passage').hidden && document.activeElement.classList.contains('cite')`)

	// The whole document, scrolled to the passage.
	p.do("reopen the citation", chromedp.Click(chromedp.CSS("article.turn .sources button.source")))
	p.wait("the passage again", `document.querySelector('#passage:not([hidden]) #passage-text mark')`)
	p.do("open the document", chromedp.Click(chromedp.CSS("#passage-doc")))
	p.wait("the document", `document.querySelector('#docview:not([hidden]) .doc-text .target')`)
	p.shot("document", 0)
	p.do("back", chromedp.Click(chromedp.CSS("#docview-back")))
	p.wait("the answer again", `document.getElementById('docview').hidden && !document.getElementById('panel-ask').hidden`)

	// Why: the trace shows the stages and both retrieval legs.
	p.do("why", chromedp.Click(chromedp.CSS("article.turn .why-toggle")))
	p.wait("the trace", `document.querySelector('article.turn .why:not([hidden]) .why-legs')`)
	why := eval[string](p, `document.querySelector('article.turn .why').innerText`)
	for _, want := range []string{"Lexical (BM25)", "Dense (vectors)", "Fused ranking", "Floor", "Grounding", "lexical_leg", "dense_leg"} {
		if !strings.Contains(why, want) {
			t.Errorf("the trace lacks %q:\n%s", want, why)
		}
	}
	if rows := eval[int](p, `document.querySelectorAll('article.turn .why .legs tbody tr').length`); rows < 2 {
		t.Errorf("the legs have %d rows", rows)
	}
	p.do("scroll to why", chromedp.ScrollIntoView(chromedp.CSS("article.turn .why")))
	p.shot("why", 360)

	// A follow-up goes to /chat with the history; the query searched, a
	// rewrite of the follow-up, shows under its answer.
	p.ask("And how far ahead do I have to ask for it?")
	if n := eval[int](p, `JSON.parse(localStorage.getItem('fonte.conversation.default')).length`); n != 2 {
		t.Errorf("the kept conversation has %d turns, want 2", n)
	}
	searched := eval[string](p, `(() => { const r = document.querySelector('#conversation article.turn:last-of-type .answer + .rewritten');
		return r && !r.hidden ? r.textContent : ''; })()`)
	query := eval[string](p, `JSON.parse(localStorage.getItem('fonte.conversation.default'))[1].answer.query`)
	if searched != "Searched: "+query || query == "And how far ahead do I have to ask for it?" || !strings.Contains(strings.ToLower(query), "leave") {
		t.Errorf("under the follow-up's answer %q, want \"Searched: \" and the rewritten query %q", searched, query)
	}
	if first := eval[bool](p, `document.querySelector('#conversation article.turn .rewritten').hidden`); !first {
		t.Errorf("the first question, searched as typed, shows a Searched line")
	}

	// A reload keeps the conversation, citations included.
	p.do("reload", chromedp.Reload())
	p.wait("the kept conversation", `document.querySelectorAll('#conversation article.turn').length === 2 && document.querySelector('#conversation article.turn .answer-text button.cite:not([disabled])')`)

	// An unanswerable question: I don't know, with the nearest passages
	// and why.
	p.do("new conversation", chromedp.Click(chromedp.CSS("#new-button")))
	p.ask("What is the capital of Mongolia?")
	p.wait("the abstention", `document.querySelector('article.turn.abstained .abstain')`)
	abstain := eval[string](p, `document.querySelector('article.turn.abstained').textContent`)
	if !strings.Contains(abstain, "I don't know") || !strings.Contains(abstain, "below the floor") || !strings.Contains(abstain, "Nearest passages") {
		t.Errorf("the abstention says:\n%s", abstain)
	}
	if n := eval[int](p, `document.querySelectorAll('article.turn.abstained .sources button.source').length`); n == 0 {
		t.Errorf("the abstention lists no nearest passage")
	}
	p.shot("abstention", 360)

	// An Italian question that only an English document answers: the
	// server's notice, in Italian, above the abstention.
	p.do("new conversation", chromedp.Click(chromedp.CSS("#new-button")))
	p.ask("Qual è il limite per l'hotel a London?")
	p.wait("the notice", `document.querySelector('article.turn .lang-notice')`)
	if got := eval[string](p, `document.querySelector('article.turn .lang-notice').textContent`); got != "Non ho trovato nulla in italiano: i passaggi trovati sono in inglese." {
		t.Errorf("the notice says %q", got)
	}
	if lang := eval[string](p, `document.querySelector('article.turn .lang-notice').lang`); lang != "it" {
		t.Errorf("the notice's lang attribute is %q, want it", lang)
	}

	// Upload a file; its answer becomes findable.
	upload := filepath.Join(t.TempDir(), "office-parrot.md")
	if err := os.WriteFile(upload, []byte(parrot), 0o644); err != nil {
		t.Fatal(err)
	}
	p.do("documents tab", chromedp.Click(chromedp.CSS("#tab-docs")))
	p.wait("the documents", `document.querySelectorAll('#doc-list tr').length > 3`)
	p.do("upload", chromedp.SetUploadFiles(chromedp.CSS("#file-input"), []string{upload}, chromedp.NodeReady))
	p.wait("the upload", `document.querySelector('#uploads li.ok') && document.querySelector('#doc-list tr[data-id="office-parrot.md"]')`)
	p.shot("documents", 360)
	p.do("ask tab", chromedp.Click(chromedp.CSS("#tab-ask")), chromedp.Click(chromedp.CSS("#new-button")))
	p.ask("What is the office parrot called?")
	if docs := p.citedDocs(); !strings.Contains(docs, "office-parrot.md") {
		t.Errorf("the answer about the parrot cites %q", docs)
	}

	// Delete it, confirming in the page's dialog; the answer no longer
	// cites it and the kept citation reads as stale after a reload.
	p.do("documents tab again", chromedp.Click(chromedp.CSS("#tab-docs")))
	p.wait("the parrot row", `document.querySelector('#doc-list tr[data-id="office-parrot.md"] button.danger')`)
	// Clicked from the page itself, in one step: the list re-renders when
	// the tab opens, and a node chromedp found a moment before can be gone
	// by the time it clicks ("Could not find node with given id").
	p.do("delete", chromedp.Evaluate[chromedp.Void](`document.querySelector('#doc-list tr[data-id="office-parrot.md"] button.danger').click()`))
	p.wait("the confirmation", `document.getElementById('confirm-dialog').open`)
	p.shot("delete-confirm", 0)
	p.do("confirm", chromedp.Click(chromedp.CSS("#confirm-ok")))
	p.wait("the row gone", `!document.querySelector('#doc-list tr[data-id="office-parrot.md"]') && document.getElementById('docs-status').textContent.includes('Deleted')`)
	p.do("ask tab again", chromedp.Click(chromedp.CSS("#tab-ask")))
	p.ask("What is the office parrot called?")
	if docs := p.citedDocs(); strings.Contains(docs, "office-parrot.md") {
		t.Errorf("after the delete the answer still cites %q", docs)
	}
	p.do("reload after the delete", chromedp.Reload())
	p.wait("the stale citation", `document.querySelector('#conversation article.turn .sources .source.is-stale .badge')`)
	p.shot("stale", 0)

	// Eval: a question file loaded from this computer, run, with tables
	// and plots.
	qfile := sixQuestions(t)
	questions, err := os.ReadFile(qfile)
	if err != nil {
		t.Fatal(err)
	}
	p.do("eval tab", chromedp.Click(chromedp.CSS("#tab-eval")))
	p.do("load a question file", chromedp.SetUploadFiles(chromedp.CSS("#eval-upload"), []string{qfile}, chromedp.NodeReady))
	p.wait("the loaded questions", `document.getElementById('eval-questions').value.split('\n').filter((l) => l.trim()).length === 6`)
	p.do("run the evaluation", chromedp.Click(chromedp.CSS("#eval-run")))
	p.wait("the evaluation", `document.querySelector('#eval-results .eval-table tbody tr') || document.querySelector('#eval-status.error')`)
	if msg := eval[string](p, `document.querySelector('#eval-status.error') ? document.getElementById('eval-status').textContent : ''`); msg != "" {
		t.Errorf("the evaluation failed: %s", msg)
	}
	if n := eval[int](p, `document.querySelectorAll('#eval-results figure.plot svg').length`); n == 0 {
		t.Errorf("the evaluation shows no plot")
	}
	// The six questions mix dev and test: the dev ones are evaluated,
	// and the status says so.
	dev := strings.Count(string(questions), `"split": "dev"`)
	if got, want := eval[string](p, `document.getElementById('eval-status').textContent`), fmt.Sprintf("%d questions (dev part)", dev); dev == 0 || dev == 6 || !strings.Contains(got, want) {
		t.Errorf("eval status %q, want %q (%d dev questions of 6)", got, want, dev)
	}
	p.shot("eval", 360)
	p.do("ask tab after eval", chromedp.Click(chromedp.CSS("#tab-ask")))

	// At a phone's width the passage opens as a sheet from the bottom.
	p.do("phone width", chromedp.EmulateViewport(360, 780), chromedp.Click(chromedp.CSS("#new-button")))
	p.ask("How many days of annual leave do full-time employees accrue?")
	p.do("open a citation on a phone", chromedp.Click(chromedp.CSS("article.turn .answer-text button.cite")))
	p.wait("the sheet", `document.querySelector('#passage:not([hidden]) #passage-text mark')`)
	sheet := eval[string](p, `(() => { const s = document.getElementById('passage'); const r = s.getBoundingClientRect();
		return [getComputedStyle(s).position, Math.round(r.width), Math.round(r.bottom), innerWidth, innerHeight].join(' '); })()`)
	if f := strings.Fields(sheet); len(f) != 5 || f[0] != "fixed" || f[1] != f[3] || f[2] != f[4] {
		t.Errorf("at 360 px the passage is not a bottom sheet: position, width, bottom, viewport = %s", sheet)
	}
	if w := eval[int](p, `document.documentElement.scrollWidth`); w > 360 {
		t.Errorf("at 360 px the page is %d px wide", w)
	}
	p.do("close the sheet", chromedp.KeyEvent(kb.Escape), chromedp.EmulateViewport(1280, 860))

	// A wrong token is refused plainly.
	p.do("token dialog", chromedp.Click(chromedp.CSS("#token-button")))
	p.wait("the dialog", `document.getElementById('token-dialog').open`)
	p.do("wrong token", chromedp.SetValue(chromedp.CSS("#token-input"), "not-a-token"), chromedp.Click(chromedp.CSS("#token-save")))
	p.wait("the refusal", `document.getElementById('notice').textContent.includes('This token is not accepted')`)
	p.shot("token-error", 360)
	p.do("cancel", chromedp.Click(chromedp.CSS("#token-cancel")))
	p.do("ask with the wrong token", chromedp.SendKeys(chromedp.CSS("#question"), "How long is the notice period?"+kb.Enter))
	p.wait("the refused question", `document.querySelector('#conversation article.turn[data-state="error"] .error')`)
	if msg := eval[string](p, `document.querySelector('#conversation article.turn[data-state="error"] .error').textContent`); !strings.HasPrefix(msg, "This token is not accepted. ") {
		t.Errorf("a wrong token says %q", msg)
	}
}
