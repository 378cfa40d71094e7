"""The profile reaches the agent: `carto memory` puts the lines of `<home>/.carto/profile.md`
(active surface, work shape, cadence) last in carto's MEMORY.md section, within Claude Code's
200 lines / 25 KB, and the memory refresh rebuilds the profile first, so the section carries the
current one."""

from __future__ import annotations

from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.control import memoryfiles
from carto_core.evaluation.sample import build_sample_home
from carto_core.lenses.memory import (BEGIN, MAX_BYTES, MAX_LINES, PROFILE_MARK, TITLES, build_memory,
                                      render, rewritten, section_of)
from carto_core.lenses.profile import build_profile, write_profile

HEADING = f"## {TITLES['profile']}"


def _run(home, *args):
    return CliRunner().invoke(cli, list(args), env={"CARTO_HOME": str(home.root), "CARTO_SESSION_ID": "",
                                                    "CLAUDE_CODE_SESSION_ID": ""})


def _profile_lines(text: str) -> list[str]:
    section = text[text.index(HEADING):].split("\n## ")[0]
    return [line for line in section.splitlines() if line.startswith("- ")]


def test_memory_carries_the_profiles_lines_last_and_within_the_budget(tmp_path):
    home = build_sample_home(tmp_path / "h")
    assert HEADING not in render(build_memory(home, "webshop"))  # no profile written: none
    profile = build_profile(home)
    write_profile(home, profile)
    text = render(build_memory(home, "webshop"))
    lines = _profile_lines(text)
    # every line of the profile's three sections, in its order, marked as carto's
    expected = []
    for block in profile["markdown"].split("\n## ")[1:]:
        title, *body = block.splitlines()
        if title in ("Active surface", "Work shape", "Cadence"):
            expected += [f"- {title}: {line[2:]} <!-- {PROFILE_MARK} -->" for line in body if line.startswith("- ")]
    assert lines == expected and any("webshop" in line for line in lines)
    assert not any("apply discounts before tax" in line for line in lines)  # its decisions stay out
    assert text.index(HEADING) > text.index("## Decisions")               # last: the least useful
    assert len(text.splitlines()) <= MAX_LINES and len(text.encode()) <= MAX_BYTES
    # carto's lines: a rewrite keeps them in the section (not moved out as a person's), twice alike
    once = rewritten(text, build_memory(home, "webshop"))
    assert once == text and rewritten(once, build_memory(home, "webshop")) == once
    # and the mark names no event
    assert section_of(text)[1] and not any(i in ("carto", PROFILE_MARK) for i in section_of(text)[1])


def test_the_profile_gives_way_first_when_a_persons_lines_fill_the_file(tmp_path):
    home = build_sample_home(tmp_path / "h")
    write_profile(home, build_profile(home))
    full = "".join(f"- note {n}\n" for n in range(MAX_LINES - 30))
    text = rewritten(full, build_memory(home, "webshop"))
    assert len(text.splitlines()) <= MAX_LINES
    assert text.startswith(full) and BEGIN in text


def test_the_refresh_rebuilds_the_profile_and_the_file_takes_it(tmp_path):
    home = build_sample_home(tmp_path / "h")
    memory_file = tmp_path / "MEMORY.md"
    assert _run(home, "memory", "--project", "webshop", "--write", "--file", str(memory_file)).exit_code == 0
    assert HEADING not in memory_file.read_text()  # no profile yet
    rows = memoryfiles.refresh(home)
    assert (home.state / "profile.md").exists()
    assert [r["changed"] for r in rows] == [True] and HEADING in memory_file.read_text()
    assert [r["changed"] for r in memoryfiles.refresh(home)] == [False]  # idempotent


def test_a_project_with_nothing_of_its_own_is_still_nothing_to_remember(tmp_path):
    home = build_sample_home(tmp_path / "h")
    write_profile(home, build_profile(home))
    assert not build_memory(home, "no-such-project").knows_project()
    assert _run(home, "memory", "--project", "infra-tools").exit_code == 0
