"""The keep-up job's own record at several home sizes, as `carto doctor` reports it: for each
BASE (a `benchmarks/scale/corpus.py` home whose semantic index is built), a working copy
(`bench_keepup.working_copy`), then `--runs` times 1,000 appended events (`corpus.append`,
seeds 1000001, 1000002, ...) and one run of the job (`python -m carto_core.jobs.keepup
--home H`: its policy, nice 10 and one thread; each run's CPU and peak RSS recorded by
`jobs.budget.measure` around the index step; the whole process' CPU and peak RSS from
`os.wait4` printed beside it: its start, imports and plugin table too), then `carto doctor
--json`'s `keep_up`:

    nice -n 10 .venv/bin/python benchmarks/semantic/keepup_job_budget.py BASE200K BASE1M BASE3M \\
        --workdir W
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[0] / "scale"))
import bench_keepup  # noqa: E402
import corpus  # noqa: E402
from bench_scale import CARTO, child_env, measured  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bases", type=Path, nargs="+")
    parser.add_argument("--workdir", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--embedder", default="wordllama")
    args = parser.parse_args()
    sandbox = args.workdir / "sandbox"
    sandbox.mkdir(parents=True, exist_ok=True)
    for base in args.bases:
        home = args.workdir / f"job-{base.name}"
        bench_keepup.working_copy(base, home)
        env = child_env(home, sandbox, None)
        env["CARTO_EMBEDDER"] = args.embedder
        for run in range(args.runs):
            corpus.append(home, 1000, seed=1000001 + run)
            got = measured([sys.executable, "-m", "carto_core.jobs.keepup", "--home", str(home)], env)
            print(f"{base.name} run {run + 1}: the whole job process {got['cpu_s']:.2f} s CPU, "
                  f"{got['rss_mb']:.0f} MB peak RSS, {got['wall_s']:.2f} s (load {got['load']})",
                  flush=True)
        doctor = subprocess.run([CARTO, "doctor", "--json"], env=env, capture_output=True, text=True)
        print(json.dumps({"base": str(base), "keep_up": json.loads(doctor.stdout).get("keep_up")}),
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
