"""Strings of the real transcripts (the shared fixtures) and of this repository's docs and source:
what this tree's redactor changes that a revision's (`--base`, default main) did not. Text
nothing was tuned on: every change it prints is a false positive or a credential.

Reproduce:  .venv/bin/python benchmarks/redact/real_text_changes.py [--base main]
"""
import argparse, json, os, sys, pathlib, subprocess, tempfile
ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from revision import export
os.chdir(ROOT)
parser = argparse.ArgumentParser()
parser.add_argument("--base", default="main")
args = parser.parse_args()
base_dir = tempfile.mkdtemp()
export(args.base, pathlib.Path(base_dir), ("src",))
from carto_core.privacy.redact import Redactor
new = Redactor()
strings = []
def walk(v):
    if isinstance(v, str): strings.append(v)
    elif isinstance(v, dict): [walk(x) for x in v.values()]
    elif isinstance(v, list): [walk(x) for x in v]
for folder in (ROOT.parent.parent / 'shared' / 'fixtures', pathlib.Path('/work/shared/fixtures')):
  for p in folder.rglob('*.jsonl'):
    for line in p.read_text(errors='replace').splitlines():
        try: walk(json.loads(line))
        except ValueError: strings.append(line)
  if strings: break
for p in list(pathlib.Path('docs').rglob('*.md')) + list(pathlib.Path('src').rglob('*.py'))[:400]:
    strings += p.read_text().split("\n\n")
strings = list(dict.fromkeys(s for s in strings if len(s) >= 8))
old_code = "import sys,json; sys.path.insert(0,sys.argv[1]); from carto_core.privacy.redact import Redactor; r=Redactor(); d=json.load(sys.stdin); print(json.dumps([r.text(s) for s in d]))"
old = json.loads(subprocess.run([sys.executable, '-c', old_code, f'{base_dir}/src'], input=json.dumps(strings), capture_output=True, text=True).stdout)
diff = [(s, o, new.text(s)) for s, o in zip(strings, old) if new.text(s) != o]
print(f"strings {len(strings)}, changed differently {len(diff)}")
for s, o, n in diff:
    if n.count("[REDACTED:") <= o.count("[REDACTED:"):
        print("   less or other than before:", repr(o[:160]), "->", repr(n[:160]))
import re
for s, o, n in diff:
    for m in re.finditer(r"\[REDACTED:[\w.-]+\]", n):
        print("  ", repr(n[max(0, m.start()-70):m.end()+30]))
        break
