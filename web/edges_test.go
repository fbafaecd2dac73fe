package web_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestTokenAddedToOpenPage: a #token=… added to the address of the page
// already open (a hash change, no reload) is taken: the token dialog
// closes, the collections load, and the token leaves the address bar.
func TestTokenAddedToOpenPage(t *testing.T) {
	url := serveOffline(t)
	p := openBrowser(t, url, screenshotDir(t), "en-US", 1280, 900)
	p.do("open the page without a token", chromedp.Navigate(url+"/"))
	p.wait("the token dialog", `document.getElementById('token-dialog').open`)
	p.do("add the token to the address", chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`location.hash = 'token=%s'`, adminToken)))
	p.wait("the token taken", `!document.getElementById('token-dialog').open && document.querySelector('#collection option') && document.querySelector('#collection option').textContent.includes('(')`)
	if loc := eval[string](p, `location.href`); strings.Contains(loc, "token") || strings.Contains(loc, adminToken) {
		t.Errorf("the token stayed in the address: %s", loc)
	}
	if kept := eval[string](p, `localStorage.getItem('fonte.token') || ''`); kept != adminToken {
		t.Errorf("the page keeps the token %q", kept)
	}
	p.ask("How many days of annual leave do full-time employees accrue?")
}

// TestDocumentsEdges: the upload area lists the server's formats and
// the file picker offers them; the collection picker's count follows an
// upload and a delete.
func TestDocumentsEdges(t *testing.T) {
	url := serveOffline(t)
	p := openBrowser(t, url, screenshotDir(t), "en-US", 1280, 900)
	p.do("open the page", chromedp.Navigate(url+"/#token="+adminToken))
	p.wait("the collections", `document.querySelector('#collection option') && document.querySelector('#collection option').textContent.includes('(')`)
	before := eval[string](p, `document.querySelector('#collection option').textContent`)
	var n int
	if _, err := fmt.Sscanf(before, "default (%d)", &n); err != nil || n == 0 {
		t.Fatalf("the picker says %q", before)
	}
	p.do("documents tab", chromedp.Click(chromedp.CSS("#tab-docs")))
	p.wait("the documents", fmt.Sprintf(`document.querySelectorAll('#doc-list tr').length === %d`, n))
	formats := eval[string](p, `document.getElementById('drop-formats').textContent`)
	for _, want := range []string{"Markdown (.md .markdown)", "PDF (.pdf)", "Word (.docx)", "OpenDocument (.odt)", "PowerPoint (.pptx)", "images (.png .jpg .jpeg .tif .tiff) by OCR"} {
		if !strings.Contains(formats, want) {
			t.Errorf("the upload area says %q, without %q", formats, want)
		}
	}
	if accept := eval[string](p, `document.getElementById('file-input').accept`); !strings.Contains(accept, ".docx") || !strings.Contains(accept, ".pptx") || !strings.Contains(accept, ".md") {
		t.Errorf("the file picker accepts %q", accept)
	}

	upload := filepath.Join(t.TempDir(), "office-parrot.md")
	if err := os.WriteFile(upload, []byte(parrot), 0o644); err != nil {
		t.Fatal(err)
	}
	p.do("upload", chromedp.SetUploadFiles(chromedp.CSS("#file-input"), []string{upload}, chromedp.NodeReady))
	p.wait("the count after the upload", fmt.Sprintf(`document.querySelector('#collection option').textContent === 'default (%d)'`, n+1))
	p.wait("the parrot row", `document.querySelector('#doc-list tr[data-id="office-parrot.md"] button.danger')`)
	p.do("delete", chromedp.Click(chromedp.CSS(`#doc-list tr[data-id="office-parrot.md"] button.danger`)))
	p.wait("the confirmation", `document.getElementById('confirm-dialog').open`)
	p.do("confirm", chromedp.Click(chromedp.CSS("#confirm-ok")))
	p.wait("the count after the delete", fmt.Sprintf(`document.querySelector('#collection option').textContent === 'default (%d)'`, n))
}

