// ask.js — the Ask tab: the conversation (first question to POST /ask,
// follow-ups to POST /chat with the previous turn's history), the answer
// streamed token by token, citation markers [n] as buttons opening the
// passage, unsupported sentences marked, the abstention state, the "why"
// toggle, and the conversation kept in localStorage (per collection)
// with each citation checked again on reload.

import { stream, base, collection, explain } from './api.js';
import { el, $ } from './dom.js';
import { t, tIn, speaks, num } from './i18n.js';
import { renderTrace, floorReason } from './why.js';
import { openPassage, checkPassage, closePassage } from './passage.js';

let turns = []; // {question, text, citations, answer, state, error}
let views = new Map(); // turn → its view
let controller = null; // the request in flight
let authFailed = () => {};

const storeKey = () => 'fonte.conversation.' + collection();

export function initAsk({ onAuthError }) {
  authFailed = onAuthError || authFailed;
  const form = $('#ask-form');
  const q = $('#question');
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = q.value.trim();
    if (!text || controller) return;
    q.value = '';
    ask(text);
  });
  q.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      form.requestSubmit();
    }
  });
  $('#stop-button').addEventListener('click', () => controller && controller.abort());
  $('#new-button').addEventListener('click', () => {
    if (controller) controller.abort();
    turns = [];
    save();
    render();
    closePassage();
    q.focus();
  });
}

// loadConversation shows the collection's kept conversation and checks
// its citations against the index.
export function loadConversation() {
  try {
    const kept = JSON.parse(localStorage.getItem(storeKey()) || '[]');
    turns = Array.isArray(kept) ? kept.filter((x) => x && x.answer) : [];
  } catch {
    turns = [];
  }
  render();
  recheck();
}

function save() {
  const kept = turns.filter((x) => x.answer).map(({ question, text, citations, answer }) => ({ question, text, citations, answer, state: 'done' }));
  try {
    localStorage.setItem(storeKey(), JSON.stringify(kept));
  } catch {
    // Over the quota: keep the conversation without the traces.
    try {
      localStorage.setItem(storeKey(), JSON.stringify(kept.map((x) => ({ ...x, answer: { ...x.answer, trace: undefined } }))));
    } catch { /* the conversation lives in this page only */ }
  }
}

function render() {
  const conv = $('#conversation');
  views = new Map();
  conv.replaceChildren();
  for (const turn of turns) {
    const v = turnView(turn);
    conv.append(v.root);
    v.update();
  }
  $('#empty').hidden = turns.length > 0;
}

// recheck asks the index about every kept citation: a 404 marks it gone,
// a changed document stale.
async function recheck() {
  const seen = new Map();
  for (const turn of turns) {
    for (const c of turn.citations || []) {
      if (!c.chunk) continue;
      const key = c.chunk + '|' + c.doc_sha256;
      if (!seen.has(key)) seen.set(key, checkPassage(c).then((r) => r.state, () => null));
      const state = await seen.get(key);
      if (state) setCitationState(c, state, false);
    }
  }
  save();
}

function setCitationState(c, state, persist = true) {
  const before = c.state || 'ok';
  c.state = state === 'ok' ? undefined : state;
  if (before !== state) {
    for (const [turn, v] of views) if ((turn.citations || []).includes(c)) v.update();
    if (persist) save();
  }
}

// citationChanged is called by the passage panel after it checked c.
export function citationChanged(c, state) { setCitationState(c, state); }

