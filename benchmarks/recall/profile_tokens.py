"""How much of MEMORY.md the profile takes: for a home, `carto profile`'s profile.md written, then
carto's MEMORY.md section of a project (`carto memory`), and of it the profile's part
(`## The owner's work across projects`): lines, bytes, and tokens by a Llama-2 BPE tokenizer
(the one wordllama ships, offline; Claude's own tokenizer is not public, so this is an
estimate of the same kind) beside characters / 4. Budget: Claude Code loads 200 lines / 25 KB.

    .venv/bin/python benchmarks/recall/profile_tokens.py --sample
    .venv/bin/python benchmarks/recall/profile_tokens.py --home /tmp/recall-bench/home-200000
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path


def tokenizer():
    import wordllama
    from tokenizers import Tokenizer

    path = Path(wordllama.__file__).parent / "tokenizers" / "l2_supercat_tokenizer_config.json"
    return Tokenizer.from_file(str(path))


def measure(home, project: str | None) -> dict:
    from carto_core.lenses.memory import MAX_BYTES, MAX_LINES, TITLES, build_memory, render
    from carto_core.lenses.profile import build_profile, write_profile

    started = time.process_time()
    write_profile(home, build_profile(home))
    profile_cpu = time.process_time() - started
    if project is None:
        from collections import Counter

        from carto_core.facts.store import facts_columns

        cols = facts_columns(home)
        counts = Counter(cols.dims["project"].col)
        project = next(cols.dims["project"].names[code] for code, _ in counts.most_common() if code)
    text = render(build_memory(home, project))
    heading = f"## {TITLES['profile']}"
    part = ("\n" + heading + text.split(heading, 1)[1].split("\n## ")[0].split("<!-- carto:memory end")[0]) \
        if heading in text else ""
    encode = tokenizer().encode
    return {"project": project, "profile_cpu_s": round(profile_cpu, 2),
            "section": {"lines": len(text.splitlines()), "bytes": len(text.encode()),
                        "tokens": len(encode(text).ids), "chars_over_4": len(text) // 4},
            "profile_part": {"lines": len(part.strip().splitlines()), "bytes": len(part.encode()),
                             "tokens": len(encode(part).ids), "chars_over_4": len(part) // 4},
            "budget": {"lines": MAX_LINES, "bytes": MAX_BYTES}}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--home", type=Path)
    parser.add_argument("--sample", action="store_true", help="the sample home (carto demo's)")
    parser.add_argument("--project", default=None)
    args = parser.parse_args(argv)
    from carto_core.logio.home import Home

    if args.sample:
        from carto_core.evaluation.sample import build_sample_home

        with tempfile.TemporaryDirectory() as tmp:
            os.environ.setdefault("XDG_CACHE_HOME", os.path.join(tmp, "cache"))
            print(measure(build_sample_home(Path(tmp) / "home"), args.project or "webshop"))
        return 0
    if args.home is None:
        parser.error("--home or --sample")
    print(measure(Home(args.home), args.project))
    return 0


if __name__ == "__main__":
    sys.exit(main())
