"""What the unsaved tail costs the prompt hook, by its size: whole `carto hook claude
UserPromptSubmit` processes on copies of one home whose index was saved, each copy with a tail
of a given size (rows of the home's own turns and changelog appended again under new ids),
interleaved run by run. Wall and CPU time (`os.wait4`) medians, and how many runs injected
something. The sizes straddle the hook's limits (`recall.prompt`: read up to TAIL_READ_BYTES,
the saved index alone past it, silent past 2 MiB / 2 %); the catch-up the hook would start is
held off (a fresh cooldown stamp), so every run meets the same tail.

    nice -n 10 .venv/bin/python benchmarks/recall/bench_tail.py --home /tmp/gate-sizes/home-20000 \\
        --work /tmp/bench-tail --runs 15
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hook"))
from bench_prompt_recall import run_child  # noqa: E402

PYTHON = Path(sys.executable)
CARTO = PYTHON.parent / "carto"
SIZES = (0, 64 << 10, 256 << 10, 1 << 20, 1900 << 10)


def grow(home: Path, size: int) -> int:
    """Append about `size` bytes of the home's own rows under new ids; the bytes appended."""
    written = 0
    rows = []
    for name in ("turns.jsonl", "changelog.jsonl"):
        with open(home / name, "rb") as handle:
            handle.seek(max(0, os.path.getsize(home / name) - (4 << 20)))
            rows += [(name, line) for line in handle.read().splitlines()[1:] if line.strip()]
    n = 0
    with open(home / "turns.jsonl", "ab") as turns, open(home / "changelog.jsonl", "ab") as changelog:
        while written < size and rows:
            name, line = rows[n % len(rows)]
            row = json.loads(line)
            row["event_id"] = f"evt-tailbench{n:08d}"
            data = (json.dumps(row, separators=(",", ":")) + "\n").encode()
            (turns if name == "turns.jsonl" else changelog).write(data)
            written += len(data)
            n += 1
    return written


def run(home: Path, prompt: str, session: str, env: dict) -> tuple[float, float, bytes]:
    payload = json.dumps({"session_id": session, "cwd": "/tmp", "hook_event_name": "UserPromptSubmit",
                          "transcript_path": "/tmp/x.jsonl", "prompt": prompt}).encode()
    wall, cpu, _, out = run_child([str(CARTO), "hook", "claude", "UserPromptSubmit"], payload,
                                  {**env, "CARTO_HOME": str(home)})
    return wall, cpu, out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--home", type=Path, required=True)
    parser.add_argument("--work", type=Path, default=Path("/tmp/bench-tail"))
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update({"CARTO_PROMPT_RECALL": "1", "CARTO_CATCHUP": "0", "CARTO_SEMANTIC": "0",
                "CARTO_RECALL_REFRESH_SECONDS": "1000000000"})
    homes = {}
    for size in SIZES:
        copy = args.work / f"tail-{size}"
        if copy.exists():
            shutil.rmtree(copy)
        shutil.copytree(args.home, copy, symlinks=True)
        # a copy has other inodes than its index recorded: save the index in the copy first
        subprocess.run([str(PYTHON), "-c", "import sys; from carto_core.logio.home import Home; "
                        "from carto_core.jobs.refresh import refresh_index; from carto_core.search.index import "
                        "KeywordIndex; KeywordIndex.build(Home(sys.argv[1]))", str(copy)], check=True, env=env)
        homes[size] = (copy, grow(copy, size))
        (copy / ".carto" / "recall-refresh.last").write_text(str(int(time.time())))
    prompts = [json.loads(line).get("summary") or "" for line in open(args.home / "prompt-history.jsonl")][:args.runs]
    samples = {size: [] for size in SIZES}
    answered = {size: 0 for size in SIZES}
    for n in range(args.runs):
        for size in SIZES:
            wall, cpu, out = run(homes[size][0], prompts[n % len(prompts)], f"tail-bench-{n}", env)
            samples[size].append((wall, cpu))
            answered[size] += bool(out.strip())
        if (n + 1) % 5 == 0:
            print(f"  after {n + 1} runs: " + "; ".join(
                f"{homes[s][1] >> 10} KiB {statistics.median(w for w, _ in samples[s]):.1f} ms" for s in SIZES), flush=True)
    print(f"| tail appended | median ms | median CPU ms | CPU vs no tail | runs that injected |")
    print("|---:|---:|---:|---:|---:|")
    base = statistics.median(c for _, c in samples[0])
    for size in SIZES:
        cpu = statistics.median(c for _, c in samples[size])
        print(f"| {homes[size][1] >> 10} KiB | {statistics.median(w for w, _ in samples[size]):.1f} | {cpu:.1f} | "
              f"{cpu / base:.2f}x | {answered[size]}/{args.runs} |")
    for size in SIZES:
        log = homes[size][0] / ".carto" / "hook.log"
        if log.exists():
            print(f"hook.log of the {homes[size][1] >> 10} KiB tail:", *log.read_text().splitlines()[-2:], sep="\n  ")
    return 0


if __name__ == "__main__":
    sys.exit(main())
