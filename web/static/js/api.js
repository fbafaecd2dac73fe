// api.js — talking to fonte's HTTP API: the token (kept in localStorage,
// never in the URL), the chosen collection's base path, JSON calls,
// Server-Sent Events read from fetch() (EventSource cannot POST nor send
// a bearer header), uploads with progress (XMLHttpRequest), and RFC 9457
// problems turned into ApiError.

import { t } from './i18n.js';

const TOKEN_KEY = 'fonte.token';
const COLLECTION_KEY = 'fonte.collection';

export function token() { return localStorage.getItem(TOKEN_KEY) || ''; }
export function setToken(tok) {
  tok = (tok || '').trim();
  if (tok) localStorage.setItem(TOKEN_KEY, tok); else localStorage.removeItem(TOKEN_KEY);
}

// takeTokenFromURL stores a token passed as #token=… or ?token=… and
// removes it from the address bar and history entry.
export function takeTokenFromURL() {
  const url = new URL(location.href);
  const hash = new URLSearchParams(url.hash.slice(1));
  let tok = null;
  if (hash.has('token')) { tok = hash.get('token'); hash.delete('token'); }
  if (url.searchParams.has('token')) { tok = tok ?? url.searchParams.get('token'); url.searchParams.delete('token'); }
  if (tok === null) return false;
  setToken(tok);
  const h = hash.toString();
  history.replaceState(history.state, '', url.pathname + url.search + (h ? '#' + h : ''));
  return true;
}

export function collection() { return localStorage.getItem(COLLECTION_KEY) || 'default'; }
export function setCollection(name) { localStorage.setItem(COLLECTION_KEY, name); }

// base is the path prefix of a collection's routes.
export function base(name = collection()) {
  return name === 'default' ? '/v1' : '/v1/collections/' + encodeURIComponent(name);
}

// segments URL-encodes each segment of an id, keeping its slashes
// ("hr/leave.md#3" → "hr/leave.md%233"). An id with a "." or ".."
// segment is refused: the browser would resolve it (encoded or not) and
// send the request, with the token, to another route.
export function segments(id) {
  const parts = String(id).split('/');
  if (parts.some((s) => s === '.' || s === '..')) throw new ApiError(400, { detail: t('doc.badid', { id }) });
  return parts.map(encodeURIComponent).join('/');
}

// ApiError is a failed call: the HTTP status (0: no answer) and the
// problem the server sent.
export class ApiError extends Error {
  constructor(status, problem) {
    problem = problem && typeof problem === 'object' ? problem : {};
    super(problem.detail || problem.title || (status ? `HTTP ${status}` : t('network')));
    this.status = status;
    this.problem = problem;
  }
  get slug() { const ty = this.problem.type || ''; return ty.slice(ty.lastIndexOf('#') + 1); }
}

async function problemOf(resp) {
  try {
    const p = await resp.json();
    if (p && typeof p === 'object') return p;
  } catch { /* not JSON */ }
  return { status: resp.status, title: resp.statusText };
}

function headers(extra) {
  const h = new Headers(extra);
  const tok = token();
  if (tok) h.set('Authorization', 'Bearer ' + tok);
  return h;
}

async function send(method, path, body, accept, signal) {
  const init = { method, headers: headers({ Accept: accept }), signal };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers.set('Content-Type', 'application/json');
  }
  let resp;
  try {
    resp = await fetch(path, init);
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    throw new ApiError(0, { detail: t('network') });
  }
  if (!resp.ok) throw new ApiError(resp.status, await problemOf(resp));
  return resp;
}

// call sends a JSON request and returns the decoded JSON answer.
export async function call(method, path, body, { signal } = {}) {
  const resp = await send(method, path, body, 'application/json', signal);
  const text = await resp.text();
  return text ? JSON.parse(text) : null;
}

// stream sends a request with Accept: text/event-stream and calls
// onEvent(name, data) for each event as it arrives; an `event: error`
// (a problem) is thrown as an ApiError.
export async function stream(method, path, body, onEvent, { signal } = {}) {
  const resp = await send(method, path, body, 'text/event-stream', signal);
  const reader = resp.body.pipeThrough(new TextDecoderStream()).getReader();
  let buf = '';
  const dispatch = (block) => {
    let name = 'message';
    const data = [];
    for (const line of block.split('\n')) {
      if (line === '' || line.startsWith(':')) continue;
      const c = line.indexOf(':');
      const field = c < 0 ? line : line.slice(0, c);
      let value = c < 0 ? '' : line.slice(c + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'event') name = value;
      else if (field === 'data') data.push(value);
    }
    if (!data.length) return;
    let payload = data.join('\n');
    try { payload = JSON.parse(payload); } catch { /* plain text */ }
    if (name === 'error') throw new ApiError(payload.status || 500, payload);
    onEvent(name, payload);
  };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += value.replace(/\r\n?/g, '\n');
    let i;
    while ((i = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, i);
      buf = buf.slice(i + 2);
      dispatch(block);
    }
  }
  if (buf.trim()) dispatch(buf);
}

// upload posts one file as multipart/form-data, reporting the share
// sent to onProgress (0…1). It resolves with the server's report (a 422,
// every file refused, resolves too: the report says why).
export function upload(path, file, onProgress) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    const tok = token();
    if (tok) xhr.setRequestHeader('Authorization', 'Bearer ' + tok);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => { if (e.lengthComputable) onProgress(e.loaded / e.total); };
    xhr.upload.onload = () => onProgress(1);
    xhr.onload = () => {
      const body = xhr.response;
      if (xhr.status === 200 || (xhr.status === 422 && body && Array.isArray(body.refused))) resolve(body);
      else reject(new ApiError(xhr.status, body));
    };
    xhr.onerror = () => reject(new ApiError(0, { detail: t('network') }));
    const form = new FormData();
    form.append('file', file, file.webkitRelativePath || file.name);
    xhr.send(form);
  });
}

// explain is the sentence to show for an error: a plain statement for
// token problems, then the server's own detail.
export function explain(err) {
  if (!(err instanceof ApiError)) return (err && err.message) || t('error');
  const detail = err.problem.detail || err.message;
  if (err.status === 401) return t('token.rejected') + ' ' + detail;
  if (err.status === 403) return t('token.forbidden') + ' ' + detail;
  return detail;
}
