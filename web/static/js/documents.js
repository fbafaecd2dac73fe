// documents.js — the Documents tab: upload by picker or drag and drop
// (one request per file, each with its own progress bar), the list of
// indexed documents with passage counts, language and dates, delete with
// confirmation, and re-index of the configured folder with progress.
// After each change the collection picker's counts are listed again.

import { call, stream, upload, base, segments, explain, ApiError } from './api.js';
import { el, $ } from './dom.js';
import { t, int, date } from './i18n.js';
import { forgetDocuments } from './passage.js';
import { refreshCollections } from './collections.js';

let authFailed = () => {};

export function initDocuments({ onAuthError }) {
  authFailed = onAuthError || authFailed;
  const input = $('#file-input');
  input.addEventListener('change', () => {
    const files = [...input.files];
    input.value = '';
    uploadAll(files);
  });
  const drop = $('#drop');
  for (const ev of ['dragenter', 'dragover']) {
    drop.addEventListener(ev, (e) => { e.preventDefault(); drop.classList.add('over'); });
  }
  for (const ev of ['dragleave', 'dragend']) drop.addEventListener(ev, () => drop.classList.remove('over'));
  drop.addEventListener('drop', (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    uploadAll([...(e.dataTransfer ? e.dataTransfer.files : [])]);
  });
  $('#reindex').addEventListener('click', reindex);
}

function failed(e, where) {
  where.textContent = explain(e);
  where.classList.add('error');
  if (e instanceof ApiError && (e.status === 401 || e.status === 403)) authFailed(e);
}

// loadDocuments fills the list from GET …/documents.
export async function loadDocuments() {
  const status = $('#docs-status');
  status.classList.remove('error');
  status.textContent = t('docs.loading');
  try {
    const res = await call('GET', base() + '/documents');
    const docs = res.documents || [];
    const body = $('#doc-list');
    body.replaceChildren(...docs.map(row));
    const chunks = docs.reduce((s, d) => s + (d.chunks || 0), 0);
    status.textContent = docs.length ? t('docs.count', { n: int(docs.length), chunks: int(chunks) }) : t('docs.empty');
    $('#doc-caption').textContent = status.textContent;
  } catch (e) {
    $('#doc-list').replaceChildren();
    failed(e, status);
  }
}

function row(d) {
  const del = el('button', { type: 'button', class: 'danger small', 'aria-label': t('docs.delete.label', { id: d.id }) }, t('delete'));
  del.addEventListener('click', () => remove(d, del));
  return el('tr', { dataset: { id: d.id } },
    el('th', { scope: 'row' }, el('span', { class: 'doc-title' }, d.title || d.id), d.title && d.title !== d.id ? el('span', { class: 'doc-id' }, d.id) : null),
    el('td', {}, d.language || '—'),
    el('td', { class: 'num' }, int(d.chunks)),
    el('td', {}, date(d.updated) || '—'),
    el('td', { class: 'actions' }, del));
}

// confirmDialog asks a yes/no question in the page's own dialog.
export function confirmDialog(text) {
  const dlg = $('#confirm-dialog');
  $('#confirm-text').textContent = text;
  return new Promise((resolve) => {
    dlg.addEventListener('close', () => resolve(dlg.returnValue === 'ok'), { once: true });
    dlg.returnValue = '';
    dlg.showModal();
    $('#confirm-cancel').focus();
  });
}

async function remove(d, button) {
  if (!(await confirmDialog(t('docs.confirm', { id: d.id })))) { button.focus(); return; }
  const status = $('#docs-status');
  status.classList.remove('error');
  try {
    await call('DELETE', base() + '/documents/' + segments(d.id));
    forgetDocuments();
    await Promise.all([loadDocuments(), refreshCollections()]);
    status.textContent = t('docs.deleted', { id: d.id }) + ' ' + status.textContent;
    $('#file-input').focus();
  } catch (e) {
    failed(e, status);
  }
}

async function uploadAll(files) {
  if (!files.length) return;
  const list = $('#uploads');
  const jobs = files.map((f) => {
    const bar = el('progress', { max: '1', value: '0' });
    const note = el('span', { class: 'upload-note' }, t('upload.sending'));
    const li = el('li', { class: 'upload' }, el('span', { class: 'upload-name' }, f.name), bar, note);
    list.prepend(li);
    return { f, bar, note, li };
  });
  // One request per file, a few at a time.
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const j = jobs[next++];
      try {
        const res = await upload(base() + '/documents', j.f, (share) => {
          j.bar.value = share;
          if (share >= 1) j.note.textContent = t('upload.indexing');
        });
        j.bar.value = 1;
        if (res.indexed && res.indexed.length) {
          j.note.textContent = t('upload.done', { chunks: int(res.chunks) });
          j.li.classList.add('ok');
        } else if (res.unchanged) {
          j.note.textContent = t('upload.unchanged');
          j.li.classList.add('ok');
        } else {
          j.note.textContent = (res.refused || []).map((r) => t('upload.refused', { reason: r.reason })).join('; ');
          j.li.classList.add('refused');
        }
      } catch (e) {
        j.note.textContent = explain(e);
        j.li.classList.add('refused');
        if (e.status === 401 || e.status === 403) authFailed(e);
      }
    }
  };
  await Promise.all([worker(), worker()]);
  forgetDocuments();
  await Promise.all([loadDocuments(), refreshCollections()]);
}

async function reindex() {
  const button = $('#reindex');
  const bar = $('#reindex-progress');
  const status = $('#reindex-status');
  status.classList.remove('error');
  button.disabled = true;
  bar.hidden = false;
  bar.removeAttribute('value'); // indeterminate until the first event
  status.textContent = t('reindex.start');
  try {
    let done = null;
    await stream('POST', base() + '/index', undefined, (name, data) => {
      if (name === 'progress') {
        bar.max = Math.max(1, data.total || 1);
        bar.value = data.files || 0;
        status.textContent = t('reindex.running', { files: int(data.files), total: int(data.total) }) + (data.path ? ' — ' + data.path : '');
      } else if (name === 'done') {
        done = data;
      }
    });
    if (!done) throw new Error(t('error.stream'));
    bar.max = 1;
    bar.value = 1;
    status.textContent = t('reindex.done', { indexed: int((done.indexed || []).length), removed: int((done.removed || []).length),
      refused: int((done.refused || []).length), chunks: int(done.chunks) });
    forgetDocuments();
    await Promise.all([loadDocuments(), refreshCollections()]);
  } catch (e) {
    bar.hidden = true;
    if (e instanceof ApiError && e.status === 409 && e.slug === 'no-folder') {
      status.textContent = t('reindex.nofolder');
      status.classList.add('error');
    } else failed(e, status);
  } finally {
    button.disabled = false;
  }
}
