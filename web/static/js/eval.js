// eval.js — the Eval tab: pick one of the server's question files (GET
// …/eval/files), load one from this computer or paste JSON Lines, choose the retrievers, run POST
// …/eval, and read the per-retriever metrics, the abstain floor, the
// plots (SVG parsed as an image and imported, never as HTML) and the
// per-question outcomes; the whole result downloads as JSON.

import { call, base, explain, ApiError } from './api.js';
import { el, $, svgNode, scrollable } from './dom.js';
import { t, num, int } from './i18n.js';
import { retriever } from './collections.js';

let last = null; // the last result, for the download
let authFailed = () => {};

export function initEval({ onAuthError }) {
  authFailed = onAuthError || authFailed;
  $('#eval-form').addEventListener('submit', (e) => { e.preventDefault(); run(); });
  $('#eval-download').addEventListener('click', download);
  $('#eval-file').addEventListener('change', () => { $('#eval-questions').disabled = Boolean($('#eval-file').value); });
  $('#eval-upload').addEventListener('change', loadLocalFile);
}

// loadLocalFile reads a question file picked on this computer into the
// text box: the browser reads it, the server sees it as pasted JSONL.
async function loadLocalFile() {
  const input = $('#eval-upload');
  const f = input.files && input.files[0];
  if (!f) return;
  const status = $('#eval-status');
  status.classList.remove('error');
  try {
    $('#eval-questions').value = await f.text();
    $('#eval-file').value = '';
    $('#eval-questions').disabled = false;
    status.textContent = t('eval.loaded', { name: f.name, n: $('#eval-questions').value.split('\n').filter((l) => l.trim()).length });
  } catch (e) {
    status.textContent = String(e);
    status.classList.add('error');
  }
}

// RETRIEVERS are the retrievers the tab offers to compare.
const RETRIEVERS = ['hybrid', 'bm25', 'vector'];

// showRetrievers offers the retrievers with the collection's own first
// (the one it answers with, whose floor the evaluation analyses), marked
// as its default; the choices made before are kept.
function showRetrievers() {
  const box = $('#eval-retrievers');
  const own = retriever();
  const before = new Map([...box.querySelectorAll('input[name=retriever]')].map((i) => [i.value, i.checked]));
  const names = own ? [own, ...RETRIEVERS.filter((r) => r !== own)] : RETRIEVERS;
  box.replaceChildren(box.querySelector('legend'), ...names.map((n) => el('label', {},
    el('input', { type: 'checkbox', name: 'retriever', value: n, checked: before.has(n) ? before.get(n) : true }), ' ', n,
    n === own ? el('span', { class: 'muted' }, ' (' + t('eval.default') + ')') : null)));
}

// loadEvalFiles fills the file picker and the retrievers.
export async function loadEvalFiles() {
  showRetrievers();
  const sel = $('#eval-file');
  const keep = sel.value;
  const status = $('#eval-status');
  status.classList.remove('error');
  sel.replaceChildren(el('option', { value: '' }, t('eval.paste')));
  try {
    const res = await call('GET', base() + '/eval/files');
    for (const f of res.files || []) {
      sel.append(el('option', { value: f.name, disabled: f.error ? true : null },
        f.name + ' (' + int(f.questions) + ')' + (f.error ? ' — ' + f.error : '')));
    }
    if (!(res.files || []).length) sel.append(el('option', { value: '', disabled: true }, t('eval.nofiles')));
    if ([...sel.options].some((o) => o.value === keep && keep)) sel.value = keep;
  } catch (e) {
    if (e instanceof ApiError && (e.status === 404 || e.status === 405)) status.textContent = t('eval.missing');
    else { status.textContent = explain(e); status.classList.add('error'); }
  }
  $('#eval-questions').disabled = Boolean(sel.value);
}

async function run() {
  const status = $('#eval-status');
  const out = $('#eval-results');
  status.classList.remove('error');
  const file = $('#eval-file').value;
  const questions = $('#eval-questions').value.trim();
  const body = {};
  if (file) body.file = file;
  else if (questions) body.questions = questions + '\n';
  else { status.textContent = t('eval.need'); status.classList.add('error'); return; }
  const retrievers = [...document.querySelectorAll('input[name=retriever]:checked')].map((i) => i.value);
  if (retrievers.length) body.retrievers = retrievers;
  const n = file ? ($('#eval-file').selectedOptions[0].textContent.match(/\((\d[\d.,\s]*)\)/) || [, '…'])[1] : questions.split('\n').filter((l) => l.trim()).length;
  status.textContent = t('eval.running', { n });
  $('#eval-run').disabled = true;
  out.setAttribute('aria-busy', 'true');
  try {
    last = await call('POST', base() + '/eval', body);
    status.textContent = t('eval.done', { n: int(last.questions), split: last.split, collection: last.collection });
    out.replaceChildren(results(last));
    $('#eval-download').disabled = false;
  } catch (e) {
    status.textContent = explain(e);
    status.classList.add('error');
    if (e instanceof ApiError && (e.status === 401 || e.status === 403)) authFailed(e);
  } finally {
    $('#eval-run').disabled = false;
    out.setAttribute('aria-busy', 'false');
  }
}

const METRICS = ['hit@1', 'hit@3', 'hit@5', 'recall@10', 'recall@100', 'mrr', 'ndcg@10'];