async function ask(question) {
  const prev = [...turns].reverse().find((x) => x.answer);
  const chat = Boolean(prev);
  const body = { question, trace: true };
  if (chat) {
    body.history = prev.answer.history || [
      { role: 'user', content: prev.answer.query || prev.question },
      { role: 'assistant', content: prev.answer.answer || '' },
    ];
  }
  const turn = { question, text: '', citations: null, answer: null, state: 'searching' };
  turns.push(turn);
  $('#empty').hidden = true;
  const v = turnView(turn);
  $('#conversation').append(v.root);
  v.update();
  showInView(v.root, v.root, v.root);
  controller = new AbortController();
  setBusy(true);
  try {
    await stream('POST', base() + (chat ? '/chat' : '/ask'), body, (name, data) => {
      if (name === 'token') {
        turn.text += data.text || '';
        turn.state = 'streaming';
      } else if (name === 'citations') {
        turn.citations = Array.isArray(data) ? data : [];
      } else if (name === 'done') {
        turn.answer = data;
        turn.text = data.answer || turn.text;
        turn.citations = data.citations || turn.citations || [];
        turn.state = 'done';
      }
      v.update();
    }, { signal: controller.signal });
    if (!turn.answer) throw new Error(t('error.stream'));
  } catch (e) {
    if (e.name === 'AbortError') {
      turn.state = 'stopped';
    } else {
      turn.state = 'error';
      turn.error = explain(e);
      if (e.status === 401 || e.status === 403) authFailed(e);
    }
  } finally {
    controller = null;
    setBusy(false);
    v.update();
    save();
  }
  if (turns[turns.length - 1] === turn) showInView(v.root, v.root.querySelector('.answer'), v.root.querySelector('.sources:not([hidden]) .source') || v.root.querySelector('.answer'));
}

// showInView scrolls the page so that from `top` down to the bottom of
// `last` shows between the sticky header (when it is sticky) and the
// question box; when that is taller than the room, it starts at `lead`
// instead (the answer rather than its question). A page too short to
// scroll that far ends at its bottom, where the box follows the turn.
function showInView(top, lead, last) {
  const header = $('header.top');
  const above = getComputedStyle(header).position === 'sticky' ? header.getBoundingClientRect().height : 0;
  const below = $('#ask-form').getBoundingClientRect().height;
  const room = innerHeight - above - below;
  const margin = 8;
  const from = last.getBoundingClientRect().bottom - top.getBoundingClientRect().top + 2 * margin <= room ? top : lead;
  const smooth = !matchMedia('(prefers-reduced-motion: reduce)').matches;
  window.scrollBy({ top: from.getBoundingClientRect().top - above - margin, behavior: smooth ? 'smooth' : 'instant' });
}

function setBusy(on) {
  $('#ask-button').disabled = on;
  $('#stop-button').hidden = !on;
  $('#conversation').setAttribute('aria-busy', on ? 'true' : 'false');
  if (!on) $('#question').focus({ preventScroll: true });
}

let turnIds = 0;

