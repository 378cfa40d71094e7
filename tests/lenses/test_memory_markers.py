"""A MEMORY.md whose end marker a person deleted: carto cannot tell where its lines stop and the
person's start, so it writes nothing (a write used to append a second section, and the next one
to fold the person's `## Deploy notes` into carto's and drop it)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.control import memoryfiles
from carto_core.evaluation.sample import build_sample_home
from carto_core.lenses.memory import END, build_memory, rewritten


def test_a_section_without_its_end_marker_is_never_rewritten(tmp_path):
    home = build_sample_home(tmp_path / "h")
    target = tmp_path / "MEMORY.md"
    env = {"CARTO_HOME": str(home.root), "CARTO_SESSION_ID": "", "CLAUDE_CODE_SESSION_ID": ""}
    run = CliRunner().invoke(cli, ["memory", "--project", "webshop", "--write", "--file", str(target)], env=env)
    assert run.exit_code == 0, run.output
    text = target.read_text().replace(END + "\n", "") + "\n## Deploy notes\n\n- deploy on Tuesdays only\n"
    target.write_text(text)
    with pytest.raises(ValueError, match="end marker"):  # lenses.memory.Unclosed
        rewritten(text, build_memory(home, "webshop"))
    for _ in range(2):
        again = CliRunner().invoke(cli, ["memory", "--project", "webshop", "--write", "--file", str(target)], env=env)
        assert again.exit_code == 4 and "lost its end marker" in again.output and f"Put {END} back" in again.output
        assert target.read_text() == text
    rows = memoryfiles.refresh(home)
    assert target.read_text() == text and "end marker" in rows[0]["error"]
    # the marker put back: the person's heading and blank line stay where they were
    target.write_text(text.replace("\n## Deploy notes", END + "\n\n## Deploy notes", 1))
    assert CliRunner().invoke(cli, ["memory", "--project", "webshop", "--write", "--file", str(target)],
                              env=env).exit_code == 0
    assert target.read_text().endswith(END + "\n\n## Deploy notes\n\n- deploy on Tuesdays only\n")
