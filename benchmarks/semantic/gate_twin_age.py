"""How old are the twins the novelty gate rejects for? The gate's window (`gate_window`, the
newest stored rows it compares a new document with) costs its rows times the documents a
keep-up run gates; this measures, on generated homes, how many rows back each rejected
document's nearest stored twin was, so a window's share of the rejects is read off directly.

Each home's rows are replayed in time order: a first build of the first `--first` share
(ungated, as a backfill is), then keep-up runs of `--chunk` rows each, gated with the window
`all` (every stored row). For each reject, its distance: how many events were appended between
its twin and it (rows of the same order as the store's rows). Printed per home as it goes,
then the share of rejects whose twin is within 1,024 / 4,096 / 16,384 / 65,536 rows:

    nice -n 10 .venv/bin/python benchmarks/semantic/gate_twin_age.py --workdir W
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from datetime import datetime, timezone
from pathlib import Path

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
WINDOWS = (1024, 4096, 16384, 65536)


def rows_in_time_order(home: Path) -> list[tuple[str, dict]]:
    from carto_core.logio.logs import SEARCHED_LOGS

    out = []
    for label, name in SEARCHED_LOGS.items():
        path = home / name
        if path.exists():
            for line in path.read_text("utf-8").splitlines():
                if line.strip():
                    row = json.loads(line)
                    out.append((str(row.get("timestamp") or ""), label, row))
    out.sort(key=lambda item: item[0])
    return [(label, row) for _, label, row in out]


def replay(source: Path, target: Path, first: float, chunk: int) -> dict:
    from carto_core.logio.appendlog import append_rows
    from carto_core.logio.home import Home
    from carto_core.semantic.indexer import run_index

    rows = rows_in_time_order(source)
    position: dict[str, int] = {}
    for i, (_, row) in enumerate(rows):
        position.setdefault(str(row.get("event_id")), i)
    home = Home(target)
    target.mkdir(parents=True, exist_ok=True)
    os.environ["CARTO_HOME"] = str(target)

    def write(part):
        by_label: dict[str, list[dict]] = {}
        for label, row in part:
            by_label.setdefault(label, []).append(row)
        for label, batch in by_label.items():
            append_rows(home.log(label), batch)

    start = int(len(rows) * first)
    write(rows[:start])
    assert run_index(home).outcome == "ok"
    gated = 0
    for lo in range(start, len(rows), chunk):
        write(rows[lo:lo + chunk])
        report = run_index(home)
        assert report.outcome == "ok" and report.gate_active, report
        gated += report.gated
    rejects = [json.loads(line) for line in
               home.state_file("index-rejects.jsonl").read_text("utf-8").splitlines()] \
        if home.state_file("index-rejects.jsonl").exists() else []
    ages = sorted(position[r["event_id"]] - position[r["nearest"]] for r in rejects)
    return {"rows": len(rows), "replayed": len(rows) - start, "rejects": len(rejects), "ages": ages}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workdir", type=Path, required=True)
    parser.add_argument("--first", type=float, default=0.5)
    parser.add_argument("--chunk", type=int, default=250)
    parser.add_argument("--embedder", default="wordllama")
    args = parser.parse_args()
    sandbox = args.workdir / "sandbox"
    sandbox.mkdir(parents=True, exist_ok=True)
    for key in [k for k in os.environ if k.endswith("SESSION_ID")]:
        del os.environ[key]
    os.environ.update(HOME=str(sandbox), XDG_CONFIG_HOME=str(sandbox / "config"),
                      XDG_CACHE_HOME=str(sandbox / "cache"), XDG_DATA_HOME=str(sandbox / "data"),
                      CARTO_EMBEDDER=args.embedder, CARTO_NOVELTY_GATE_WINDOW="all",
                      CARTO_KEEPUP="0", CARTO_CATCHUP="0", CARTO_WARM="0")
    from carto_core.evaluation.dialogues import dialogue_home
    from carto_core.evaluation.generate import generate_home

    sources = {}
    year = args.workdir / "src-year"
    if not (year / "changelog.jsonl").exists():
        generate_home(year, 20000, seed=11, now=NOW)
    sources["year-20k-seed11"] = year
    for variant, seed in (("a", 1), ("c", 2), ("d", 3)):
        sources[f"dlg-{variant}-{seed}"] = dialogue_home(args.workdir / f"src-dlg-{variant}-{seed}",
                                                         variant=variant, seed=seed, now=NOW)
    total = []
    for name, source in sources.items():
        got = replay(source, args.workdir / f"replay-{name}", args.first, args.chunk)
        total += got["ages"]
        within = {w: sum(a <= w for a in got["ages"]) for w in WINDOWS}
        print(json.dumps({"home": name, **{k: got[k] for k in ("rows", "replayed", "rejects")},
                          "within": within, "median_age": got["ages"][len(got["ages"]) // 2] if got["ages"] else None,
                          "max_age": got["ages"][-1] if got["ages"] else None}), flush=True)
    print(json.dumps({"home": "all", "rejects": len(total),
                      "within": {w: sum(a <= w for a in total) for w in WINDOWS}}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
