// passage.js — the cited passage beside the answer (a side panel on a
// wide screen, a sheet from the bottom on a phone) with the quoted span
// highlighted, and the whole-document view scrolled to that passage.
// Also checks a kept citation against the index: gone (404) or stale
// (the document changed since).

import { call, base, segments, ApiError, explain } from './api.js';
import { el, $, highlight, quoteRange } from './dom.js';
import { t, date } from './i18n.js';

// checkPassage fetches the passage a citation names and says whether it
// is still there and unchanged: {state: 'ok'|'stale'|'gone', passage}.
export async function checkPassage(c) {
  const q = c.doc_sha256 ? '?doc_sha256=' + encodeURIComponent(c.doc_sha256) : '';
  try {
    const p = await call('GET', base() + '/passages/' + segments(c.chunk) + q);
    return { state: p.stale ? 'stale' : 'ok', passage: p };
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return { state: 'gone', passage: null };
    throw e;
  }
}

let opener = null; // the button that opened the panel, focused again on close
let openerTurn = null; // the id of the opener's turn and a selector for it,
let openerSel = null; // should the answer be redrawn meanwhile
let onState = null; // called with (citation, state) after a check

export function initPassage(stateChanged) {
  onState = stateChanged;
  $('#passage-close').addEventListener('click', closePassage);
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && !$('#passage').hidden && !document.querySelector('dialog[open]')) {
      e.preventDefault();
      closePassage();
    }
  });
  window.addEventListener('hashchange', route);
  $('#passage-doc').addEventListener('click', () => { fromPage = true; });
  $('#docview-back').addEventListener('click', (e) => { e.preventDefault(); leaveDocument(); });
}

export function closePassage() {
  const panel = $('#passage');
  if (panel.hidden) return;
  panel.hidden = true;
  document.body.classList.remove('sheet-open');
  for (const b of document.querySelectorAll('.cite[aria-expanded="true"], .source[aria-expanded="true"]')) b.setAttribute('aria-expanded', 'false');
  if (opener && !document.contains(opener) && openerTurn) {
    // The answer was redrawn since: focus the same button in it.
    const turn = document.getElementById(openerTurn);
    opener = turn && turn.querySelector(openerSel);
  }
  if (opener) opener.focus();
  opener = null;
}

function docLink(c) {
  return '#doc=' + encodeURIComponent(c.doc) + '&chunk=' + encodeURIComponent(c.chunk);
}

function meta(c, p) {
  const bits = [];
  if (p && p.page || c.page) bits.push(t('page', { n: (p && p.page) || c.page }));
  const d = date(c.updated);
  if (d) bits.push(t('updated', { date: d }));
  bits.push(c.doc);
  return bits.join(' · ');
}

// openPassage shows citation c in the panel; from is the button pressed.
export async function openPassage(c, from) {
  const panel = $('#passage');
  for (const b of document.querySelectorAll('.cite[aria-expanded="true"], .source[aria-expanded="true"]')) b.setAttribute('aria-expanded', 'false');
  opener = from || null;
  const art = from && from.closest('article');
  openerTurn = art ? art.id : null;
  openerSel = from ? (from.classList.contains('cite') ? '.cite' : '.source') + '[data-n="' + from.dataset.n + '"]' : null;
  if (from) from.setAttribute('aria-expanded', 'true');
  panel.hidden = false;
  panel.dataset.chunk = c.chunk;
  lastCitation = c;
  document.body.classList.add('sheet-open');
  $('#passage-source').textContent = t('source', { n: c.n });
  $('#passage-title').textContent = c.title || c.doc;
  $('#passage-path').textContent = (c.headings && c.headings.length ? c.headings : (c.heading ? [c.heading] : [])).join(' › ');
  $('#passage-meta').textContent = meta(c, null);
  const stale = $('#passage-stale');
  stale.hidden = true;
  const text = $('#passage-text');
  text.replaceChildren(el('p', { class: 'muted' }, t('passage.loading')));
  text.classList.remove('gone');
  $('#passage-quote').hidden = true;
  $('#passage-doc').href = docLink(c);
  $('#passage-title').focus();

  let res;
  try {
    res = await checkPassage(c);
  } catch (e) {
    text.replaceChildren(el('p', { class: 'error' }, explain(e)));
    return;
  }
  if (panel.dataset.chunk !== c.chunk) return; // another citation was opened meanwhile
  if (onState) onState(c, res.state);
  if (res.state === 'gone') {
    stale.hidden = false;
    stale.textContent = t('stale.gone');
    text.replaceChildren();
    text.classList.add('gone');
    showQuoteOnly(c);
    $('#passage-doc').hidden = true;
    return;
  }
  $('#passage-doc').hidden = false;
  const p = res.passage;
  if (res.state === 'stale') { stale.hidden = false; stale.textContent = t('stale.note'); }
  if (p.headings && p.headings.length) $('#passage-path').textContent = p.headings.join(' › ');
  $('#passage-meta').textContent = meta(c, p);
  const block = el('div', { class: 'passage-body' });
  text.replaceChildren(block);
  const mark = highlight(block, p.text, c.quote, c.start - p.start, c.end - p.start);
  if (mark) mark.scrollIntoView({ block: 'center', behavior: 'instant' });
  else showQuoteOnly(c);
}

function showQuoteOnly(c) {
  if (!c.quote) return;
  const q = $('#passage-quote');
  q.hidden = false;
  q.replaceChildren(el('strong', {}, t('passage.quote')), el('q', {}, c.quote));
}

