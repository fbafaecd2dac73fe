// i18n.js — the page's own labels in English, or Italian when the
// browser's language is Italian. Answers and passages are shown in the
// documents' own language, untouched.

const en = {
  skip: 'Skip to the question', sections: 'Sections', conversation: 'Conversation',
  'tab.ask': 'Ask', 'tab.docs': 'Documents', 'tab.eval': 'Eval', collection: 'Collection',
  'token.button': 'Token', 'token.title': 'Your token', 'token.label': 'Token',
  'token.help': 'Paste the token fonte printed when it started (or one your administrator gave you). It stays in this browser.',
  'token.forget': 'Forget', cancel: 'Cancel', save: 'Save', delete: 'Delete', close: 'Close',
  'token.missing': 'This page needs a token: enter it to ask.',
  'token.rejected': 'This token is not accepted.',
  'token.forbidden': 'This token may not do this.',
  'ask.title': 'Ask the documents',
  'ask.intro': 'Every answer cites the passages it comes from: press a number to read the source.',
  'ask.label': 'Your question', 'ask.placeholder': 'Ask a question…', 'ask.button': 'Ask', 'ask.stop': 'Stop',
  'ask.new': 'New conversation', 'ask.hint': 'Enter to ask, Shift+Enter for a new line.',
  you: 'You', searching: 'Searching the documents…', writing: 'Writing…', stopped: 'Stopped.',
  'rewritten': 'Searched: ', sources: 'Sources', nearest: 'Nearest passages',
  others: 'Other passages it was given ({n})',
  source: 'Source {n}', 'source.of': 'Source {n}: {title}',
  page: 'page {n}', updated: 'updated {date}',
  stale: 'changed', 'stale.title': 'The document changed or was removed since this answer',
  'stale.note': 'The document changed or was removed since this answer was given: the passage may no longer say this.',
  'stale.gone': 'This passage is no longer in the index.',
  unsupported: 'not supported by the sources', 'bad.cite': 'no such source',
  'abstain.title': "I don't know",
  'abstain.floor': 'None of the passages is relevant enough to answer: the best scored {rel}, below the floor of {floor}.',
  'abstain.rel': 'None of the passages is relevant enough to answer (best relevance {rel}).',
  'abstain.checks': 'The best passage reaches the floor ({rel} against {floor}), but a check found that the passages do not answer this question:',
  'abstain.nearest': 'These are the nearest passages; they may help you rephrase.',
  'why.show': 'Why this answer', 'why.hide': 'Hide why',
  'why.stages': 'Stages', 'why.total': 'total {ms}', 'why.retrieval': 'Retrieval',
  'why.mode': 'mode {mode} · k {k} · depth {depth}',
  'why.lexical': 'Lexical (BM25)', 'why.dense': 'Dense (vectors)', 'why.fused': 'Fused ranking',
  'why.floor': 'Floor', 'why.fit': 'Context', 'why.grounding': 'Grounding', 'why.prompt': 'Prompt',
  'why.none': 'none', 'why.rank': '#', 'why.passage': 'Passage', 'why.score': 'Score', 'why.relevance': 'Relevance',
  'why.tokens': 'Tokens', 'why.reason': 'Reason', 'why.sentence': 'Sentence', 'why.supported': 'Supported',
  'why.missing': 'missing: {words}', 'why.budget': '{used} of {budget} tokens used',
  'why.cut': 'Left out', 'why.floorline': 'floor {floor} · best relevance {rel}', 'why.answered': 'answered',
  'why.abstained': 'abstained', 'why.after': 'Abstained after the floor:', 'why.notrace': 'No trace for this answer.', yes: 'yes', no: 'no',
  'passage.close': 'Close the passage', 'passage.doc': 'Read the whole document',
  'passage.loading': 'Loading the passage…', 'passage.quote': 'Quoted: ',
  'doc.back': '← Back to the answer', 'doc.loading': 'Loading the document…', 'doc.badid': '“{id}” is not a document id: it has a . or .. segment.', 'doc.passages': '{n} passages',
  'docs.title': 'Documents', 'docs.admin': 'Uploading, deleting and re-indexing need an admin token.',
  'docs.pick': 'Choose files', 'docs.dropzone': 'or drop them here', 'docs.drop': 'or drop them here: {formats}',
  'formats.ocr': 'by OCR', 'format.text': 'text', 'format.images': 'images',
  'collection.counts': '{docs} documents, {chunks} passages', 'scroll.hint': 'Scroll sideways for more →',
  'eval.default': "the collection's own",
  'floor.nohits': 'no hits: nothing matched the query', 'floor.reaches': 'reaches', 'floor.below': 'is below',
  'floor.best': 'the best relevance {rel} {verdict} the floor {floor}',
  'floor.held': "the best-matching passage holds {share} of the question's weight (at least {min} needed)",
  'floor.missing': '; in no top passage: {keys}',
  'floor.unknown': '; in no document: {words}',
  'floor.nonecovered': "no top passage holds {min} of the question's weight, so none is compared with the floor {floor} (best relevance {rel}; {holds})",
  'floor.judged': '{holds}; the best relevance of the passages that do, {judged}{chunk}, {verdict} the floor {floor}',
  'docs.reindex': 'Re-index the folder', 'docs.col.doc': 'Document', 'docs.col.lang': 'Language',
  'docs.col.chunks': 'Passages', 'docs.col.updated': 'Updated', 'docs.col.actions': 'Actions',
  'docs.count': '{n} documents, {chunks} passages', 'docs.empty': 'No documents yet: upload some.',
  'docs.loading': 'Loading…', 'docs.confirm': 'Delete “{id}” from the index? Its passages will no longer be cited.',
  'docs.deleted': 'Deleted {id}.', 'docs.delete.label': 'Delete {id}',
  'upload.sending': 'sending…', 'upload.indexing': 'indexing…', 'upload.done': 'indexed',
  'upload.unchanged': 'unchanged', 'upload.refused': 'refused: {reason}',
  'reindex.running': 'Re-indexing… {files} of {total} files', 'reindex.start': 'Re-indexing…',
  'reindex.done': 'Done: {indexed} indexed, {removed} removed, {refused} refused, {chunks} passages.',
  'reindex.nofolder': 'No documents folder is configured for this collection, so there is nothing to re-index: upload files instead.',
  'eval.title': 'Evaluation', 'eval.lead': 'Run a question set against the collection and compare the retrievers (admin token).',
  'eval.file': 'Question file', 'eval.paste': '— paste questions below —', 'eval.questions': 'Questions (JSON Lines)',
  'eval.retrievers': 'Retrievers', 'eval.run': 'Run the evaluation', 'eval.download': 'Download JSON',
  'eval.running': 'Running {n} questions…', 'eval.done': '{n} questions ({split} part) on collection {collection}.',
  'eval.need': 'Choose a question file or paste questions.', 'eval.metrics': 'Retrieval', 'eval.retriever': 'Retriever',
  'eval.floor': 'Abstain floor', 'eval.floor.line': 'in use {in_use} · suggested {suggested}',
  'eval.plots': 'Plots', 'eval.perq': 'Per question', 'eval.nofiles': 'no question files on the server',
  'eval.missing': 'This server has no evaluation route yet.',
  'eval.upload': 'Or load a question file from this computer', 'eval.loaded': 'Loaded {name}: {n} questions.',
  network: 'The server does not answer. Is fonte serve running?',
  error: 'Something went wrong', 'error.stream': 'The answer stopped before it was complete.',
  'collections.error': 'Could not list the collections.',
};