// turnView builds the DOM of one turn; update() redraws it from the turn.
function turnView(turn) {
  const id = 'turn-' + ++turnIds;
  const status = el('p', { class: 'status' });
  const text = el('div', { class: 'answer-text' });
  const extra = el('div', { class: 'answer-extra' });
  const sources = el('section', { class: 'sources', hidden: true });
  const whyBody = el('div', { class: 'why', id: id + '-why', hidden: true });
  const whyButton = el('button', { type: 'button', class: 'why-toggle ghost', 'aria-expanded': 'false', 'aria-controls': id + '-why', hidden: true }, t('why.show'));
  whyButton.addEventListener('click', () => {
    const open = whyButton.getAttribute('aria-expanded') !== 'true';
    whyButton.setAttribute('aria-expanded', String(open));
    whyButton.textContent = open ? t('why.hide') : t('why.show');
    whyBody.hidden = !open;
    if (open && !whyBody.firstChild && turn.answer) whyBody.append(renderTrace(turn.answer.trace, turn.answer));
    // The trace opens below the answer, often under the question box:
    // bring its start up, with the button that closes it.
    if (open) showInView(whyButton, whyButton, whyBody);
  });
  const rewritten = el('p', { class: 'rewritten', hidden: true });
  const modelNote = el('span', { class: 'model muted' });
  const root = el('article', { class: 'turn', id },
    el('div', { class: 'question' }, el('span', { class: 'who' }, t('you')), el('p', { class: 'question-text' }, turn.question)),
    el('div', { class: 'answer' }, status, text, extra),
    // Under the answer, the query searched when the question was
    // rewritten from the conversation: what the answer is about.
    rewritten,
    sources,
    el('div', { class: 'turn-tools' }, whyButton, modelNote),
    whyBody);

  const update = () => {
    // Redrawing replaces the buttons: keep the focus on the same one.
    const active = document.activeElement;
    let keep = null;
    if (active && root.contains(active) && active.dataset.n) keep = (active.classList.contains('cite') ? '.cite' : '.source') + '[data-n="' + active.dataset.n + '"]';
    draw();
    if (keep) { const again = root.querySelector(keep); if (again) again.focus({ preventScroll: true }); }
  };
  const draw = () => {
    const a = turn.answer;
    root.dataset.state = turn.state;
    root.classList.toggle('abstained', Boolean(a && a.abstained));
    status.hidden = !['searching', 'streaming', 'stopped'].includes(turn.state);
    status.textContent = turn.state === 'searching' ? t('searching') : turn.state === 'streaming' ? t('writing') : t('stopped');
    status.className = 'status ' + (turn.state === 'stopped' ? '' : 'working');

    if (a && a.query && norm(a.query) !== norm(turn.question)) {
      rewritten.hidden = false;
      rewritten.replaceChildren(el('span', { class: 'muted' }, t('rewritten')), a.query);
    }

    extra.replaceChildren();
    if (turn.state === 'error') extra.append(el('p', { class: 'error', role: 'alert' }, turn.error));
    // Written by the server in the question's language: nothing was found
    // in it, and the passages shown are in another.
    if (a && a.notice) extra.append(el('p', { class: 'lang-notice', role: 'note', lang: a.lang || null }, a.notice));
    if (a && a.abstained) {
      text.replaceChildren();
      text.hidden = true;
      extra.append(abstention(a));
    } else {
      text.hidden = false;
      renderAnswerText(text, turn.text, turn.citations || [], a ? unsupportedOf(a) : [], a ? a.bad_citations || [] : []);
      if (turn.state === 'streaming') text.append(el('span', { class: 'caret', 'aria-hidden': 'true' }));
    }

    // The sources the answer cites first; the other passages it was given
    // folded away (an abstention's are all its nearest passages).
    const cs = turn.citations || [];
    const citedNs = new Set([...(turn.text || '').matchAll(CITE)].flatMap((m) => m[1].split(/\s*,\s*/).map(Number)));
    const cited = a && a.abstained ? cs : cs.filter((c) => citedNs.has(c.n));
    const others = a && a.abstained ? [] : cs.filter((c) => !citedNs.has(c.n));
    sources.hidden = cs.length === 0 || turn.state === 'searching';
    const wasOpen = Boolean(sources.querySelector('details[open]'));
    sources.replaceChildren(el('h3', {}, a && a.abstained ? t('nearest') : t('sources')),
      el('ol', { class: 'source-list' }, cited.map((c) => el('li', {}, sourceButton(c)))),
      others.length ? el('details', { class: 'other-sources', open: wasOpen }, el('summary', {}, t('others', { n: others.length })),
        el('ol', { class: 'source-list' }, others.map((c) => el('li', {}, sourceButton(c))))) : '');

    whyButton.hidden = !a;
    modelNote.textContent = a && a.model ? a.model : '';
  };
  views.set(turn, { root, update });
  return { root, update };
}

function norm(s) { return (s || '').trim().toLowerCase().replace(/[\s?!.]+$/u, '').replace(/\s+/g, ' '); }

function stateBadge(c) {
  if (!c.state) return null;
  return el('span', { class: 'badge stale', title: t('stale.title') }, t('stale'));
}

function sourceButton(c) {
  const where = [c.heading, c.page ? t('page', { n: c.page }) : ''].filter(Boolean).join(' · ');
  const b = el('button', { type: 'button', class: 'source' + (c.state ? ' is-stale' : ''), 'aria-expanded': 'false', dataset: { n: c.n, chunk: c.chunk } },
    el('span', { class: 'n' }, String(c.n)),
    el('span', { class: 'source-main' }, el('span', { class: 'source-title' }, c.title || c.doc), where ? el('span', { class: 'source-where' }, where) : null),
    stateBadge(c));
  b.addEventListener('click', () => openPassage(c, b));
  return b;
}

