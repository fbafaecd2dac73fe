package web_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/fonte-rag/fonte/engine"
)

// box is an element's getBoundingClientRect, in CSS pixels of the
// viewport.
type box struct {
	Top, Bottom, Left, Right float64
}

// boxes measures the elements named by CSS selectors (searched inside
// the last turn when they start with "turn "); a missing one is absent
// from the map. "room" is the part of the viewport no sticky bar
// covers: below the header when it is sticky, above the question box.
func (p *page) boxes(sels ...string) map[string]box {
	p.t.Helper()
	list, _ := json.Marshal(sels)
	raw := eval[string](p, fmt.Sprintf(`(() => {
		const turn = [...document.querySelectorAll('#conversation article.turn')].pop();
		const rect = (e) => { const r = e.getBoundingClientRect(); return {Top: r.top, Bottom: r.bottom, Left: r.left, Right: r.right}; };
		const out = {};
		for (const s of %s) {
			const e = s.startsWith('turn ') ? turn && turn.querySelector(s.slice(5)) : document.querySelector(s);
			if (e) out[s] = rect(e);
		}
		const header = document.querySelector('header.top');
		const form = document.getElementById('ask-form');
		const sticky = getComputedStyle(header).position === 'sticky';
		out.room = {Top: sticky ? header.getBoundingClientRect().bottom : 0, Left: 0, Right: innerWidth,
			Bottom: form.offsetParent ? Math.min(innerHeight, form.getBoundingClientRect().top) : innerHeight};
		return JSON.stringify(out);
	})()`, list))
	out := map[string]box{}
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		p.t.Fatalf("boxes: %v: %s", err, raw)
	}
	return out
}

// inView fails the test for each element of sels that is missing or not
// wholly inside the room no sticky bar covers.
func (p *page) inView(what string, sels ...string) {
	p.t.Helper()
	b := p.boxes(sels...)
	room := b["room"]
	p.t.Logf("%s: room %.0f..%.0f of %.0f px", what, room.Top, room.Bottom, b["room"].Right)
	for _, s := range sels {
		e, ok := b[s]
		switch {
		case !ok:
			p.t.Errorf("%s: no %s on the page", what, s)
		case e.Top < room.Top-0.5 || e.Bottom > room.Bottom+0.5 || e.Left < room.Left-0.5 || e.Right > room.Right+0.5:
			p.t.Errorf("%s: %s at %+v, outside the room %+v the header and the question box leave", what, s, e, room)
		default:
			p.t.Logf("%s: %s at y %.0f..%.0f", what, s, e.Top, e.Bottom)
		}
	}
}

// settle waits until the page has stopped scrolling (smooth scrolls
// included).
func (p *page) settle() {
	p.t.Helper()
	p.wait("the scroll to settle", `new Promise((done) => { let last = -1, still = 0;
		const tick = () => { if (scrollY === last) { if (++still >= 6) return done(true); } else { still = 0; last = scrollY; } setTimeout(tick, 50); };
		tick(); })`)
}

// serveOffline serves the example handbook as a user gets it: the
// offline extractive answerer and the default retriever.
func serveOffline(t *testing.T) string {
	t.Helper()
	return serveHandbook(t, engine.Settings{})
}

var (
	sizes = [][2]int64{{360, 740}, {1280, 900}}
	langs = []string{"en-US", "it-IT"}
	// questions are two questions a person asks in a row, in the
	// browser's language.
	questions = map[string][2]string{
		"en-US": {"How many days of annual leave do full-time employees accrue?", "How much can I spend per night on a hotel in London?"},
		"it-IT": {"Quanti giorni a settimana posso lavorare da casa?", "Qual è il codice destinatario per le fatture elettroniche?"},
	}
)

// TestAnswerInView: on a phone and on a desktop, in English and in
// Italian, once an answer arrives below an earlier one its text, its
// first citation and its first source show between the header and the
// question box without scrolling; the why view opens in view and fits
// the width, its wide tables marked as scrolling sideways.
func TestAnswerInView(t *testing.T) {
	url := serveOffline(t)
	dir := screenshotDir(t)
	for _, lang := range langs {
		for _, size := range sizes {
			t.Run(fmt.Sprintf("%s-%d", lang, size[0]), func(t *testing.T) {
				p := openBrowser(t, url, dir, lang, size[0], size[1])
				p.do("open the page", chromedp.Navigate(url+"/#token="+adminToken))
				p.wait("the collections", `document.querySelector('#collection option') && document.querySelector('#collection option').textContent.includes('(')`)
				for _, q := range questions[lang] {
					p.ask(q)
				}
				if n := eval[int](p, `document.querySelectorAll('#conversation article.turn').length`); n != 2 {
					t.Fatalf("%d turns, want 2", n)
				}
				if model := eval[string](p, `[...document.querySelectorAll('#conversation .model')].pop().textContent`); model != "fonte/extractive" {
					t.Errorf("the answer's model is %q, want fonte/extractive", model)
				}
				p.settle()
				p.inView("the latest answer", "turn .answer-text p", "turn .answer-text button.cite", "turn .sources button.source")
				p.shot(fmt.Sprintf("answer-%s", lang), 0)
				if w := eval[int](p, `document.documentElement.scrollWidth`); w > int(size[0]) {
					t.Errorf("the page is %d px wide in a %d px window", w, size[0])
				}

				p.do("open why", chromedp.Click(chromedp.CSS(`#conversation article.turn:last-of-type .why-toggle`)))
				p.wait("the trace", `document.querySelector('#conversation article.turn:last-of-type .why:not([hidden]) .why-floor')`)
				p.settle()
				p.inView("the why view's start", "turn .why-toggle", "turn .why h4")
				b := p.boxes("turn .why")
				if why := b["turn .why"]; why.Right > float64(size[0])+0.5 || why.Left < -0.5 {
					t.Errorf("the why view spans %v..%v in a %d px window", why.Left, why.Right, size[0])
				}
				// Every table of the trace fits its column or says it scrolls.
				if bad := eval[string](p, `[...document.querySelectorAll('#conversation article.turn:last-of-type .why .scroll-x')]
					.filter((x) => { const w = x.querySelector('.table-wrap'); return w.scrollWidth > w.clientWidth + 1 && !(x.classList.contains('scrolls') && getComputedStyle(x.querySelector('.scroll-hint')).display !== 'none'); })
					.map((x) => x.querySelector('caption').textContent).join(', ')`); bad != "" {
					t.Errorf("tables clipped without a hint: %s", bad)
				}
				if w := eval[int](p, `document.documentElement.scrollWidth`); w > int(size[0]) {
					t.Errorf("with the why view open the page is %d px wide in a %d px window", w, size[0])
				}
				p.shot(fmt.Sprintf("why-%s", lang), 0)
			})
		}
	}
}

