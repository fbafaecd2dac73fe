#!/usr/bin/env python3
"""Checks that labels.jsonl parses and that every label has the fields and
values the judge's calibration expects; prints the counts per verdict and
language. It does not assign or change any verdict."""
import collections
import json
import sys

REQUIRED = {"id": str, "lang": str, "question": str, "reference": str, "answer": str,
            "abstained": bool, "verdict": str, "source": str, "note": str}
VERDICTS = ("right", "misleading", "partial", "wrong", "abstained")


def main(path):
    seen = set()
    counts = collections.Counter()
    errors = 0
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as e:
                print(f"line {n}: not JSON: {e}")
                errors += 1
                continue
            for field, kind in REQUIRED.items():
                if not isinstance(rec.get(field), kind):
                    print(f"line {n}: field {field!r} missing or not {kind.__name__}")
                    errors += 1
            if rec.get("lang") not in ("en", "it"):
                print(f"line {n}: lang {rec.get('lang')!r}")
                errors += 1
            if rec.get("verdict") not in VERDICTS:
                print(f"line {n}: verdict {rec.get('verdict')!r}")
                errors += 1
            if not str(rec.get("id", "")).startswith(str(rec.get("lang")) + "-"):
                print(f"line {n}: id {rec.get('id')!r} does not start with its lang")
                errors += 1
            if rec.get("id") in seen:
                print(f"line {n}: duplicate id {rec.get('id')!r}")
                errors += 1
            seen.add(rec.get("id"))
            if not rec.get("answer", "").strip() or not rec.get("reference", "").strip():
                print(f"line {n}: empty answer or reference")
                errors += 1
            counts[(rec.get("verdict"), rec.get("lang"))] += 1
    print("verdict      en   it  all")
    for v in VERDICTS:
        en, it = counts[(v, "en")], counts[(v, "it")]
        print(f"{v:<11} {en:3d}  {it:3d}  {en + it:3d}")
    en = sum(c for (v, l), c in counts.items() if l == "en")
    it = sum(c for (v, l), c in counts.items() if l == "it")
    print(f"{'all':<11} {en:3d}  {it:3d}  {en + it:3d}")
    if errors:
        print(f"{errors} errors")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "evalsets/judge-labels/labels.jsonl"))
