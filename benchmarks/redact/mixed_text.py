"""A deterministic "mixed text" body for the redaction benchmarks: what an agent's tool calls
carry (shell output, source code, JSON, prose, paths, hashes), cut from the shared fixtures and
from this repository's code and docs as they were at a pinned revision (`REVISION`, read with
`git show`), so the figures depend neither on a synthetic word list nor on today's tree."""

from __future__ import annotations

import json
import random
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT.parent.parent / "shared" / "fixtures"
#: The tree the code and docs lines come from (before the issue-14 redactor).
REVISION = "6433455"


def _fixture_strings() -> list[str]:
    found: list[str] = []
    for folder in (FIXTURES, Path("/work/shared/fixtures")):
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob("*.jsonl")):
            for line in path.read_text("utf-8", "replace").splitlines():
                try:
                    _collect(json.loads(line), found)
                except ValueError:
                    continue
        if found:
            break
    return found


def _collect(value, found: list[str]) -> None:
    if isinstance(value, str):
        if len(value) >= 20:
            found.append(value)
    elif isinstance(value, dict):
        for item in value.values():
            _collect(item, found)
    elif isinstance(value, list):
        for item in value:
            _collect(item, found)


def pieces() -> list[str]:
    """Realistic strings: fixture transcript strings plus lines of carto's own code and docs."""
    import subprocess

    out = _fixture_strings()
    names = subprocess.run(["git", "ls-tree", "-r", "--name-only", REVISION], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout.split()
    for name in names:
        if not (name.startswith("src/carto_core/") and name.endswith(".py") or
                name.startswith("docs/") and name.endswith(".md")) or "redact" in name:
            continue  # (the old rule table is all secret words)
        text = subprocess.run(["git", "show", f"{REVISION}:{name}"], cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout
        out.extend(line for line in text.splitlines() if len(line) >= 20)
    return out


def mixed_text(size: int = 20_000, seed: int = 14) -> str:
    rnd = random.Random(seed)
    source = pieces()
    chunks, total = [], 0
    while total < size:
        chunk = rnd.choice(source)
        chunks.append(chunk)
        total += len(chunk) + 1
    return "\n".join(chunks)[:size]


def short_strings(count: int = 2000, seed: int = 15) -> list[str]:
    rnd = random.Random(seed)
    source = pieces()
    return [rnd.choice(source)[:400] for _ in range(count)]
