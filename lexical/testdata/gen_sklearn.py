#!/usr/bin/python3
"""Writes the scikit-learn golden files the lexical tests compare against.

Run from anywhere with the Debian interpreter that has scikit-learn 1.2.1:

    /usr/bin/python3 lexical/testdata/gen_sklearn.py

It reads the seed fixtures from ../shared/fixtures/seeds (beside the repo),
rebuilds the seeds' corpora exactly as the seed listings do, and writes one
JSON file per corpus next to this script. Floats are written with repr
precision so that Go parses back the same float64. Document texts are not
copied (shared/ data stays out of the repository): each document and query is
recorded by its SHA-256 so the Go test can check that it rebuilt the same
corpus and questions in the same order.
"""
import hashlib
import json
import math
import os
import re
from collections import Counter

import sklearn
from sklearn.feature_extraction.text import TfidfVectorizer

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "fixtures", "seeds"))


def load(name):
    with open(os.path.join(FIXTURES, name), encoding="utf-8") as f:
        return json.load(f)


def sha(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def handbook_chunks(handbook):
    """The seed 002 chunker: one chunk per heading, text lines joined by spaces."""
    out = []
    for block in handbook.strip().split("\n\n"):
        lines = block.strip().split("\n")
        out.append({"heading": lines[0].lstrip("# ").strip(), "text": " ".join(lines[1:]).strip()})
    return out


def tfidf_golden(name, params, docs, queries):
    kwargs = dict(params)
    if "ngram_range" in kwargs:
        kwargs["ngram_range"] = tuple(kwargs["ngram_range"])  # JSON has no tuples
    vec = TfidfVectorizer(**kwargs)
    matrix = vec.fit_transform(docs).toarray()
    q = vec.transform(queries).toarray() if queries else []
    golden = {
        "generator": "lexical/testdata/gen_sklearn.py",
        "sklearn": sklearn.__version__,
        "params": params,
        "doc_sha256": [sha(d) for d in docs],
        "features": vec.get_feature_names_out().tolist(),
        "idf": vec.idf_.tolist(),
        "matrix": matrix.tolist(),
        "queries": [{"sha256": sha(t), "vector": v} for t, v in zip(queries, q.tolist())],
    }
    with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
        json.dump(golden, f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")
    print(name, matrix.shape, len(queries), "queries")


def bm25_golden(name, seed):
    """Seed 001's BM25, as its listing computes it, for the three queries."""
    stop = set(seed["stop_words"])

    def tokens(text):
        return [w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in stop]

    docs = {d: "%s. %s" % (d, t) for d, t in seed["documents"].items()}
    k1, b = 1.5, 0.75
    tf = {d: Counter(tokens(t)) for d, t in docs.items()}
    length = {d: sum(c.values()) for d, c in tf.items()}
    avg = sum(length.values()) / len(docs)
    df = Counter(t for c in tf.values() for t in c)
    n = len(docs)

    def score(query, d):
        s = 0.0
        for t in tokens(query):
            if t not in tf[d]:
                continue
            idf = math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5))
            f = tf[d][t]
            s += idf * f * (k1 + 1) / (f + k1 * (1 - b + b * length[d] / avg))
        return s

    golden = {
        "generator": "lexical/testdata/gen_sklearn.py",
        "k1": k1,
        "b": b,
        "ids": list(docs),
        "doc_sha256": [sha(t) for t in docs.values()],
        "queries": [{"sha256": sha(q), "scores": [score(q, d) for d in docs]} for q in seed["queries"]],
    }
    with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
        json.dump(golden, f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")
    print(name, len(docs), "docs", len(seed["queries"]), "queries")


def main():
    s0 = load("seed000-rulebook-it.json")
    passages = [p["text"] for p in s0["passages"]]
    queries0 = [q["question"] for q in s0["questions"]] + s0["unanswerable"]
    tfidf_golden("sklearn_seed000.json", {}, passages, queries0)

    s2 = load("seed002-handbook-en.json")
    small = [c["heading"] + ". " + c["text"] for c in handbook_chunks(s2["handbook_small"])]
    stub_questions = [
        "how long does a refund take",
        "how many days do I have to return an item",
        "how long do international refunds take",
        "do you ship to Ireland",
    ]
    tfidf_golden("sklearn_seed002_small.json", {"stop_words": "english"}, small, stub_questions)

    large = [c["heading"] + ". " + c["text"] for c in handbook_chunks(s2["handbook"])]
    queries2 = [e["question"] for e in s2["eval"]] + s2["unanswerable"]
    tfidf_golden(
        "sklearn_seed002_large.json",
        {"analyzer": "char_wb", "ngram_range": [4, 5], "sublinear_tf": True},
        large,
        queries2,
    )

    bm25_golden("bm25_seed001.json", load("seed001-sops-en.json"))


if __name__ == "__main__":
    main()
