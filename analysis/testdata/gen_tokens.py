#!/usr/bin/python3
"""Writes tokens.json, the scikit-learn outputs the analysis tests compare against.

Run with the Debian interpreter that has scikit-learn 1.2.1:

    /usr/bin/python3 analysis/testdata/gen_tokens.py

Each input below goes through scikit-learn's own analyzers (not a copy of
their logic), so the Go tests check behaviour, not our reading of the source.
"""
import hashlib
import json
import os
import re

import sklearn
from sklearn.feature_extraction._stop_words import ENGLISH_STOP_WORDS
from sklearn.feature_extraction.text import TfidfVectorizer

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "fixtures", "seeds"))

INPUTS = [
    "",
    "   ",
    "a",
    "Ab",
    "La città è bella, perché sì.",
    "Lo stato dell'invio e l'uso dell’auto: un'applicazione.",
    "Il rimborso è di 2,16 giorni; 120 euro a notte.",
    "Quanti giorni di ANTICIPO per chiedere le FERIE?",
    "SOP-014 and ERR-4012 in v2.3.1 (see e-mail).",
    "snake_case __init__ _x x_ __",
    "decomposed citta\u0300 and cafe\u0301 au lait",
    "ΟΔΟΣ Οδός ΣΟΦΟΣ. Σ ΑΣ ΑΣΑ",
    "İstanbul İ KELVIN \u212a",
    "superscripts x² 2³ ½ Ⅻ ⅻ ① 10",
    "tabs\tand\nnewlines\r\n\n  spaces\u00a0nbsp\u2003em",
    "file\x1cseparator\x1funit",
    "Japanese 日本語のテキスト and Thai ภาษาไทย",
    "Hindi हिन्दी and Arabic العربية",
    "emoji 👍🏽 ok 🙂🙂",
    "titlecase ǅemal ǈ",
    "zero\u200bwidth zw\u200dj",
    "The quick brown fox jumps over the lazy dog; we'd have called the system.",
    "How long does a refund take? Refunds, returns and deliveries.",
    "international",
    "ab",
    "a b c de",
]

def sha(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


CHAR_WB_RANGES = [(1, 1), (2, 3), (3, 3), (4, 5), (5, 8)]


def main():
    word = TfidfVectorizer().build_analyzer()
    english = TfidfVectorizer(stop_words="english").build_analyzer()
    char_wb = {r: TfidfVectorizer(analyzer="char_wb", ngram_range=r).build_analyzer() for r in CHAR_WB_RANGES}
    cases = []
    for text in INPUTS:
        cases.append({
            "input": text,
            "lower": text.lower(),
            "word": word(text),
            "english": english(text),
            "ascii": re.findall(r"[a-z0-9]+", text.lower()),
            "char_wb": [{"min": r[0], "max": r[1], "ngrams": char_wb[r](text)} for r in CHAR_WB_RANGES],
        })
    # Seed 000's Italian passages and questions: recorded by digest only, so
    # the shared data stays out of the repository (see hashTokens in the test).
    with open(os.path.join(FIXTURES, "seed000-rulebook-it.json"), encoding="utf-8") as f:
        seed = json.load(f)
    texts = [p["text"] for p in seed["passages"]]
    texts += [q["question"] for q in seed["questions"]] + seed["unanswerable"]
    seed000 = [{"text_sha256": sha(t), "count": len(word(t)), "tokens_sha256": sha("\n".join(word(t)))} for t in texts]
    golden = {
        "generator": "analysis/testdata/gen_tokens.py",
        "sklearn": sklearn.__version__,
        "english_stop_words": sorted(ENGLISH_STOP_WORDS),
        "cases": cases,
        "seed000": seed000,
    }
    with open(os.path.join(HERE, "tokens.json"), "w", encoding="utf-8") as f:
        json.dump(golden, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print("tokens.json:", len(cases), "cases,", len(ENGLISH_STOP_WORDS), "stop words")


if __name__ == "__main__":
    main()