const it = {
  skip: 'Vai alla domanda', sections: 'Sezioni', conversation: 'Conversazione',
  'tab.ask': 'Chiedi', 'tab.docs': 'Documenti', 'tab.eval': 'Valutazione', collection: 'Raccolta',
  'token.button': 'Token', 'token.title': 'Il tuo token', 'token.label': 'Token',
  'token.help': "Incolla il token che fonte ha stampato all'avvio (o quello che ti ha dato l'amministratore). Resta in questo browser.",
  'token.forget': 'Dimentica', cancel: 'Annulla', save: 'Salva', delete: 'Elimina', close: 'Chiudi',
  'token.missing': 'Questa pagina ha bisogno di un token: inseriscilo per chiedere.',
  'token.rejected': 'Questo token non è accettato.',
  'token.forbidden': 'Questo token non può farlo.',
  'ask.title': 'Chiedi ai documenti',
  'ask.intro': 'Ogni risposta cita i passi da cui viene: premi un numero per leggere la fonte.',
  'ask.label': 'La tua domanda', 'ask.placeholder': 'Fai una domanda…', 'ask.button': 'Chiedi', 'ask.stop': 'Ferma',
  'ask.new': 'Nuova conversazione', 'ask.hint': 'Invio per chiedere, Maiusc+Invio per andare a capo.',
  you: 'Tu', searching: 'Cerco nei documenti…', writing: 'Scrivo…', stopped: 'Interrotto.',
  'rewritten': 'Cercato: ', sources: 'Fonti', nearest: 'Passi più vicini',
  others: 'Altri passi che ha ricevuto ({n})',
  source: 'Fonte {n}', 'source.of': 'Fonte {n}: {title}',
  page: 'pagina {n}', updated: 'aggiornato il {date}',
  stale: 'cambiato', 'stale.title': 'Il documento è cambiato o è stato rimosso dopo questa risposta',
  'stale.note': 'Il documento è cambiato o è stato rimosso dopo questa risposta: il passo potrebbe non dire più questo.',
  'stale.gone': 'Questo passo non è più nell\u2019indice.',
  unsupported: 'non sostenuto dalle fonti', 'bad.cite': 'fonte inesistente',
  'abstain.title': 'Non lo so',
  'abstain.floor': 'Nessun passo è abbastanza pertinente per rispondere: il migliore vale {rel}, sotto la soglia di {floor}.',
  'abstain.rel': 'Nessun passo è abbastanza pertinente per rispondere (pertinenza migliore {rel}).',
  'abstain.checks': 'Il passo migliore raggiunge la soglia ({rel} contro {floor}), ma un controllo ha trovato che i passi non rispondono a questa domanda:',
  'abstain.nearest': 'Questi sono i passi più vicini; possono aiutarti a riformulare.',
  'why.show': 'Perché questa risposta', 'why.hide': 'Nascondi il perché',
  'why.stages': 'Fasi', 'why.total': 'totale {ms}', 'why.retrieval': 'Ricerca',
  'why.mode': 'modo {mode} · k {k} · profondità {depth}',
  'why.lexical': 'Lessicale (BM25)', 'why.dense': 'Densa (vettori)', 'why.fused': 'Classifica fusa',
  'why.floor': 'Soglia', 'why.fit': 'Contesto', 'why.grounding': 'Verifica', 'why.prompt': 'Prompt',
  'why.none': 'nessuno', 'why.rank': '#', 'why.passage': 'Passo', 'why.score': 'Punteggio', 'why.relevance': 'Pertinenza',
  'why.tokens': 'Token', 'why.reason': 'Motivo', 'why.sentence': 'Frase', 'why.supported': 'Sostenuta',
  'why.missing': 'mancano: {words}', 'why.budget': '{used} di {budget} token usati',
  'why.cut': 'Esclusi', 'why.floorline': 'soglia {floor} · pertinenza migliore {rel}', 'why.answered': 'risposto',
  'why.abstained': 'astenuto', 'why.after': 'Astenuto dopo la soglia:', 'why.notrace': 'Nessuna traccia per questa risposta.', yes: 'sì', no: 'no',
  'passage.close': 'Chiudi il passo', 'passage.doc': "Leggi l'intero documento",
  'passage.loading': 'Carico il passo…', 'passage.quote': 'Citato: ',
  'doc.back': '← Torna alla risposta', 'doc.loading': 'Carico il documento…', 'doc.badid': '“{id}” non è l’id di un documento: ha un segmento . o ..', 'doc.passages': '{n} passi',
  'docs.title': 'Documenti', 'docs.admin': 'Caricare, eliminare e reindicizzare richiede un token di amministrazione.',
  'docs.pick': 'Scegli i file', 'docs.dropzone': 'o trascinali qui', 'docs.drop': 'o trascinali qui: {formats}',
  'formats.ocr': 'con OCR', 'format.text': 'testo', 'format.images': 'immagini',
  'collection.counts': '{docs} documenti, {chunks} passi', 'scroll.hint': 'Scorri di lato per vedere il resto →',
  'eval.default': 'quello della raccolta',
  'floor.nohits': 'nessun risultato: nulla corrisponde alla domanda', 'floor.reaches': 'raggiunge', 'floor.below': 'è sotto',
  'floor.best': 'la pertinenza migliore {rel} {verdict} la soglia {floor}',
  'floor.held': 'il passo che corrisponde meglio copre {share} del peso della domanda (serve almeno {min})',
  'floor.missing': '; in nessuno dei primi passi: {keys}',
  'floor.unknown': '; in nessun documento: {words}',
  'floor.nonecovered': 'nessuno dei primi passi copre {min} del peso della domanda, quindi nessuno è confrontato con la soglia {floor} (pertinenza migliore {rel}; {holds})',
  'floor.judged': '{holds}; la pertinenza migliore dei passi che lo coprono, {judged}{chunk}, {verdict} la soglia {floor}',
  'docs.reindex': 'Reindicizza la cartella', 'docs.col.doc': 'Documento', 'docs.col.lang': 'Lingua',
  'docs.col.chunks': 'Passi', 'docs.col.updated': 'Aggiornato', 'docs.col.actions': 'Azioni',
  'docs.count': '{n} documenti, {chunks} passi', 'docs.empty': 'Ancora nessun documento: caricane qualcuno.',
  'docs.loading': 'Carico…', 'docs.confirm': 'Eliminare «{id}» dall\u2019indice? I suoi passi non saranno più citati.',
  'docs.deleted': 'Eliminato {id}.', 'docs.delete.label': 'Elimina {id}',
  'upload.sending': 'invio…', 'upload.indexing': 'indicizzo…', 'upload.done': 'indicizzato',
  'upload.unchanged': 'invariato', 'upload.refused': 'rifiutato: {reason}',
  'reindex.running': 'Reindicizzo… {files} di {total} file', 'reindex.start': 'Reindicizzo…',
  'reindex.done': 'Fatto: {indexed} indicizzati, {removed} rimossi, {refused} rifiutati, {chunks} passi.',
  'reindex.nofolder': 'Per questa raccolta non è configurata una cartella di documenti, quindi non c\u2019è nulla da reindicizzare: carica i file.',
  'eval.title': 'Valutazione', 'eval.lead': 'Esegui un insieme di domande sulla raccolta e confronta i metodi di ricerca (token di amministrazione).',
  'eval.file': 'File di domande', 'eval.paste': '— incolla le domande qui sotto —', 'eval.questions': 'Domande (JSON Lines)',
  'eval.retrievers': 'Metodi di ricerca', 'eval.run': 'Esegui la valutazione', 'eval.download': 'Scarica JSON',
  'eval.running': 'Eseguo {n} domande…', 'eval.done': '{n} domande (parte {split}) sulla raccolta {collection}.',
  'eval.need': 'Scegli un file di domande o incolla le domande.', 'eval.metrics': 'Ricerca', 'eval.retriever': 'Metodo',
  'eval.floor': 'Soglia di astensione', 'eval.floor.line': 'in uso {in_use} · consigliata {suggested}',
  'eval.plots': 'Grafici', 'eval.perq': 'Per domanda', 'eval.nofiles': 'nessun file di domande sul server',
  'eval.missing': 'Questo server non ha ancora la valutazione.',
  'eval.upload': 'Oppure carica un file di domande da questo computer', 'eval.loaded': 'Caricato {name}: {n} domande.',
  network: 'Il server non risponde. fonte serve è in esecuzione?',
  error: 'Qualcosa è andato storto', 'error.stream': 'La risposta si è interrotta prima di essere completa.',
  'collections.error': 'Impossibile elencare le raccolte.',
};