function results(r) {
  const names = Object.keys(r.retrievers || {});
  if (r.retriever && names.includes(r.retriever)) names.sort((a, b) => (a === r.retriever ? -1 : b === r.retriever ? 1 : 0));
  // Best figure per metric, to set it in bold.
  const best = {};
  for (const m of METRICS) best[m] = Math.max(...names.map((n) => (r.retrievers[n].retrieval || {})[m] ?? -1));
  const hasGen = names.some((n) => r.retrievers[n].generation);
  const metrics = scrollable(el('div', { class: 'table-wrap' }, el('table', { class: 'eval-table' },
    el('caption', {}, t('eval.metrics')),
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, t('eval.retriever')), METRICS.map((m) => el('th', { scope: 'col', class: 'num' }, m)),
      el('th', { scope: 'col', class: 'num' }, 'queries'), hasGen ? [el('th', { scope: 'col', class: 'num' }, 'given gold'), el('th', { scope: 'col', class: 'num' }, 'end to end')] : null)),
    el('tbody', {}, names.map((n) => {
      const rep = r.retrievers[n];
      const ret = rep.retrieval || {};
      return el('tr', {}, el('th', { scope: 'row' }, n),
        METRICS.map((m) => el('td', { class: 'num' + (ret[m] === best[m] && names.length > 1 ? ' best' : '') }, num(ret[m], 3))),
        el('td', { class: 'num' }, int(ret.queries)),
        hasGen ? [el('td', { class: 'num' }, num(rep.generation && rep.generation.given_gold, 3)), el('td', { class: 'num' }, num(rep.generation && rep.generation.end_to_end, 3))] : null);
    })))));

  const parts = [metrics];
  const f = r.floor;
  if (f && (f.rows || []).length) {
    parts.push(el('section', { class: 'eval-floor' }, el('h2', {}, t('eval.floor'), ' ', el('span', { class: 'muted' }, '(' + (r.retriever || names[0]) + ')')),
      el('p', {}, t('eval.floor.line', { in_use: num(f.in_use, 2), suggested: f.suggested == null ? '—' : num(f.suggested, 2) }),
        f.answerable != null ? ' · ' + int(f.answerable) + ' answerable, ' + int(f.unanswerable) + ' unanswerable' : ''),
      el('details', {}, el('summary', {}, 'floor · let through · blocked'),
        scrollable(el('div', { class: 'table-wrap' }, el('table', { class: 'eval-table compact' },
          el('thead', {}, el('tr', {}, el('th', { scope: 'col', class: 'num' }, 'floor'), el('th', { scope: 'col', class: 'num' }, 'let through'), el('th', { scope: 'col', class: 'num' }, 'blocked'))),
          el('tbody', {}, f.rows.map((row) => el('tr', { class: row.floor === f.in_use ? 'cited' : '' },
            el('td', { class: 'num' }, num(row.floor, 2)), el('td', { class: 'num' }, int(row.let_through)), el('td', { class: 'num' }, int(row.blocked)))))))))));
  }
  const plots = el('section', { class: 'plots' }, el('h2', {}, t('eval.plots')));
  for (const key of ['recall', 'floor']) {
    const node = svgNode(r.plots && r.plots[key]);
    if (node) {
      node.setAttribute('role', 'img');
      node.setAttribute('aria-label', key === 'recall' ? 'recall@k' : t('eval.floor'));
      plots.append(el('figure', { class: 'plot' }, scrollable(el('div', { class: 'plot-scroll' }, node))));
      fitPlotText(node);
    }
  }
  if (plots.childElementCount > 1) parts.push(plots);

  const pq = r.per_question || [];
  if (pq.length) {
    const head = el('tr', {}, ['id', 'question', 'gold rank', 'relevance', 'right'].map((h, i) => el('th', { scope: 'col', class: i >= 2 ? 'num' : '' }, h)));
    const rows = pq.map((q) => el('tr', { class: q.unanswerable ? 'unanswerable' : (q.gold_rank === 0 ? 'miss' : '') },
      el('td', {}, q.id || ''),
      el('td', {}, q.question + (q.unanswerable ? ' (unanswerable)' : '')),
      el('td', { class: 'num' }, q.unanswerable ? '—' : q.gold_rank ? String(q.gold_rank) : '✗'),
      el('td', { class: 'num' }, num(q.relevance, 2)),
      el('td', { class: 'num' }, q.right == null ? '' : q.right ? '✓' : '✗')));
    const table = el('table', { class: 'eval-table' }, el('thead', {}, head), el('tbody', {}, rows));
    parts.push(el('details', { class: 'per-question' }, el('summary', {}, t('eval.perq') + ' (' + int(pq.length) + ')'), scrollable(el('div', { class: 'table-wrap' }, table))));
  }
  return el('div', { class: 'eval-results' }, parts);
}

// PLOT_TEXT_PX is the smallest size, in CSS pixels, a plot's labels are
// shown at: a plot drawn 760 units wide is scaled down on a phone, and
// its labels with it.
const PLOT_TEXT_PX = 10.5;

// fitPlotText enlarges a plot's labels when it is shown smaller than it
// was drawn, so that its smallest label reads at PLOT_TEXT_PX (up to a
// third larger, beyond which labels would collide), again whenever the
// plot is resized.
function fitPlotText(svg) {
  const texts = [...svg.querySelectorAll('text')].map((e) => [e, Number(e.getAttribute('font-size')) || 12]);
  if (!texts.length) return;
  const smallest = Math.min(...texts.map(([, size]) => size));
  const fit = () => {
    const drawn = svg.viewBox.baseVal && svg.viewBox.baseVal.width;
    const shown = svg.getBoundingClientRect().width;
    if (!drawn || !shown) return;
    const grow = Math.min(4 / 3, Math.max(1, PLOT_TEXT_PX / (smallest * (shown / drawn))));
    for (const [e, size] of texts) e.style.fontSize = size * grow + 'px'; // CSSOM, allowed by the CSP
  };
  new ResizeObserver(fit).observe(svg);
}

function download() {
  if (!last) return;
  const blob = new Blob([JSON.stringify(last, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = el('a', { href: url, download: 'fonte-eval-' + (last.collection || 'default') + '.json' });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