// settleAfter is how long a test gives a sideways-scrolling frame to
// notice its size (a ResizeObserver's callback runs after layout).
const settleAfter = 200 * time.Millisecond

// TestEvalOnPhone: the Eval tab offers the collection's own retriever
// first and analyses its floor; at 360 px the metrics table that does
// not fit says it scrolls sideways (hint and shadow), at 1280 px it
// fits; the plots' labels read at 10 px or more at both widths.
func TestEvalOnPhone(t *testing.T) {
	url := serveOffline(t)
	dir := screenshotDir(t)
	six := sixQuestions(t)
	for _, size := range sizes {
		t.Run(fmt.Sprint(size[0]), func(t *testing.T) {
			p := openBrowser(t, url, dir, "en-US", size[0], size[1])
			p.do("open the page", chromedp.Navigate(url+"/#token="+adminToken))
			p.wait("the collections", `document.querySelector('#collection option') && document.querySelector('#collection option').textContent.includes('(')`)
			p.do("eval tab", chromedp.Click(chromedp.CSS("#tab-eval")))
			p.wait("the retrievers", `document.querySelectorAll('#eval-retrievers input').length === 3`)
			if got := eval[string](p, `[...document.querySelectorAll('#eval-retrievers label')].map((l) => l.textContent.trim() + (l.querySelector('input').checked ? '+' : '-')).join(' | ')`); got != "bm25 (the collection's own)+ | hybrid+ | vector+" {
				t.Errorf("the retrievers offered: %q, want bm25 (the collection's default) first", got)
			}
			p.do("load the questions", chromedp.SetUploadFiles(chromedp.CSS("#eval-upload"), []string{six}, chromedp.NodeReady))
			p.wait("the loaded questions", `document.getElementById('eval-questions').value.split('\n').filter((l) => l.trim()).length === 6`)
			p.do("run the evaluation", chromedp.Click(chromedp.CSS("#eval-run")))
			p.wait("the evaluation", `document.querySelector('#eval-results .eval-table tbody tr') || document.querySelector('#eval-status.error')`)
			if msg := eval[string](p, `document.querySelector('#eval-status.error') ? document.getElementById('eval-status').textContent : ''`); msg != "" {
				t.Fatalf("the evaluation failed: %s", msg)
			}
			if got := eval[string](p, `document.querySelector('#eval-results .eval-floor h2').textContent + ' / ' + document.querySelector('#eval-results .eval-table tbody th').textContent`); got != "Abstain floor (bm25) / bm25" {
				t.Errorf("the floor is analysed for %q, want the collection's bm25 first", got)
			}
			time.Sleep(settleAfter)
			p.do("scroll to the table", chromedp.ScrollIntoView(chromedp.CSS("#eval-results .scroll-x")))
			metrics := eval[string](p, `(() => { const x = document.querySelector('#eval-results .scroll-x'); const w = x.querySelector('.table-wrap');
				const hint = x.querySelector('.scroll-hint').getBoundingClientRect();
				return [w.scrollWidth > w.clientWidth + 1, x.classList.contains('scrolls'), getComputedStyle(x.querySelector('.scroll-frame'), '::after').opacity, hint.height > 0 && hint.bottom <= innerHeight && hint.right <= innerWidth].join(' '); })()`)
			want := "false false 0 false"
			if size[0] == 360 {
				want = "true true 1 true"
			}
			if metrics != want {
				t.Errorf("the metrics table: overflows, marked, right shadow's opacity, hint shown = %s, want %s", metrics, want)
			}
			small := eval[string](p, `[...document.querySelectorAll('#eval-results figure.plot svg text')].filter((e) => e.getBoundingClientRect().height < 10 && e.textContent.trim()).map((e) => e.textContent + ' ' + e.getBoundingClientRect().height.toFixed(1)).join(', ')`)
			if n := eval[int](p, `document.querySelectorAll('#eval-results figure.plot svg text').length`); n == 0 || small != "" {
				t.Errorf("%d plot labels; under 10 px: %s", n, small)
			}
			if w := eval[int](p, `document.documentElement.scrollWidth`); w > int(size[0]) {
				t.Errorf("the page is %d px wide in a %d px window", w, size[0])
			}
			p.shot("eval-offline", 0)
			p.do("scroll to the plots", chromedp.ScrollIntoView(chromedp.CSS("#eval-results .plots")))
			p.shot("eval-plots", 0)
		})
	}
}
