"""Every relative link in the docs (and the README) points at a file that exists, and every
`#anchor` at a heading of that file (GitHub's slugs)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes."""
    text = re.sub(r"`", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", path.read_text("utf-8"), flags=re.S)
    return {slug(m.group(1)) for m in re.finditer(r"^#+\s+(.+?)\s*$", text, re.M)}


def link_problems(page: Path, root: Path = ROOT) -> list[str]:
    problems = []
    text = re.sub(r"```.*?```", "", page.read_text("utf-8"), flags=re.S)
    for target in LINK.findall(text):
        if re.match(r"^[a-z]+:", target):
            continue  # http:, https:, mailto:: not checked offline
        file_part, _, anchor = target.partition("#")
        path = (page.parent / file_part).resolve() if file_part else page
        if not path.exists():
            problems.append(f"{page.relative_to(root)}: {target} -> no such file")
        elif anchor and path.suffix == ".md" and anchor not in anchors(path):
            problems.append(f"{page.relative_to(root)}: {target} -> no heading #{anchor}")
    return problems


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(page):
    assert link_problems(page) == []


def test_architecture_page_is_linked_from_the_docs_index():
    assert "(architecture.md)" in (ROOT / "docs" / "README.md").read_text("utf-8")


def test_the_link_check_finds_a_broken_file_and_a_broken_anchor(tmp_path):
    (tmp_path / "a.md").write_text("# Title\n\n## The capture contract (`carto_core.x`)\n", "utf-8")
    page = tmp_path / "b.md"
    page.write_text("[ok](a.md#the-capture-contract-carto_corex) [gone](missing.md) [bad](a.md#nowhere)\n"
                    "```\n[in code](ignored.md)\n```\n[web](https://example.org/x)\n", "utf-8")
    assert link_problems(page, tmp_path) == ["b.md: missing.md -> no such file",
                                             "b.md: a.md#nowhere -> no heading #nowhere"]