// TestDocumentViewHeadings: the whole-document view of a PDF shows its
// headings as headings of their depth, and the cited passage as one
// framed block (no bar left at the end of the line before it).
func TestDocumentViewHeadings(t *testing.T) {
	url := serveOffline(t)
	dir := screenshotDir(t)
	for _, size := range sizes {
		t.Run(fmt.Sprint(size[0]), func(t *testing.T) {
			p := openBrowser(t, url, dir, "en-US", size[0], size[1])
			p.do("open the page", chromedp.Navigate(url+"/#token="+adminToken))
			p.wait("the collections", `document.querySelector('#collection option') && document.querySelector('#collection option').textContent.includes('(')`)
			p.ask("How much can I spend per night on a hotel in London?")
			if docs := p.citedDocs(); !strings.Contains(docs, "travel-and-expenses-policy.pdf") {
				t.Fatalf("the answer cites %q, not the travel policy's PDF", docs)
			}
			p.do("open the source", chromedp.Click(chromedp.CSS("article.turn .sources button.source")))
			p.wait("the passage", `document.querySelector('#passage:not([hidden]) #passage-text mark')`)
			if model := eval[string](p, `document.querySelector('#conversation .model').textContent`); model != "fonte/extractive" {
				t.Errorf("the answer's model is %q, want the offline fonte/extractive", model)
			}
			p.shot("readme-answer", 0)
			p.do("open the document", chromedp.Click(chromedp.CSS("#passage-doc")))
			p.wait("the document", `document.querySelector('#docview:not([hidden]) .doc-text .target')`)
			headings := eval[string](p, `[...document.querySelectorAll('#docview .doc-text .doc-heading')].map((h) => h.tagName + ' ' + h.textContent).join('\n')`)
			for _, want := range []string{"H2 1. Scope", "H2 3. Spending limits", "H3 3.1 Domestic trips (Italy)", "H3 3.2 International trips"} {
				if !strings.Contains(headings+"\n", want+"\n") {
					t.Errorf("the document's headings:\n%s\nwant %q among them", headings, want)
				}
			}
			if title := eval[int](p, `[...document.querySelectorAll('#docview .doc-text > p')].filter((e) => e.textContent.trim() === 'Travel and Expenses Policy').length`); title != 0 {
				t.Errorf("the title shows again as a paragraph")
			}
			frame := eval[string](p, `(() => { const t = document.querySelector('#docview .doc-text .target'); const r = t.getBoundingClientRect();
				const col = document.querySelector('#docview .doc-text').getBoundingClientRect();
				return [t.getClientRects().length, getComputedStyle(t).display, r.left < col.left + 24 && r.right > col.right - 24, Boolean(t.querySelector('mark'))].join(' '); })()`)
			if frame != "1 block true true" {
				t.Errorf("the cited passage: boxes, display, spans the column, quote marked = %s, want one framed block across the column with its quote", frame)
			}
			p.shot("document-pdf", 0)
		})
	}
}

// TestFloorReasonTranslated: the why view's floor reason is written by
// the page in its language: in English the server's own sentence, in
// Italian one that names the soglia.
func TestFloorReasonTranslated(t *testing.T) {
	url := serveOffline(t)
	dir := screenshotDir(t)
	for _, lang := range langs {
		t.Run(lang, func(t *testing.T) {
			p := openSignedIn(t, url, dir, lang)
			for _, q := range []string{"What is the capital of Mongolia?", "How many days of annual leave do full-time employees accrue?"} {
				p.do("new conversation", chromedp.Click(chromedp.CSS("#new-button")))
				p.ask(q)
				p.do("why", chromedp.Click(chromedp.CSS("article.turn .why-toggle")), chromedp.KeyEvent(kb.End))
				p.wait("the floor", `document.querySelector('article.turn .why .floor-reason')`)
				shown := eval[string](p, `document.querySelector('article.turn .why .floor-reason').textContent`)
				server := eval[string](p, `JSON.parse(localStorage.getItem('fonte.conversation.default'))[0].answer.trace.floor.reason`)
				switch {
				case lang == "en-US" && shown != server:
					t.Errorf("%s: the page says %q, the server %q", q, shown, server)
				case lang == "it-IT" && (!strings.Contains(shown, "soglia") || strings.Contains(shown, "floor") || strings.Contains(shown, "relevance")):
					t.Errorf("%s: the Italian page says %q (the server: %q)", q, shown, server)
				}
				t.Logf("%s %s: %s", lang, q, shown)
			}
			p.shot("floor-reason-"+lang, 0)
		})
	}
}

