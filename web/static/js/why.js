// why.js — "why this answer": the trace of an answer laid out for a
// person: each stage's time, the lexical and dense legs, the fused
// ranking, the abstain floor, the context fit, the grounding check of
// each sentence and (admin tokens only) the prompt.

import { el, scrollable } from './dom.js';
import { t, num, int } from './i18n.js';

const TOP = 8; // rows shown per ranking

function table(caption, cols, rows, cls = '') {
  return scrollable(el('div', { class: 'table-wrap' },
    el('table', { class: 'trace-table ' + cls },
      el('caption', {}, caption),
      el('thead', {}, el('tr', {}, cols.map((c) => el('th', { scope: 'col', class: c.num ? 'num' : '' }, c.label)))),
      el('tbody', {}, rows.length ? rows.map((r) => el('tr', { class: r.cls || '' }, r.cells.map((c, i) => el('td', { class: cols[i].num ? 'num' : '' }, c)))) :
        el('tr', {}, el('td', { colspan: cols.length, class: 'muted' }, t('why.none')))))));
}

function chunkLabel(id, cited) {
  const n = cited.get(id);
  return el('span', { class: 'chunk-id' }, n ? el('span', { class: 'src-badge' }, '[' + n + ']') : null, id);
}

function ranking(caption, list, cited, withRelevance) {
  const cols = [{ label: t('why.rank'), num: true }, { label: t('why.passage') }, { label: t('why.score'), num: true }];
  if (withRelevance) cols.push({ label: t('why.relevance'), num: true });
  const rows = (list || []).slice(0, TOP).map((c) => {
    const cells = [String(c.rank), chunkLabel(c.chunk_id, cited), num(c.score, 3)];
    if (withRelevance) cells.push(num(c.relevance, 2));
    return { cells, cls: cited.has(c.chunk_id) ? 'cited' : '' };
  });
  return table(caption, cols, rows);
}

const percent = (share) => Math.round(100 * share) + '%';

// floorReason says why the floor decided as it did (the trace's reason,
// which the server writes in English) in the page's language, from the
// decision's figures: no hits, the best relevance against the floor, or
// the coverage of the question's weight that chose the passage compared.
export function floorReason(f, trace) {
  if (!f.chunk_id) return t('floor.nohits');
  const verdict = t(f.abstained ? 'floor.below' : 'floor.reaches');
  const figures = { rel: num(f.relevance, 4), floor: num(f.floor, 4), verdict };
  const c = f.coverage;
  const held = (c && c.held) || [];
  const shareOf = (id) => { const h = held.find((x) => x.chunk_id === id); return h ? h.share : 1; };
  if (!c || shareOf(f.chunk_id) >= c.min_held) return t('floor.best', figures);
  const missing = (c.keys || []).filter((k) => !(k.in && k.in.length)).map((k) => k.key);
  // The words no document uses, as the question writes them, each once.
  const unknown = [...new Set((c.keys || []).filter((k) => !k.df && !(k.in && k.in.length)).map((k) => k.word || k.key))];
  const holds = t('floor.held', { share: percent(shareOf(f.chunk_id)), min: percent(c.min_held) }) +
    (missing.length ? t('floor.missing', { keys: missing.join(', ') }) : '') +
    (unknown.length ? t('floor.unknown', { words: unknown.join(', ') }) : '');
  const covered = held.filter((h) => h.share >= c.min_held);
  if (!covered.length) return t('floor.nonecovered', { ...figures, min: percent(c.min_held), holds });
  // The passage compared: the covered one with the judged relevance.
  const ranked = [...((trace && trace.reranked) || []), ...((trace && trace.fused) || [])];
  const judged = covered.find((h) => ranked.some((x) => x.chunk_id === h.chunk_id && num(x.relevance, 4) === num(f.judged, 4)));
  return t('floor.judged', { ...figures, holds, judged: num(f.judged, 4), chunk: judged ? ' (' + judged.chunk_id + ')' : '' });
}

