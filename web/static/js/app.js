// app.js — the page's entry point: labels, tabs, the token dialog (the
// token is entered once and kept in localStorage; one passed in the URL
// is taken and removed from it, also when it is added to the address of
// the open page), the collection picker, the notice for token problems,
// and the start of each tab.

import { token, setToken, takeTokenFromURL, setCollection, explain, ApiError } from './api.js';
import { loadCollections } from './collections.js';
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

// tokenFromAddress takes a #token=… added to the address of the open
// page (a same-page hash change reloads nothing): kept like one given at
// load, removed from the address, and the page started again with it.
function tokenFromAddress() {
  if (!takeTokenFromURL()) return;
  const dlg = $('#token-dialog');
  if (dlg.open) dlg.close();
  start();
}

// followHeader keeps --sticky-top the height the sticky header covers
// (0 where it scrolls away, on a phone), for what sticks below it.
function followHeader() {
  const header = $('header.top');
  const set = () => {
    const h = getComputedStyle(header).position === 'sticky' ? header.getBoundingClientRect().height : 0;
    document.documentElement.style.setProperty('--sticky-top', h + 'px'); // CSSOM, allowed by the CSP
  };
  new ResizeObserver(set).observe(header);
  window.addEventListener('resize', set);
}

function init() {
  takeTokenFromURL();
  translate();
  followHeader();
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
  window.addEventListener('hashchange', tokenFromAddress);
  start().then(routeNow);
  $('#question').focus({ preventScroll: true });
}

init();