// TestAbstainAboveFloorSaysWhy: when the best passage reaches the floor
// but a later check abstains (here the question names a city no passage
// holding its words names), the page does not say the best passage
// scored below the floor, and the why view does not call it answered:
// both give the check's reason.
func TestAbstainAboveFloorSaysWhy(t *testing.T) {
	url := serveOffline(t)
	dir := screenshotDir(t)
	for _, lang := range langs {
		t.Run(lang, func(t *testing.T) {
			p := openSignedIn(t, url, dir, lang)
			p.ask("How much can I spend per night on a hotel in Denver?")
			p.wait("the abstention", `document.querySelector('article.turn.abstained .abstain')`)
			f := eval[map[string]any](p, `JSON.parse(localStorage.getItem('fonte.conversation.default'))[0].answer.trace.floor`)
			if f["abstained"] != false || f["relevance"].(float64) < f["floor"].(float64) {
				t.Fatalf("the question does not test a check after the floor: the floor decided %v", f)
			}
			said := eval[string](p, `document.querySelector('article.turn.abstained .abstain').textContent`)
			if strings.Contains(said, "below the floor") || strings.Contains(said, "sotto la soglia") || !strings.Contains(said, "Denver") {
				t.Errorf("the abstention says %q; want no claim that the best passage is below the floor, and the reason (Denver)", said)
			}
			p.do("why", chromedp.Click(chromedp.CSS("article.turn .why-toggle")), chromedp.KeyEvent(kb.End))
			p.wait("the floor", `document.querySelector('article.turn .why .why-floor')`)
			floor := eval[string](p, `document.querySelector('article.turn .why .why-floor').textContent`)
			if strings.Contains(floor, "answered") || strings.Contains(floor, "risposto") || !strings.Contains(floor, "Denver") {
				t.Errorf("the why view's floor section says %q; want it abstained, with the reason (Denver)", floor)
			}
			p.shot("abstain-above-floor-"+lang, 0)
		})
	}
}

// openSignedIn opens the page at 1280×900 in language lang with the
// admin token, and waits for its collections.
func openSignedIn(t *testing.T, url, dir, lang string) *page {
	t.Helper()
	p := openBrowser(t, url, dir, lang, 1280, 900)
	p.do("open the page", chromedp.Navigate(url+"/#token="+adminToken))
	p.wait("the collections", `document.querySelector('#collection option') && document.querySelector('#collection option').textContent.includes('(')`)
	return p
}

// TestAbstentionInQuestionLanguage: the abstention is said in the
// question's language, as the server says it and writes its notice,
// whatever the browser's: an Italian question in an English browser is
// told "Non lo so", an English one in an Italian browser "I don't know".
func TestAbstentionInQuestionLanguage(t *testing.T) {
	url := serveOffline(t)
	dir := screenshotDir(t)
	for _, c := range []struct{ browser, question, lang, want, floor, notWant string }{
		{"en-US", "Chi è il calciatore preferito dall'amministratore delegato?", "it", "Non lo so", "sotto la soglia di 0,25", "I don't know"},
		{"it-IT", "Who is the CEO's favourite footballer?", "en", "I don't know", "below the floor of 0.25", "Non lo so"},
	} {
		t.Run(c.browser, func(t *testing.T) {
			p := openSignedIn(t, url, dir, c.browser)
			p.ask(c.question)
			p.wait("the abstention", `document.querySelector('article.turn.abstained .abstain')`)
			said := eval[string](p, `document.querySelector('article.turn.abstained .abstain').textContent`)
			if !strings.Contains(said, c.want) || !strings.Contains(said, c.floor) || strings.Contains(said, c.notWant) {
				t.Errorf("the abstention says %q; want %q and %q, in the question's language", said, c.want, c.floor)
			}
			if got := eval[string](p, `document.querySelector('article.turn.abstained .abstain').lang`); got != c.lang {
				t.Errorf("the abstention's lang attribute is %q, want %q", got, c.lang)
			}
			p.shot("abstention-question-language-"+c.browser, 0)
		})
	}
}
