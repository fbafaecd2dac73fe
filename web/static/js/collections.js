// collections.js — the collections the token may use (GET
// /v1/collections), shown in the picker with their document counts, the
// chosen one's default retriever, and the file formats the server reads.
// Listed again after every upload, delete and re-index, so the counts
// follow them.

import { call, collection, setCollection } from './api.js';
import { el, $ } from './dom.js';
import { t, int } from './i18n.js';

let listed = []; // the last CollectionInfo list
let formats = []; // the server's readable formats

// loadCollections fills the picker, keeping the chosen collection when
// it is still listed.
export async function loadCollections() {
  const sel = $('#collection');
  const res = await call('GET', '/v1/collections');
  listed = res.collections || [];
  formats = res.formats || [];
  const names = listed.map((c) => c.name);
  sel.replaceChildren(...listed.map((c) => el('option', { value: c.name, title: t('collection.counts', { docs: int(c.documents), chunks: int(c.chunks) }) },
    c.name + ' (' + int(c.documents) + ')')));
  if (!names.includes(collection())) setCollection(names.includes('default') ? 'default' : names[0] || 'default');
  sel.value = collection();
  showFormats();
}

// refreshCollections lists the collections again after the index changed,
// quietly: a failure leaves the picker as it was.
export async function refreshCollections() {
  try { await loadCollections(); } catch { /* the tab that changed the index says what failed */ }
}

// retriever is the chosen collection's default retriever ('' before the
// collections are listed).
export function retriever() {
  const c = listed.find((x) => x.name === collection());
  return (c && c.retriever) || '';
}

// showFormats names the server's formats in the upload area and lets the
// file picker offer exactly their extensions.
function showFormats() {
  if (!formats.length) return;
  const names = formats.map((f) => formatName(f.name) + ' (' + f.extensions.join(' ') + ')' + (f.ocr ? ' ' + t('formats.ocr') : ''));
  $('#drop-formats').textContent = t('docs.drop', { formats: names.join(', ') });
  $('#file-input').setAttribute('accept', formats.flatMap((f) => f.extensions).join(','));
}

// formatName is a format's name in the page's language (most are names
// of their own).
function formatName(name) {
  const key = 'format.' + name;
  const s = t(key);
  return s === key ? name : s;
}
