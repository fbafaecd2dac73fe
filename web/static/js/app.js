// app.js — the page's entry point: labels, tabs, the token dialog (the
// token is entered once and kept in localStorage; one passed in the URL
// is taken and removed from it), the collection picker, the notice for
// token problems, and the start of each tab.

import { call, token, setToken, takeTokenFromURL, collection, setCollection, explain, ApiError } from './api.js';
import { $, $$, el } from './dom.js';
import { t, translate } from './i18n.js';
import { initAsk, loadConversation, citationChanged } from './ask.js';
import { initPassage, closePassage, routeNow, forgetDocuments } from './passage.js';
import { initDocuments, loadDocuments } from './documents.js';
import { initEval, loadEvalFiles } from './eval.js';

let current = 'ask';

function notice(text, withButton) {
  const n = $('#notice');
  if (!text) { n.hidden = true; n.replaceChildren(); return; }
  n.hidden = false;
  n.replaceChildren(el('span', {}, text));
  if (withButton) {
    const b = el('button', { type: 'button', class: 'link' }, t('token.title'));
    b.addEventListener('click', () => openTokenDialog());
    n.append(' ', b);
  }
}

// authError says plainly what is wrong with the token, with the
// server's detail.
function authError(e) {
  notice(explain(e), true);
}

function openTokenDialog(why) {
  const dlg = $('#token-dialog');
  const w = $('#token-why');
  w.hidden = !why;
  w.textContent = why || '';
  $('#token-input').value = token();
  if (!dlg.open) dlg.showModal();
  $('#token-input').focus();
}

function initToken() {
  const dlg = $('#token-dialog');
  $('#token-button').addEventListener('click', () => openTokenDialog());
  $('#token-cancel').addEventListener('click', () => dlg.close());
  $('#token-forget').addEventListener('click', () => { setToken(''); $('#token-input').value = ''; dlg.close(); start(); });
  $('#token-form').addEventListener('submit', () => {
    // method=dialog closes the dialog on its own.
    setToken($('#token-input').value);
    start();
  });
}

function selectTab(name, focus) {
  current = name;
  for (const b of $$('[role=tab]')) {
    const on = b.dataset.tab === name;
    b.setAttribute('aria-selected', String(on));
    b.tabIndex = on ? 0 : -1;
    $('#' + b.getAttribute('aria-controls')).hidden = !on;
    if (on && focus) b.focus();
  }
  if (name !== 'ask') closePassage();
  if (location.hash.startsWith('#doc=')) history.replaceState(null, '', location.pathname + location.search);
  $('#docview').hidden = true;
  document.body.classList.remove('docview-open');
  if (name === 'docs') loadDocuments();
  if (name === 'eval') loadEvalFiles();
}

function initTabs() {
  const tabs = $$('[role=tab]');
  for (const b of tabs) {
    b.addEventListener('click', () => selectTab(b.dataset.tab));
    b.addEventListener('keydown', (e) => {
      const i = tabs.indexOf(b);
      let j = -1;
      if (e.key === 'ArrowRight') j = (i + 1) % tabs.length;
      else if (e.key === 'ArrowLeft') j = (i + tabs.length - 1) % tabs.length;
      else if (e.key === 'Home') j = 0;
      else if (e.key === 'End') j = tabs.length - 1;
      if (j >= 0) { e.preventDefault(); selectTab(tabs[j].dataset.tab, true); }
    });
  }
}

async function loadCollections() {
  const sel = $('#collection');
  const res = await call('GET', '/v1/collections');
  const names = (res.collections || []).map((c) => c.name);
  sel.replaceChildren(...(res.collections || []).map((c) => el('option', { value: c.name }, c.name + ' (' + c.documents + ')')));
  if (!names.includes(collection())) setCollection(names.includes('default') ? 'default' : names[0] || 'default');
  sel.value = collection();
}

// start (re)loads what depends on the token and the collection.
async function start() {
  notice('');
  try {
    await loadCollections();
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) {
      notice(token() ? explain(e) : t('token.missing'), true);
      openTokenDialog(token() ? explain(e) : t('token.missing'));
    } else {
      notice(explain(e), e instanceof ApiError && e.status === 403);
    }
  }
  loadConversation();
  if (current === 'docs') loadDocuments();
  if (current === 'eval') loadEvalFiles();
}

function init() {
  takeTokenFromURL();
  translate();
  initToken();
  initTabs();
  initPassage(citationChanged);
  initAsk({ onAuthError: authError });
  initDocuments({ onAuthError: authError });
  initEval({ onAuthError: authError });
  $('#collection').addEventListener('change', (e) => {
    setCollection(e.target.value);
    closePassage();
    forgetDocuments();
    start();
  });
  start().then(routeNow);
  $('#question').focus({ preventScroll: true });
}

init();
