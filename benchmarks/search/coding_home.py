"""A home of coding work for the relevance floor's own scenario (issue: "kubernetes helm chart
upgrade" on a home that never saw Kubernetes), in English a person wrote: this repository's
commits (`carto ingest git`) and its docs as notes (`carto ingest notes`, one event a section),
the shared sample transcripts (`carto ingest claude` / `codex`), the demo home's events, and
`--events` generated coding events for size (`evaluation.generate`).

    .venv/bin/python benchmarks/search/coding_home.py /work/tmp/floor2/coding --events 20000 \\
        --repo . --docs docs --fixtures /work/shared/fixtures

Then index it (`CARTO_HOME=... carto index`) and ask `probe_floor.py --homes ... --sets coding`.
Nothing is read from the real agent folders: every ingest is given its roots, and no history.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

#: Questions whose answers this home holds (the repository's own work): a floor must not
#: silence them. No labelled answer: a search that finds something counts.
REAL = [
    "how did we make a cold minilm query cheaper?",
    "why does the wordllama tokenizer never touch the network",
    "What did we decide about the prompt recall gate margin?",
    "relevance floor cosine for minilm",
    "How are commit shas matched by a short prefix?",
    "qdrant vector store option",
    "Why was scikit-learn made an extra?",
    "How does uninstall restore the settings files?",
    "bm25 coverage in fusion",
    "what changed in the session span computation",
    "How do we redact secrets before writing a row?",
    "the keep-up job after a hook",
]


def _carto(home: Path, *args: str) -> dict:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("CLAUDE", "CODEX", "CARTO_CLAUDE", "CARTO_CODEX"))}
    env["CARTO_HOME"] = str(home)
    carto = str(Path(sys.executable).with_name("carto"))
    done = subprocess.run([carto, *args, "--json"], env=env,
                          capture_output=True, text=True)
    if done.returncode not in (0, 3):
        raise SystemExit(f"carto {' '.join(args)}: exit {done.returncode}: {done.stderr[-400:]}")
    try:
        return json.loads(done.stdout or "{}")
    except ValueError:
        return {"stdout": done.stdout[-200:]}


def build(root: Path, events: int, repo: Path, docs: Path, fixtures: Path,
          now: datetime) -> dict:
    from carto_core.evaluation.generate import generate_home
    from carto_core.evaluation.sample import build_sample_home

    counts = {"generated": generate_home(root, events, now=now, seed=11)} if events else {}
    build_sample_home(root, now=now)
    counts["git"] = _carto(root, "ingest", "git", "--repo", str(repo), "--all-authors",
                           "--limit", "5000")
    counts["notes"] = _carto(root, "ingest", "notes", "--root", str(docs))
    claude = [p for p in (fixtures / "claude").glob("*/*") if p.is_dir()] + \
        [p for p in (fixtures / "claude").glob("*") if p.is_dir()]
    args = [a for p in claude for a in ("--root", str(p))]
    counts["claude"] = _carto(root, "ingest", "claude", *args, "--history", "none")
    codex = [p for p in (fixtures / "codex").glob("*") if p.is_dir()]
    counts["codex"] = _carto(root, "ingest", "codex",
                             *[a for p in codex for a in ("--root", str(p))])
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--events", type=int, default=20000)
    parser.add_argument("--repo", type=Path, default=Path("."))
    parser.add_argument("--docs", type=Path, default=Path("docs"))
    parser.add_argument("--fixtures", type=Path, default=Path("/work/shared/fixtures"))
    args = parser.parse_args()
    now = datetime.now(timezone.utc)
    counts = build(args.root, args.events, args.repo.resolve(), args.docs.resolve(),
                   args.fixtures.resolve(), now)
    (args.root / "real-questions.json").write_text(json.dumps(REAL))
    print(json.dumps(counts, default=str)[:2000])


if __name__ == "__main__":
    main()
