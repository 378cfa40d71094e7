"""Evaluation: Yelp's detect-secrets against carto's redactor on carto's credential corpus.

detect-secrets (PyPI, Apache-2.0) was the library issue 14 suggested evaluating. It is not a
dependency of carto: install it in a separate environment and point this script at carto's
source (it needs only the corpus file and, for the comparison, `carto_core.privacy.redact`):

    python3 -m venv /tmp/ds && /tmp/ds/bin/pip install detect-secrets==1.5.0
    /tmp/ds/bin/python benchmarks/redact/compare_detect_secrets.py

A positive counts as caught (value) when some secret detect-secrets reports on the text (every plugin,
default settings and filters, the text scanned as a file, as `detect-secrets scan` does) contains the
corpus entry's distinctive part or lies inside it (a detector reporting only part of a key
still locates it), flagged when it reports anything on the text; a negative counts as a false positive when anything is reported. Cost: median
microseconds per corpus text, same run, both tools (detect-secrets' figure includes writing the
text to a scratch file, which it needs: it scans files).
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "src"))
CORPUS = json.loads((ROOT / "tests" / "core" / "data" / "secrets_corpus.json").read_text("utf-8"))


_SCRATCH = Path(tempfile.mkdtemp()) / "text.txt"


def detect_secrets_found(text: str) -> list[str]:
    """What detect-secrets reports scanning `text` as a file (its plugins with their entropy
    limits and its default filters; `scan_line`, the ad-hoc mode, drops the limits and reports
    nearly every word)."""
    from detect_secrets.core.scan import scan_file

    _SCRATCH.write_text(text, "utf-8")
    return [secret.secret_value for secret in scan_file(str(_SCRATCH)) if secret.secret_value]


def caught(found: list[str], secret: str) -> bool:
    return any(secret in value or (len(value) >= 8 and value in secret) for value in found)


def main() -> int:
    from detect_secrets.settings import default_settings

    from carto_core.privacy.redact import Redactor

    redactor = Redactor()
    positives, negatives = CORPUS["positives"], CORPUS["negatives"]
    with default_settings():
        reports = {id(p): detect_secrets_found(p["text"]) for p in positives}
        ds_missed = [p for p in positives if not caught(reports[id(p)], p["secret"])]
        ds_unflagged = [p for p in positives if not reports[id(p)]]
        ds_flagged = [n for n in negatives if detect_secrets_found(n["text"])]
        texts = [c["text"] for c in positives + negatives]
        timings: dict[str, list[float]] = {"detect-secrets": [], "carto": []}
        for _ in range(5):
            start = time.perf_counter()
            for text in texts:
                detect_secrets_found(text)
            timings["detect-secrets"].append((time.perf_counter() - start) * 1e6 / len(texts))
            start = time.perf_counter()
            for text in texts:
                redactor.text(text)
            timings["carto"].append((time.perf_counter() - start) * 1e6 / len(texts))
    carto_missed = [p for p in positives if p["secret"] in redactor.text(p["text"])]
    carto_flagged = [n for n in negatives if redactor.text(n["text"]) != n["text"]]
    print(f"corpus: {len(positives)} credential shapes, {len(negatives)} true negatives")
    for name, missed, flagged in (("detect-secrets 1.5.0", ds_missed, ds_flagged),
                                  ("carto redactor", carto_missed, carto_flagged)):
        catch = 1 - len(missed) / len(positives)
        fp = len(flagged) / len(negatives)
        print(f"{name:<22} caught {len(positives) - len(missed):>3}/{len(positives)} ({catch:.1%}), "
              f"false positives {len(flagged):>2}/{len(negatives)} ({fp:.1%})")
    for name, values in timings.items():
        print(f"{name:<22} median {statistics.median(values):8.1f} us per corpus text")
    print(f"detect-secrets flags something on {len(positives) - len(ds_unflagged)}/{len(positives)} "
          "positive texts (a line-level alarm; its reported value does not always cover the secret:"
          " its GitHub plugin reports only the `ghp` prefix)")
    print("detect-secrets missed (value), by kind:", sorted({p["kind"] for p in ds_missed}))
    print("detect-secrets flags nothing on, by kind:", sorted({p["kind"] for p in ds_unflagged}))
    print("detect-secrets false positives:", [n["context"] for n in ds_flagged])
    return 0


if __name__ == "__main__":
    sys.exit(main())