// abstention says "I don't know" in the question's language, as the
// server says it and writes its notice, whatever the browser's.
function abstention(a) {
  const l = speaks(a.lang);
  const say = (key, vars) => tIn(l, key, vars);
  const floor = a.trace && a.trace.floor;
  // With coverage the floor compares the best passage holding the
  // question's words (judged), which may be below the best relevance.
  const rel = floor && typeof floor.judged === 'number' && floor.coverage ? floor.judged : a.relevance;
  // The floor may have let the passages through and a later check
  // abstained (the question names a case no passage names, say): then
  // "below the floor" would be false, and the check's reason is the why.
  const passed = floor && floor.abstained === false;
  const reason = passed && a.trace.abstain_reason;
  const why = passed
    ? say('abstain.checks', { rel: num(rel, 2, l), floor: num(floor.floor, 2, l) })
    : floor && typeof floor.floor === 'number'
      ? say('abstain.floor', { rel: num(rel, 2, l), floor: num(floor.floor, 2, l) })
      : say('abstain.rel', { rel: num(a.relevance, 2, l) });
  return el('div', { class: 'abstain', role: 'status', lang: l },
    el('h3', {}, say('abstain.title')),
    el('p', {}, why),
    // The server's reason, in English whatever the page's language.
    reason ? el('p', { class: 'muted abstain-reason', lang: 'en' }, reason) : null,
    floor && typeof floor.floor !== 'number' ? el('p', { class: 'muted' }, floorReason(floor, a.trace)) : null,
    (a.citations || []).length ? el('p', { class: 'muted' }, say('abstain.nearest')) : null);
}

function unsupportedOf(a) {
  const out = new Set(a.unsupported || []);
  for (const g of (a.trace && a.trace.grounding) || []) if (g.checked && !g.supported) out.add(g.sentence);
  return [...out];
}

const CITE = /\[(\d+(?:\s*,\s*\d+)*)\]/g;

// renderAnswerText lays out the answer: paragraphs, each [n] a button
// opening source n, unsupported sentences marked.
function renderAnswerText(box, text, citations, unsupported, bad) {
  box.replaceChildren();
  const byN = new Map(citations.map((c) => [c.n, c]));
  const ranges = [];
  for (const s of unsupported) {
    const st = (s || '').trim();
    const i = st ? text.indexOf(st) : -1;
    if (i >= 0) ranges.push([i, i + st.length]);
  }
  const inBad = (i) => ranges.some(([a, b]) => i >= a && i < b);
  // Plain text [from, to), cut where an unsupported range starts or ends.
  const plain = (into, from, to) => {
    const cuts = new Set([from, to]);
    for (const [a, b] of ranges) { if (a > from && a < to) cuts.add(a); if (b > from && b < to) cuts.add(b); }
    const pts = [...cuts].sort((x, y) => x - y);
    for (let k = 0; k + 1 < pts.length; k++) {
      const piece = text.slice(pts[k], pts[k + 1]);
      if (!piece) continue;
      if (inBad(pts[k])) {
        into.append(el('span', { class: 'unsupported', title: t('unsupported') }, piece, el('span', { class: 'visually-hidden' }, ' (' + t('unsupported') + ')')));
      } else into.append(piece);
    }
  };
  const paraRe = /\n\s*\n/g;
  let start = 0;
  const paras = [];
  for (let m; (m = paraRe.exec(text));) { paras.push([start, m.index]); start = m.index + m[0].length; }
  paras.push([start, text.length]);
  for (const [ps, pe] of paras) {
    if (pe <= ps) continue;
    const p = el('p');
    let at = ps;
    CITE.lastIndex = 0;
    const chunk = text.slice(ps, pe);
    for (let m; (m = CITE.exec(chunk));) {
      const ms = ps + m.index;
      plain(p, at, ms);
      for (const nStr of m[1].split(/\s*,\s*/)) {
        const n = Number(nStr);
        p.append(citeButton(n, byN.get(n), bad.includes(n)));
      }
      at = ms + m[0].length;
    }
    plain(p, at, pe);
    box.append(p);
  }
}

function citeButton(n, c, bad) {
  if (bad) {
    return el('span', { class: 'cite bad', title: t('bad.cite') }, '[' + n + ']');
  }
  const label = c ? t('source.of', { n, title: c.title || c.doc }) : t('source', { n });
  const b = el('button', { type: 'button', class: 'cite' + (c && c.state ? ' is-stale' : ''), 'aria-label': label, 'aria-expanded': 'false', dataset: { n }, disabled: c ? null : true }, String(n));
  if (c) b.addEventListener('click', () => openPassage(c, b));
  return b;
}
