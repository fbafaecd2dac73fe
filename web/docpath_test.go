package web_test

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestDocLinkStaysOnDocuments: a crafted link #doc=..%2F..%2Fv1%2Fstatus
// must not make the page fetch another route with the stored token; the
// document view says the id is not one, and an ordinary link still opens
// its document.
func TestDocLinkStaysOnDocuments(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatalf("the web tests need Chromium (apt-get install chromium; scripts/test installs it): %v", err)
	}
	url := startServer(t)
	actx, cancel := chromedp.NewExecAllocator(context.Background(), append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("lang", "en-US"), chromedp.Env("LANGUAGE=en_US"))...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	p := &page{t: t, ctx: ctx, url: url, dir: screenshotDir(t), wide: 1280}
	// The first action starts the browser, which lives as long as its
	// context: this one, not a step's timeout.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 860)); err != nil {
		t.Fatal(err)
	}
	p.do("open the page", chromedp.Navigate(url+"/#token="+adminToken))
	p.wait("the collections", `document.querySelector('#collection option')`)
	// Every path the page fetches from now on, as the browser resolves it.
	eval[bool](p, `(() => { window.fetched = []; const f = window.fetch;
		window.fetch = (u, i) => { window.fetched.push(new URL(String(u), location.href).pathname); return f(u, i); }; return true; })()`)

	for _, attack := range []string{"..%2F..%2Fv1%2Fstatus", "..%2F..%2Fv1%2Fcollections", ".%2F..%2Fstatus", "a%2F..%2F..%2F..%2Fmetrics"} {
		p.do("open #doc="+attack, chromedp.Evaluate[chromedp.Void](`location.hash = '#doc=`+attack+`'`))
		p.wait("the refusal of "+attack, `document.querySelector('#docview:not([hidden]) #docview-body .error')`)
		if msg := eval[string](p, `document.querySelector('#docview-body .error').textContent`); !strings.Contains(msg, "is not a document id") {
			t.Errorf("#doc=%s: the view says %q", attack, msg)
		}
		p.do("leave", chromedp.Evaluate[chromedp.Void](`history.replaceState(null, '', location.pathname); document.querySelector('#docview-body').replaceChildren()`))
	}
	p.do("open a real document", chromedp.Evaluate[chromedp.Void](`location.hash = '#doc=people%2Fleave.md'`))
	p.wait("the document", `document.querySelector('#docview:not([hidden]) .doc-text')`)
	fetched := eval[[]string](p, `window.fetched`)
	for _, path := range fetched {
		if !strings.HasPrefix(path, "/v1/documents/") {
			t.Errorf("the page fetched %s", path)
		}
	}
	if len(fetched) != 1 || fetched[0] != "/v1/documents/people/leave.md" {
		t.Errorf("fetched %q, want only the real document", fetched)
	}
}
