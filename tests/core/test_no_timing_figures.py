"""Timing figures live in docs/performance.md, not in the source: a comment or docstring says why
a line is written the way it is, and a figure there goes stale the day the code around it
changes. Checked over every comment and string of the workspace's Python source (tests aside),
with the checker shown finding a figure in a temporary file."""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ["src", "rankers/src", "plugins/claude/src", "plugins/codex/src", "plugins/git/src",
           "plugins/hermes/src", "examples"]
#: A measured duration: a number followed by a time unit ("~3 ms", "0.8 ms", "15 us", "2.5 s of
#: CPU", "CPU s"), or a ratio of speed ("3x faster").
FIGURE = re.compile(r"\d(?:[\d.,]*\d)?\s?(?:ms|µs|us)\b|\d(?:[\d.]*\d)?\s?s (?:of CPU|CPU|wall)\b"
                    r"|\d(?:\.\d+)?x (?:faster|slower)\b")


def figures(path: Path) -> list[tuple[int, str]]:
    """(line, text) of every comment or string token of `path` holding a timing figure."""
    out = []
    with open(path, "rb") as handle:
        tokens = tokenize.tokenize(io.BytesIO(handle.read()).readline)
        for token in tokens:
            if token.type in (tokenize.COMMENT, tokenize.STRING) and FIGURE.search(token.string):
                out.append((token.start[0], FIGURE.search(token.string).group(0)))
    return out


def _python_files():
    for folder in SOURCES:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "tests" not in path.relative_to(ROOT).parts:
                yield path


def test_no_timing_figure_in_the_source():
    found = {str(path.relative_to(ROOT)): hits for path in _python_files() if (hits := figures(path))}
    assert not found, f"timing figures in comments or docstrings (move them to docs/performance.md): {found}"


def test_the_check_finds_a_figure(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text('"""Loads fast (~3 ms of a cold search)."""\n\nx = 1  # 2.5 s of CPU at 1M events\n'
                      'y = "a 3x faster path"\nms = 0  # a name, not a figure\n', encoding="utf-8")
    assert [line for line, _ in figures(sample)] == [1, 3, 4]
