"""Fresh-process cost of the rule classifier: load a rules module and classify one prompt.

    git show "$(git log --format=%h -1 --grep='prompt intents and retrieval reports')":src/carto_core/intents/rules.py > /tmp/rules_old.py
    python benchmarks/intents/rules_startup.py /tmp/rules_old.py src/carto_core/intents/rules.py

Prints the median of --runs fresh interpreters per file (milliseconds), the probe's own
timing of loading the file and classifying one prompt, and the whole process (the bare
interpreter measured in the same run, for the ratio). The runs interleave the files, so a
change in the machine's load falls on all of them. Capture classifies the prompts it writes,
so this cost is paid by a hook process (docs/intents.md, docs/performance.md).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

PROBE = """
import importlib.util, sys, time
t = time.perf_counter()
spec = importlib.util.spec_from_file_location("rules_probe", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
module.classify("please fix the crash in the login page when the token expires")
print((time.perf_counter() - t) * 1000)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    inner: dict[str, list[float]] = {path: [] for path in args.files}
    whole: dict[str, list[float]] = {path: [] for path in ["(bare python -c pass)", *args.files]}
    for _ in range(args.runs):
        for path in whole:
            command = [sys.executable, "-c", "pass"] if path not in inner else [sys.executable, "-c", PROBE, path]
            started = time.perf_counter()
            out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
            whole[path].append((time.perf_counter() - started) * 1000)
            if path in inner:
                inner[path].append(float(out))
    bare = statistics.median(whole["(bare python -c pass)"])
    for path, times in whole.items():
        own = f"load + classify {statistics.median(inner[path]):.1f} ms, " if path in inner else ""
        print(f"{path}: {own}process {statistics.median(times):.1f} ms "
              f"({statistics.median(times) / bare:.2f}x bare), median of {args.runs}")


if __name__ == "__main__":
    main()
