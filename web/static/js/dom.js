// dom.js — building DOM nodes safely: every text goes in as a text node
// (never innerHTML), and SVG from the server is parsed as an image and
// imported, so no markup of the data's can run. Also the frame that shows
// when a wide table or plot scrolls sideways.

import { t } from './i18n.js';

// el makes an element: attrs sets attributes (class, dataset, on* event
// listeners, true/false for boolean attributes); children are nodes or
// strings (added as text).
export function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'dataset') Object.assign(e.dataset, v);
    else if (k.startsWith('on') && typeof v === 'function') e.addEventListener(k.slice(2), v);
    else if (k === 'text') e.textContent = v;
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : String(c));
  }
  return e;
}

export function $(sel, root = document) { return root.querySelector(sel); }
export function $$(sel, root = document) { return [...root.querySelectorAll(sel)]; }

// svgNode parses an SVG document and returns its root imported into the
// page, with scripts, event handler attributes and foreign objects
// removed; null when it does not parse.
export function svgNode(text) {
  if (typeof text !== 'string' || !text) return null;
  const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
  const root = doc.documentElement;
  if (!root || root.nodeName.toLowerCase() !== 'svg' || doc.querySelector('parsererror')) return null;
  for (const bad of root.querySelectorAll('script, foreignObject, iframe, object, embed')) bad.remove();
  for (const n of [root, ...root.querySelectorAll('*')]) {
    for (const a of [...n.attributes]) {
      const name = a.name.toLowerCase();
      if (name.startsWith('on') || ((name === 'href' || name === 'xlink:href') && !a.value.startsWith('#'))) n.removeAttribute(a.name);
      if (name === 'style') n.removeAttribute(a.name); // blocked by the CSP anyway
    }
  }
  return document.importNode(root, true);
}

// highlight puts text into container with the first occurrence of quote
// wrapped in <mark> (see quoteRange); it returns the <mark> or null when
// nothing matched.
export function highlight(container, text, quote, start, end) {
  container.replaceChildren();
  const range = quoteRange(text, quote, start, end);
  if (!range) { container.append(text); return null; }
  const [a, b] = range;
  const mark = el('mark', {}, text.slice(a, b));
  container.append(text.slice(0, a), mark, text.slice(b));
  return mark;
}

// quoteRange finds quote in text as string indexes [a, b): the quote as
// is, then with whitespace collapsed, then the byte span [start, end) of
// the text; null when nothing matched.
export function quoteRange(text, quote, start, end) {
  const range = findQuote(text, quote);
  if (range) return range;
  if (Number.isInteger(start) && Number.isInteger(end) && end > start) return byteSpan(text, start, end);
  return null;
}

function findQuote(text, quote) {
  quote = (quote || '').trim();
  if (!quote) return null;
  const i = text.indexOf(quote);
  if (i >= 0) return [i, i + quote.length];
  // Collapse whitespace in both, keeping a map back to the text.
  const map = [];
  let norm = '';
  let space = false;
  for (let j = 0; j < text.length; j++) {
    if (/\s/.test(text[j])) {
      if (!space && norm) { norm += ' '; map.push(j); }
      space = true;
    } else {
      norm += text[j]; map.push(j); space = false;
    }
  }
  const q = quote.replace(/\s+/g, ' ');
  let k = norm.indexOf(q);
  if (k < 0) k = norm.toLowerCase().indexOf(q.toLowerCase());
  if (k < 0) return null;
  return [map[k], map[k + q.length - 1] + 1];
}

// byteSpan converts a UTF-8 byte span of text into string indexes.
function byteSpan(text, start, end) {
  const bytes = new TextEncoder().encode(text);
  if (start < 0 || end > bytes.length) return null;
  const dec = new TextDecoder();
  const a = dec.decode(bytes.slice(0, start)).length;
  const b = a + dec.decode(bytes.slice(start, end)).length;
  return b > a ? [a, b] : null;
}

// scrollable frames an element that scrolls sideways (a table's wrap, a
// plot): when its content is wider than it, a hint under it says so and
// a shadow marks each edge that hides more, following resizes and
// scrolling.
export function scrollable(inner) {
  const frame = el('div', { class: 'scroll-frame' }, inner);
  const outer = el('div', { class: 'scroll-x' }, frame, el('p', { class: 'scroll-hint' }, t('scroll.hint')));
  const update = () => {
    const over = inner.scrollWidth > inner.clientWidth + 1;
    outer.classList.toggle('scrolls', over);
    outer.classList.toggle('more-right', over && inner.scrollLeft + inner.clientWidth < inner.scrollWidth - 1);
    outer.classList.toggle('more-left', over && inner.scrollLeft > 1);
  };
  inner.addEventListener('scroll', update, { passive: true });
  new ResizeObserver(update).observe(inner);
  return outer;
}
