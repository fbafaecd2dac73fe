#!/usr/bin/env python3
"""Check a fonte question set (JSONL) against the documents it cites.

Usage:
    python3 examples/check_questions.py QUESTIONS.jsonl DOCS_ROOT

For every line it checks the shape that `fonte eval --questions` accepts
(known keys only, non-empty id and question, unique ids, gold or
"unanswerable": true but not both, clean relative doc paths) and that each
gold quote occurs verbatim in its document. Text is compared the way
eval.normalize does: typographic quotes become ASCII and runs of white space
become one space. Markdown, HTML and text files are compared as raw text; a
PDF is compared with the output of pdftotext (poppler-utils).

Exits 1 and lists the problems when any check fails.
"""
import json
import os
import re
import subprocess
import sys

QUESTION_KEYS = {"id", "question", "gold", "answer", "unanswerable", "split"}
GOLD_KEYS = {"doc", "quote"}


def normalize(s):
    s = s.replace("\u2018", "'").replace("\u2019", "'")
    s = s.replace("\u201c", '"').replace("\u201d", '"')
    return re.sub(r"\s+", " ", s).strip()


_cache = {}


def doc_text(root, doc):
    if doc not in _cache:
        path = os.path.join(root, doc)
        if doc.lower().endswith(".pdf"):
            raw = subprocess.run(["pdftotext", "-enc", "UTF-8", path, "-"],
                                 check=True, capture_output=True).stdout.decode("utf-8")
        else:
            with open(path, encoding="utf-8") as f:
                raw = f.read()
        _cache[doc] = normalize(raw)
    return _cache[doc]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    qpath, root = sys.argv[1], sys.argv[2]
    problems, seen = [], {}
    answerable = unanswerable = golds = 0
    docs = set()
    with open(qpath, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            t = line.strip()
            if not t or t.startswith("//") or t.startswith("#"):
                continue
            where = f"{qpath}:{n}"
            try:
                q = json.loads(t)
            except json.JSONDecodeError as e:
                problems.append(f"{where}: not JSON: {e}")
                continue
            extra = set(q) - QUESTION_KEYS
            if extra:
                problems.append(f"{where}: unknown keys {sorted(extra)}")
            if q.get("split", "dev") not in ("dev", "test"):
                problems.append(f"{where}: split {q['split']!r} is not dev or test")
            qid = q.get("id", "")
            if not str(qid).strip() or not str(q.get("question", "")).strip():
                problems.append(f"{where}: empty id or question")
            if qid in seen:
                problems.append(f"{where}: duplicate id {qid!r} (first on line {seen[qid]})")
            seen[qid] = n
            gold = q.get("gold") or []
            if q.get("unanswerable"):
                unanswerable += 1
                if gold or q.get("answer"):
                    problems.append(f"{where}: unanswerable question with gold or answer")
                continue
            answerable += 1
            if not gold:
                problems.append(f"{where}: no gold and not unanswerable")
            for i, g in enumerate(gold):
                golds += 1
                extra = set(g) - GOLD_KEYS
                if extra:
                    problems.append(f"{where}: gold[{i}] unknown keys {sorted(extra)}")
                doc, quote = g.get("doc", ""), normalize(g.get("quote", ""))
                if not doc or doc.startswith(("/", "./")) or "\\" in doc or ".." in doc.split("/"):
                    problems.append(f"{where}: gold[{i}].doc {doc!r} is not a clean relative path")
                    continue
                if not os.path.isfile(os.path.join(root, doc)):
                    problems.append(f"{where}: gold[{i}].doc {doc!r} not found under {root}")
                    continue
                docs.add(doc)
                if not quote:
                    problems.append(f"{where}: gold[{i}].quote is empty")
                elif quote not in doc_text(root, doc):
                    problems.append(f"{where}: {qid}: gold[{i}].quote not in {doc}: {quote!r}")
    print(f"{qpath}: {answerable} answerable ({golds} gold quotes in {len(docs)} documents), "
          f"{unanswerable} unanswerable")
    for p in problems:
        print("  " + p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
