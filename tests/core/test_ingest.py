"""The shared backfill runner, driven by the example notes source."""

import json

from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.logio.home import Home
from carto_core.ingest.runner import run_ingest
from carto_core.logio.reader import iter_lines
from carto_core.model.sources import Emit, ReadBatch, Source, Stream


def _notes(root):
    root.mkdir(parents=True, exist_ok=True)
    (root / "ideas.md").write_text("# Caching\nUse an LRU for the price lookups.\n\n## Later\nShard by tenant.\n")
    (root / "ops.md").write_text("# Deploys\nBlue/green with token=abcd1234secret in the notes\n")


def test_ingest_notes_is_idempotent_and_redacts(tmp_path, monkeypatch):
    home = Home(tmp_path / "home")
    monkeypatch.setenv("CARTO_HOME", str(home.root))
    _notes(tmp_path / "notes")
    runner = CliRunner()
    first = runner.invoke(cli, ["ingest", "notes", "--root", str(tmp_path / "notes"), "--json"])
    assert first.exit_code == 0, first.output
    doc = json.loads(first.output)
    rows = [line.row for line in iter_lines(home.log("milestones"))]
    assert doc["rows_written"] == len(rows) == 3
    assert all(row["milestone"] == "note" for row in rows)
    assert "abcd1234secret" not in home.log("milestones").read_text()
    again = json.loads(runner.invoke(cli, ["ingest", "notes", "--root", str(tmp_path / "notes"), "--json"]).output)
    assert again["rows_written"] == 0
    # a lost checkpoint still writes nothing twice: ids already in the log are skipped
    (home.state / "checkpoints" / "notes.json").unlink()
    third = json.loads(runner.invoke(cli, ["ingest", "notes", "--root", str(tmp_path / "notes"), "--json"]).output)
    assert third["rows_written"] == 0 and third["already_present"] == 3
    assert len(list(iter_lines(home.log("milestones")))) == 3


def test_dry_run_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("CARTO_HOME", str(tmp_path / "home"))
    _notes(tmp_path / "notes")
    result = CliRunner().invoke(cli, ["ingest", "notes", "--root", str(tmp_path / "notes"), "--dry-run", "--json"])
    assert json.loads(result.output)["rows_written"] == 3
    assert not (tmp_path / "home" / "session-milestones.jsonl").exists()


def test_no_streams_is_exit_3(tmp_path):
    result = CliRunner().invoke(cli, ["ingest", "notes", "--root", str(tmp_path / "empty")])
    assert result.exit_code == 3


class Flaky(Source):
    name = "flaky"

    def read(self, stream, checkpoint):
        if stream.key == "bad":
            raise ValueError("corrupt input")
        return ReadBatch(rows=[Emit("changelog", {"event_id": f"evt-{stream.key}", "summary": "s"})],
                         checkpoint={"done": True}, units=1)


def test_a_failing_stream_is_reported_and_the_others_land(tmp_path):
    home = Home(tmp_path)
    streams = [Stream("a"), Stream("bad"), Stream("c")]
    summary = run_ingest(Flaky(), home, streams=streams)
    assert [line.row["event_id"] for line in iter_lines(home.log("changelog"))] == ["evt-a", "evt-c"]
    assert summary.errors == ["bad: ValueError: corrupt input"]
    checkpoints = json.loads((home.state / "checkpoints" / "flaky.json").read_text())
    assert set(checkpoints) == {"a", "c"}


def test_the_summary_line_says_why_rows_were_skipped():
    from collections import Counter

    from carto_core.ingest.runner import IngestSummary

    summary = IngestSummary("codex", streams=3, units=24, written=Counter(turns=3),
                            skipped=Counter({"unknown_type:future_synthetic_record": 1,
                                             "replayed_parent_line": 2}), seconds=0.01)
    assert summary.line().endswith(
        "3 skipped (replayed parent line 2, unknown type: future_synthetic_record 1)")
    assert IngestSummary("codex", units=1, seconds=0.01).line().endswith(", 0 skipped")


def test_a_derived_writer_that_fails_is_said_once_with_its_count_and_the_rows_land(tmp_path):
    """A derived writer that raised on every batch was logged to writer-errors.jsonl only:
    the run said `errors: []`, and nothing read that file."""
    from carto_core.ingest.runner import IngestSummary
    from carto_core.builtins.writers import JsonlWriter

    class Mirror:
        name, primary = "mirror", False

        def write(self, home, log, rows):
            raise ImportError("cannot import name 'append_rows'")

    home = Home(tmp_path)
    streams = [Stream("a"), Stream("c")]
    summary = run_ingest(Flaky(), home, streams=streams, writers=[JsonlWriter(), Mirror()])
    assert isinstance(summary, IngestSummary)
    assert [line.row["event_id"] for line in iter_lines(home.log("changelog"))] == ["evt-a", "evt-c"]
    assert summary.errors == [
        "writer 'mirror' failed on 2 batches (2 rows): ImportError: cannot import name "
        "'append_rows' (the rows are in the logs; each failure is in .carto/writer-errors.jsonl)"]
    assert len((home.state / "writer-errors.jsonl").read_text().splitlines()) == 2
