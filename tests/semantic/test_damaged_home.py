"""A home with a log that cannot be read: the semantic step embeds the rest and names it.

A research log that was a folder (a symbolic link looping or to nothing, a FIFO: wait forever)
made `carto index`'s semantic step exit 1 with `semantic: error: cannot read ... is a
directory`. Such a log is read as an absent one (its vectors go, as those of a log that
vanished), and the step's report names it in `skipped_files` and on stderr, as the keyword step
does (docs/search.md#a-log-that-cannot-be-read).
"""

from __future__ import annotations

import json

from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.logio.appendlog import append_rows
from carto_core.semantic.indexer import run_index


def _research(home) -> None:
    append_rows(home.log("research"), [{
        "event_id": "evt-research-1", "timestamp": "2026-06-01T11:00:00Z", "type": "research",
        "provider": "claude", "summary": "read the frobnicator paper on caching",
        "project": "proj", "cwd": "/work/proj", "session_id": "s-r"}])


def test_the_semantic_step_embeds_the_other_logs_and_names_the_one_it_skipped(paraphrase_home):
    home, rows, _ = paraphrase_home
    _research(home)
    first = run_index(home)
    assert first.outcome == "ok" and first.corpus == len(rows) + 1
    path = home.log("research")
    path.unlink()
    path.mkdir()
    done = CliRunner().invoke(cli, ["index", "--step", "semantic", "--json"])
    assert done.exit_code == 0, done.output
    step = json.loads(done.stdout)["steps"][0]
    assert step["outcome"] == "ok" and step["corpus"] == len(rows)
    assert step["removed"] == 1  # the research row's vector: its log is read as absent
    skipped = {"path": str(path), "why": "a folder, not a log file",
               "left_out": "its events are not embedded"}
    assert step["skipped_files"] == [skipped]
    assert done.stderr.splitlines() == [
        f"carto: skipped {path} (a folder, not a log file): its events are not embedded; "
        "`carto doctor` says what to do"]
    # the log mended: its row is a new row like any appended one
    path.rmdir()
    _research(home)
    mended = run_index(home)
    assert (mended.embedded, mended.skipped_files) == (1, [])
    assert "skipped_files" not in mended.to_dict()


def test_a_first_fit_beside_a_log_that_cannot_be_read(paraphrase_home):
    """The fit's sample read every log too: it skips the same way."""
    home, rows, _ = paraphrase_home
    home.log("research").symlink_to(home.log("research"))
    report = run_index(home)
    assert report.outcome == "ok" and report.embedded == len(rows)
    assert [item["why"] for item in report.skipped_files] == ["a symbolic link that loops"]