// The whole-document view: #doc=ID&chunk=CHUNK shows GET …/documents/ID
// whole, the cited passage set apart and scrolled to, its quote marked.
let lastCitation = null; // the citation whose passage was shown last

function route() {
  const h = new URLSearchParams(location.hash.slice(1));
  if (h.has('doc')) showDocument(h.get('doc'), h.get('chunk'));
  else hideDocument();
}

export function routeNow() { route(); }

function hideDocument() {
  const v = $('#docview');
  if (v.hidden) return;
  v.hidden = true;
  document.body.classList.remove('docview-open');
}

let fromPage = false; // the document view was opened from a passage link

function leaveDocument() {
  if (fromPage) { fromPage = false; history.back(); return; }
  history.replaceState(null, '', location.pathname + location.search);
  hideDocument();
}

// SECTION is a heading's section number ("3." or "3.1") and its text.
const SECTION = /^(\d{1,2}(?:\.\d{1,2})*)\.?\s+\p{L}/u;

// documentBlocks lays out a document's text as a reader sees it: its
// paragraphs (blocks separated by a blank line) as paragraphs, and the
// lines its chunks name as headings (and, in a numbered document, the
// numbered lines) as headings of their depth (the title, shown above,
// left out). The blocks of chunk c are set apart in
// one frame, the target, with the quote of citation q marked.
function documentBlocks(d, c, q) {
  const text = d.text || '';
  const bytes = new TextEncoder().encode(text);
  const depth = new Map(); // heading text → its depth (1: top level)
  for (const x of d.chunks || []) (x.headings || []).forEach((h, i) => { if (!depth.has(h.trim())) depth.set(h.trim(), i + 1); });
  const [a, b] = c ? chars(bytes, c.start, c.end) : [-1, -1];
  let mark = null; // the quote's string indexes in text
  if (c && q) {
    const r = quoteRange(text.slice(a, b), q.quote, q.start - c.start, q.end - c.start);
    if (r) mark = [a + r[0], a + r[1]];
  }
  // A heading merged into a neighbour's chunk is on no heading path; in a
  // document whose headings are numbered ("3.1 Domestic trips"), a short
  // line numbered the same way is one, its depth its number's parts.
  const numbered = [...depth.keys()].some((h) => SECTION.test(h));
  const numberedDepth = (line) => {
    const m = numbered && line.length <= 80 && !/[.:;,]$/.test(line) ? SECTION.exec(line) : null;
    return m ? m[1].split('.').length : undefined;
  };
  const doc = el('div', { class: 'doc-text' });
  const target = c ? el('div', { class: 'target', tabindex: '-1', id: 'doc-target' }) : null;
  const blank = /\n[ \t]*\n/g;
  let from = 0;
  const blocks = [];
  for (let m; (m = blank.exec(text));) { blocks.push([from, m.index]); from = m.index + m[0].length; }
  blocks.push([from, text.length]);
  for (const [s, e] of blocks) {
    const line = text.slice(s, e).trim();
    if (!line) continue;
    if (s === 0 && line === (d.title || '').trim()) continue;
    const level = line.includes('\n') || line.length > 200 ? undefined : depth.get(line) ?? numberedDepth(line);
    const node = level ? el('h' + Math.min(6, level + 1), { class: 'doc-heading' }) : el('p');
    // The quote's part in this block, if any.
    if (mark && mark[0] < e && mark[1] > s) {
      const ms = Math.max(s, mark[0]), me = Math.min(e, mark[1]);
      node.append(text.slice(s, ms), el('mark', {}, text.slice(ms, me)), text.slice(me, e));
    } else node.append(text.slice(s, e));
    (target && s < b && e > a ? target : doc).append(node);
    if (target && s < b && e > a && !target.parentNode) doc.append(target);
  }
  return { doc, target };
}

// chars converts byte offsets into text to string indexes.
function chars(bytes, start, end) {
  const dec = new TextDecoder();
  const a = dec.decode(bytes.slice(0, Math.max(0, start))).length;
  return [a, a + dec.decode(bytes.slice(Math.max(0, start), Math.max(start, end))).length];
}

async function showDocument(id, chunk) {
  closePassage();
  const v = $('#docview');
  v.hidden = false;
  document.body.classList.add('docview-open');
  const body = $('#docview-body');
  $('#docview-title').textContent = id;
  $('#docview-meta').textContent = '';
  body.replaceChildren(el('p', { class: 'muted' }, t('doc.loading')));
  $('#docview-title').focus();
  try {
    const d = await call('GET', base() + '/documents/' + segments(id));
    $('#docview-title').textContent = d.title || d.id;
    $('#docview-meta').textContent = [d.id, d.language, t('doc.passages', { n: (d.chunks || []).length }), date(d.updated) ? t('updated', { date: date(d.updated) }) : ''].filter(Boolean).join(' · ');
    const c = (d.chunks || []).find((x) => x.chunk === chunk);
    const q = c && lastCitation && lastCitation.chunk === chunk ? lastCitation : null;
    const { doc, target } = documentBlocks(d, c, q);
    body.replaceChildren(doc);
    if (target) {
      target.scrollIntoView({ block: 'center', behavior: 'instant' });
      target.focus({ preventScroll: true });
    }
  } catch (e) {
    body.replaceChildren(el('p', { class: 'error' }, explain(e)));
  }
}

// forgetDocuments drops what the view remembers of the documents (after
// an upload or a delete, or on another collection).
export function forgetDocuments() { lastCitation = null; }
