"""MEMORY.md kept current: a wrapup or a decision change (and the detached keep-up child that
SessionEnd starts) rewrites carto's section of the files `carto memory --write` wrote; the
person's lines, outside the section and inside it, stay."""

from __future__ import annotations

import json

from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.control import memoryfiles
from carto_core.evaluation.sample import SESSIONS, build_sample_home
from carto_core.lenses.memory import BEGIN, END, MAX_BYTES, MAX_LINES
from carto_core.model import decisions as model


def _run(home, *args, env=None):
    return CliRunner().invoke(cli, list(args), env={"CARTO_HOME": str(home.root), "CARTO_SESSION_ID": "",
                                                    "CLAUDE_CODE_SESSION_ID": "", **(env or {})})


def _written(tmp_path):
    home = build_sample_home(tmp_path / "h")
    memory_file = tmp_path / "MEMORY.md"
    memory_file.write_text("# Team notes\n- deploys on Fridays are frozen\n")
    assert _run(home, "memory", "--project", "webshop", "--write", "--file", str(memory_file)).exit_code == 0
    text = memory_file.read_text()
    # the person writes below carto's intro, inside the markers, and after the section
    text = text.replace("`carto search --get ID`).\n", "`carto search --get ID`).\n- ask Dana before touching tax\n")
    text += "\n## After carto\nstill mine\n"
    memory_file.write_text(text)
    return home, memory_file


def test_a_reversed_decision_leaves_memory_md_and_the_persons_lines_stay(tmp_path):
    home, memory_file = _written(tmp_path)
    assert "apply discounts before tax" in memory_file.read_text()
    wrapped = _run(home, "wrapup", "--session", SESSIONS["b"], "--decision",
                   "apply discounts AFTER tax (reverses earlier rule)", "--json")
    assert wrapped.exit_code == 0, wrapped.output
    proposal = json.loads(wrapped.output)["proposed_supersessions"][0]
    assert _run(home, "decision", "supersede", proposal["supersede"], "--by", proposal["by"]).exit_code == 0
    text = memory_file.read_text()
    assert "apply discounts AFTER tax" in text and "apply discounts before tax" not in text
    assert text.startswith("# Team notes\n- deploys on Fridays are frozen\n")       # outside, above
    assert text.endswith("## After carto\nstill mine\n")                            # outside, below
    assert text.count("- ask Dana before touching tax") == 1                        # inside: kept,
    assert "`carto search --get ID`).\n- ask Dana before touching tax\n" in text  # where it was
    assert text.count(BEGIN) == 1 and text.count(END) == 1
    assert len(text.splitlines()) <= MAX_LINES and len(text.encode()) <= MAX_BYTES
    log = [json.loads(line) for line in (home.state / memoryfiles.REFRESH_LOG).read_text().splitlines()]
    assert log[-1]["changed"] is True and log[-1]["removed"] >= 1 and log[-1]["file"] == str(memory_file)
    # idempotent: nothing new, nothing written
    before = memory_file.read_bytes()
    assert [r["changed"] for r in memoryfiles.refresh(home)] == [False]
    assert memory_file.read_bytes() == before


def test_a_file_whose_section_was_removed_or_that_is_gone_is_left_alone(tmp_path):
    home, memory_file = _written(tmp_path)
    memory_file.write_text("# only mine now\n")
    assert memoryfiles.refresh(home) == []
    assert memory_file.read_text() == "# only mine now\n"
    memory_file.unlink()
    assert memoryfiles.refresh(home) == [] and not memory_file.exists()


def test_the_detached_keep_up_refreshes_them_without_the_semantic_ladder(tmp_path, monkeypatch):
    from carto_core.capture import keepup
    from carto_core.jobs.keepup import run

    home, memory_file = _written(tmp_path)
    monkeypatch.setenv("CARTO_SEMANTIC", "0")
    monkeypatch.delenv("CARTO_KEEPUP", raising=False)
    assert keepup.MEMORY_FILES == memoryfiles.REGISTRY
    assert keepup.enabled(home)                      # the registry alone makes it due
    rid = model.record_id("decision", "webshop", "apply discounts before tax")
    from carto_core.lenses.decisions import change

    change(home, rid, "retired")                     # a change that refreshed nothing by itself
    assert "apply discounts before tax" in memory_file.read_text()
    out = run(home)
    assert [r["changed"] for r in out["memory_files"]] == [True]
    assert not (home.state / keepup.LOG).exists()    # the ladder that is off was not run
    assert "apply discounts before tax" not in memory_file.read_text()
    monkeypatch.setenv("CARTO_MEMORY_REFRESH", "0")
    assert not keepup.enabled(home)