export const lang = (navigator.language || 'en').toLowerCase().startsWith('it') ? 'it' : 'en';

// t returns the label key with {name} replaced by vars.name.
export function t(key, vars) { return tIn(lang, key, vars); }

// tIn is t in language l ('en' or 'it'), for what the page says about an
// answer in the question's language rather than the browser's.
export function tIn(l, key, vars) {
  let s = (l === 'it' ? it : en)[key] ?? en[key] ?? key;
  if (vars) s = s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
  return s;
}

// speaks is l when the page has labels in it, else the page's language.
export function speaks(l) { return l === 'it' || l === 'en' ? l : lang; }

// translate sets the labels of the static page: data-i18n (text),
// data-i18n-label (aria-label), data-i18n-placeholder.
export function translate(root = document) {
  document.documentElement.lang = lang;
  for (const e of root.querySelectorAll('[data-i18n]')) e.textContent = t(e.dataset.i18n);
  for (const e of root.querySelectorAll('[data-i18n-label]')) e.setAttribute('aria-label', t(e.dataset.i18nLabel));
  for (const e of root.querySelectorAll('[data-i18n-placeholder]')) e.setAttribute('placeholder', t(e.dataset.i18nPlaceholder));
}

// Numbers and dates in the page's language.
export function num(x, digits = 2, l = lang) {
  return typeof x === 'number' && isFinite(x) ? x.toLocaleString(l, { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '—';
}
export function int(x) { return typeof x === 'number' ? x.toLocaleString(lang) : '—'; }
export function date(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  if (isNaN(d) || d.getUTCFullYear() < 1971) return '';
  return d.toLocaleDateString(lang, { year: 'numeric', month: 'short', day: 'numeric' });
}