// renderTrace lays out trace for the answer a (whose citations name the
// chunks shown as [n]).
export function renderTrace(trace, a) {
  if (!trace) return el('p', { class: 'muted' }, t('why.notrace'));
  const cited = new Map((a.citations || []).map((c) => [c.chunk, c.n]));
  const out = el('div', { class: 'why-body' });

  const stages = trace.stages || [];
  const total = stages.reduce((s, x) => s + (x.ms || 0), 0);
  const max = Math.max(1, ...stages.map((s) => s.ms || 0));
  out.append(el('section', { class: 'why-stages' },
    el('h4', {}, t('why.stages'), ' ', el('span', { class: 'muted' }, t('why.total', { ms: num(total, 1) + ' ms' }))),
    el('ul', { class: 'stages' }, stages.map((s) => {
      const bar = el('span', { class: 'bar' });
      bar.style.width = Math.max(1, (100 * (s.ms || 0)) / max) + '%'; // CSSOM, allowed by the CSP
      return el('li', {}, el('span', { class: 'stage-name' }, s.name), el('span', { class: 'bar-track' }, bar), el('span', { class: 'num' }, num(s.ms, 1) + ' ms'));
    }))));

  const legs = el('section', { class: 'why-legs' }, el('h4', {}, t('why.retrieval')),
    el('p', { class: 'muted' }, t('why.mode', { mode: trace.mode || '—', k: trace.k ?? '—', depth: trace.depth ?? '—' })));
  const grid = el('div', { class: 'legs' });
  if (trace.lexical) grid.append(ranking(t('why.lexical'), trace.lexical, cited, false));
  if (trace.dense) grid.append(ranking(t('why.dense'), trace.dense, cited, false));
  legs.append(grid, ranking(t('why.fused'), trace.fused, cited, true));
  if (trace.reranked && trace.reranked.length) legs.append(ranking('Reranked', trace.reranked, cited, true));
  out.append(legs);

  if (trace.floor) {
    const f = trace.floor;
    // A check after the floor may abstain on passages the floor let
    // through: the verdict is the answer's, with that check's reason.
    const abstained = f.abstained || Boolean(trace.abstained);
    out.append(el('section', { class: 'why-floor' }, el('h4', {}, t('why.floor')),
      el('p', {}, el('span', { class: abstained ? 'pill warn' : 'pill ok' }, abstained ? t('why.abstained') : t('why.answered')), ' ',
        t('why.floorline', { floor: num(f.floor, 2), rel: num(f.relevance, 2) }), f.chunk_id ? ' · ' : '', f.chunk_id ? chunkLabel(f.chunk_id, cited) : ''),
      el('p', { class: 'muted floor-reason' }, floorReason(f, trace)),
      !f.abstained && trace.abstained && trace.abstain_reason
        ? el('p', { class: 'abstain-reason' }, t('why.after'), ' ', el('span', { lang: 'en' }, trace.abstain_reason)) : null));
  }

  if (trace.fit) {
    const fit = trace.fit;
    const cols = [{ label: t('why.passage') }, { label: t('why.tokens'), num: true }, { label: t('why.reason') }];
    const rows = (fit.fitted || []).map((c) => ({ cells: [chunkLabel(c.chunk_id, cited), int(c.tokens), c.reason || (c.source ? '[' + c.source + ']' : '')] }));
    out.append(el('section', { class: 'why-fit' }, el('h4', {}, t('why.fit')),
      el('p', { class: 'muted' }, t('why.budget', { used: int(fit.used), budget: int(fit.budget) })),
      table(t('why.fit'), cols, rows),
      fit.cut && fit.cut.length ? table(t('why.cut'), cols, fit.cut.map((c) => ({ cells: [chunkLabel(c.chunk_id, cited), int(c.tokens), c.reason || ''] }))) : null));
  }

  if (trace.grounding && trace.grounding.length) {
    out.append(el('section', { class: 'why-grounding' }, el('h4', {}, t('why.grounding')),
      el('ul', { class: 'grounding' }, trace.grounding.map((g) => el('li', { class: g.supported ? 'ok' : 'bad' },
        el('span', { class: 'verdict', 'aria-label': t('why.supported') + ': ' + (g.supported ? t('yes') : t('no')) }, g.supported ? '✓' : '✗'),
        el('span', { class: 'sentence' }, g.sentence),
        el('span', { class: 'muted' }, ' ', num(g.score, 2), g.chunk_id ? ' · ' + g.chunk_id : '',
          g.missing && g.missing.length ? ' · ' + t('why.missing', { words: [].concat(g.missing).join(', ') }) : '')))))); 
  }

  if (trace.prompt) {
    out.append(el('section', { class: 'why-prompt' }, el('details', {}, el('summary', {}, t('why.prompt')), el('pre', {}, trace.prompt))));
  }
  return out;
}
