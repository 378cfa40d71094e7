"""Where a cold `carto search` gains its resident memory, stage by stage: the search runs in
this process with the pipeline's stages wrapped (`_resolve`, `_scope`, each ladder's `_ask`,
`_decay`, `_collapse`, `_facets`, `_render`), and each stage's peak and current RSS before
and after it are written to `--out`. The home is CARTO_HOME (searched once before, so that
its keyword index is up to date; a copied home's first search catches the index up):

    CARTO_HOME=H CARTO_EMBEDDER=wordllama nice -n 10 .venv/bin/python \\
        benchmarks/search/cold_stage_rss.py "how did we fix the flaky login test?" --out F

`--maps` also writes, for each stage, the mappings whose resident pages grew most during it
(/proc/self/smaps: a file's last two path parts, `[heap]`, `[anon]`): which files' pages a
stage faulted in.
"""

from __future__ import annotations

import argparse
import resource
import sys


def peak() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def current() -> float:
    with open("/proc/self/statm") as handle:
        return round(int(handle.read().split()[1]) * 4096 / 2**20, 1)


def mappings() -> dict[str, int]:
    """Resident KB by mapping (a file's last two path parts, or `[heap]`, `[anon]`...)."""
    out: dict[str, int] = {}
    name = None
    with open("/proc/self/smaps") as handle:
        for line in handle:
            parts = line.split()
            if "-" in parts[0] and not parts[0].endswith(":"):
                name = parts[5] if len(parts) > 5 else "[anon]"
                if name.startswith("/"):
                    name = "/".join(name.split("/")[-2:])
            elif parts[0] == "Rss:":
                out[name] = out.get(name, 0) + int(parts[1])
    return out


def grown(before: dict[str, int], after: dict[str, int]) -> str:
    rises = sorted(((kb - before.get(name, 0), name) for name, kb in after.items()), reverse=True)
    return ", ".join(f"{name} +{kb / 1024:.1f}" for kb, name in rises[:8] if kb > 512)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("query")
    parser.add_argument("--out", required=True)
    parser.add_argument("--maps", action="store_true", help="which mappings each stage grew")
    args = parser.parse_args()
    log = open(args.out, "w", encoding="utf-8")  # carto's own output owns stdout and stderr
    from carto_core.search import pipeline

    for name in ("_resolve", "_scope", "_ladders", "_ask", "_decay", "_render", "_collapse", "_facets"):
        real = getattr(pipeline, name)

        def wrapped(*a, _real=real, _name=name, **k):
            before = (peak(), current(), mappings() if args.maps else None)
            out = _real(*a, **k)
            label = f"{_name} {a[0]}" if _name == "_ask" else _name
            log.write(f"{label}: peak {before[0]} -> {peak()} MB, current {before[1]} -> {current()} MB\n")
            if args.maps:
                log.write(f"    grew: {grown(before[2], mappings())}\n")
            log.flush()
            return out
        setattr(pipeline, name, wrapped)
    from carto_core.entry import main as carto

    sys.argv = ["carto", "search", args.query, "--limit", "10", "--json", "--all"]
    try:
        carto()
    finally:
        log.write(f"end: peak {peak()} MB\n")
        log.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
