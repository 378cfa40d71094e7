"""The user install against the developer install: time and size, each in a fresh venv.

    python benchmarks/install/measure_install.py [--runs N] [--json]

For each kind, a fresh virtual environment (its pip upgraded first, not timed), then the install
command timed (wall clock) and the venv measured (bytes on disk, distributions installed):

- user:   pip install -r requirements.txt          (runtime dependencies, carto built as wheels)
- wheels: pip install --no-index --find-links W ... (the same set from a wheelhouse made once with
          `pip wheel -w W -r requirements.txt`; the wheelhouse build is timed apart)
- dev:    pip install -r requirements-dev.txt      (editable, every extra, the test tools)

pip's cache is left as it is for every kind (warm after the first run on a machine); the medians
of --runs runs are printed. Results go to docs/performance.md ("The user install").
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
USER_SET = ["carto-core[serve]", "carto-rankers[encoder]", "carto-claude", "carto-codex", "carto-git",
            "carto-hermes"]


def venv(folder: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True)
    python = folder / "bin" / "python"
    subprocess.run([python, "-m", "pip", "install", "-q", "--upgrade", "pip"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return python


def size(folder: Path) -> int:
    total = 0
    for dirpath, _, files in os.walk(folder):
        for name in files:
            path = os.path.join(dirpath, name)
            if not os.path.islink(path):
                total += os.lstat(path).st_blocks * 512
    return total


def distributions(python: Path) -> int:
    out = subprocess.run([python, "-m", "pip", "list", "--format", "json"], check=True,
                         capture_output=True, text=True).stdout
    return len(json.loads(out))


def timed(command: list, cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def one_run(scratch: Path) -> dict:
    results = {}
    wheels = scratch / "wheels"
    build = timed([sys.executable, "-m", "pip", "wheel", "-q", "-w", str(wheels), "-r",
                   "requirements.txt"], ROOT)
    results["wheelhouse"] = {"seconds": build, "bytes": size(wheels),
                             "files": len(list(wheels.iterdir()))}
    for kind, args in (("user", ["-r", "requirements.txt"]),
                       ("wheels", ["--no-index", "--find-links", str(wheels), *USER_SET]),
                       ("dev", ["-r", "requirements-dev.txt"])):
        folder = scratch / f"venv-{kind}"  # not scratch/wheels: that is the wheelhouse
        python = venv(folder)
        seconds = timed([python, "-m", "pip", "install", "-q", *args], ROOT)
        results[kind] = {"seconds": seconds, "bytes": size(folder),
                         "distributions": distributions(python)}
        shutil.rmtree(folder)
        print(kind, results[kind], file=sys.stderr, flush=True)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--scratch", default=None, help="folder for the venvs (default: the temp folder)")
    args = parser.parse_args()
    runs = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="measure-install-", dir=args.scratch) as scratch:
            runs.append(one_run(Path(scratch)))
    kinds = runs[0].keys()
    medians = {kind: {key: statistics.median(run[kind][key] for run in runs)
                      for key in runs[0][kind]} for kind in kinds}
    if args.json:
        print(json.dumps({"runs": runs, "medians": medians}, indent=2))
        return
    dev = medians["dev"]
    print(f"{'kind':<10} {'seconds':>8} {'MB':>8} {'dists':>6}  size/dev")
    for kind in ("user", "wheels", "dev"):
        row = medians[kind]
        print(f"{kind:<10} {row['seconds']:8.1f} {row['bytes'] / 1e6:8.1f} "
              f"{row['distributions']:6.0f}  {row['bytes'] / dev['bytes']:.2f}")
    house = medians["wheelhouse"]
    print(f"wheelhouse: {house['files']:.0f} files, {house['bytes'] / 1e6:.1f} MB, built in "
          f"{house['seconds']:.1f} s")


if __name__ == "__main__":
    main()
