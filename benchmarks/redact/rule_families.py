"""The rule families' catch rate on each shape set and the share of ordinary texts changed, for
this tree or (`--base REV`, exported with git archive) a revision's redactor on the same sets.

Reproduce:  .venv/bin/python benchmarks/redact/rule_families.py [--base a17cf96] [--show]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from revision import export  # noqa: E402

MEASURE = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
from carto_core.privacy.redact import Redactor
from tests.privacy.shapes import TUNED, HELD_OUT
from tests.privacy.ordinary import corpus
r = Redactor()
out = {}
for name, make in [*TUNED.items(), ("held-out", HELD_OUT)]:
    cases = make()
    out[name] = [len(cases), [c["text"] for c in cases if c["secret"] in r.text(c["text"])]]
texts = corpus()
out["ordinary"] = [len(texts), [t for t in texts if r.text(t) != t]]
print(json.dumps(out))
"""


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", help="git revision whose redactor to measure instead of this tree's")
    parser.add_argument("--show", action="store_true", help="print what was missed or changed")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        src = ROOT / "src"
        if args.base:
            src = export(args.base, Path(tmp), ("src",)) / "src"
        done = subprocess.run([sys.executable, "-c", MEASURE, str(ROOT)], capture_output=True, text=True, check=True,
                              cwd=ROOT, env={**os.environ, "PYTHONPATH": f"{src}{os.pathsep}{ROOT}"})
    result = json.loads(done.stdout)
    for name, (total, bad) in result.items():
        verb = "changed" if name == "ordinary" else "caught"
        count = len(bad) if name == "ordinary" else total - len(bad)
        print(f"{name:10} {verb} {count} / {total}")
        for text in bad if args.show else ():
            print(f"    {text[:120]!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
