"""A home with a log that cannot be read: search, index and doctor answer from the rest.

One searched log that was a folder, a symbolic link looping or pointing at nothing, a FIFO, or a
file this user may not read made every `carto search` end in `carto: search: Is a directory:
...` (a FIFO: wait forever), since the keyword index read every log whole. Such a log is now
left out, the others searched, and the answer says which file and why, on stderr and in the
JSON's `skipped_files`; `carto doctor` names it with a fix.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from carto_core.cli import cli

from .conftest import padding


def _folder(path):
    path.mkdir()


def _loop(path):
    path.symlink_to(path)


def _to_nothing(path):
    path.symlink_to(path.parent / "unmounted" / path.name)


DAMAGE = {
    "folder": (_folder, "a folder, not a log file"),
    "symbolic link loop": (_loop, "a symbolic link that loops"),
    "link to nothing": (_to_nothing, "a symbolic link to {target}, which does not exist"),
}


def _damaged_home(writer, damage, *, indexed_before: bool, monkeypatch):
    """A home whose prompts log is damaged; returns (the tool row's id, the prompt's id, the
    prompts log's path, why it cannot be read)."""
    tool = writer.tool("Ran: deploy the frobnicator service")
    prompt = writer.prompt("please deploy frobnicator to staging")
    padding(writer, 4)
    monkeypatch.setenv("CARTO_HOME", str(writer.home.root))
    if indexed_before:  # the index holds the prompt: the damage comes after
        found = _search("frobnicator", "--json")
        assert {r["event_id"] for r in json.loads(found.stdout)["results"]} == {tool, prompt}
    path = writer.home.log("prompts")
    path.unlink()
    make, why = DAMAGE[damage]
    make(path)
    return tool, prompt, path, why.format(target=path.parent / "unmounted" / path.name)


def _search(*args):
    return CliRunner().invoke(cli, ["search", *args, "--all"], catch_exceptions=False)


@pytest.mark.parametrize("indexed_before", [False, True], ids=["no index yet", "indexed before"])
@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_search_answers_from_the_other_logs_and_names_the_one_it_skipped(
        writer, monkeypatch, damage, indexed_before):
    tool, prompt, path, why = _damaged_home(writer, damage, indexed_before=indexed_before,
                                            monkeypatch=monkeypatch)
    text = _search("frobnicator")
    assert text.exit_code == 0, text.output
    assert tool in text.stdout and prompt not in text.stdout
    assert text.stderr.splitlines() == [
        f"carto: skipped {path} ({why}): its events are not searched; `carto doctor` says "
        "what to do"]
    document = _search("frobnicator", "--json")
    assert document.exit_code == 0
    answer = json.loads(document.stdout)
    assert [r["event_id"] for r in answer["results"]] == [tool]
    assert answer["skipped_files"] == [
        {"path": str(path), "why": why, "left_out": "its events are not searched"}]


def test_a_log_this_user_may_not_read_is_skipped_too(writer, monkeypatch):
    """Root reads a chmod 000 file: the refusal is the system's answer to open()."""
    tool = writer.tool("Ran: deploy the frobnicator service")
    writer.prompt("please deploy frobnicator to staging")
    padding(writer, 4)
    monkeypatch.setenv("CARTO_HOME", str(writer.home.root))
    path = writer.home.log("prompts")
    real_open = open

    def refusing(file, *args, **kwargs):
        if str(file) == str(path):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr("builtins.open", refusing)
    answer = _search("frobnicator", "--json")
    assert answer.exit_code == 0, answer.output
    assert [r["event_id"] for r in json.loads(answer.stdout)["results"]] == [tool]
    assert json.loads(answer.stdout)["skipped_files"] == [
        {"path": str(path), "why": "permission denied", "left_out": "its events are not searched"}]


def test_a_fifo_in_a_logs_place_is_skipped_not_waited_on(writer, tmp_path):
    """Opening a FIFO for reading waits for a writer: the search never answered. (A
    subprocess, so that a wait fails the test instead of hanging the run.)"""
    tool = writer.tool("Ran: deploy the frobnicator service")
    padding(writer, 4)
    path = writer.home.log("prompts")
    os.mkfifo(path)
    env = {**os.environ, "CARTO_HOME": str(writer.home.root), "HOME": str(tmp_path)}
    try:
        done = subprocess.run([sys.executable, "-m", "carto_core", "search", "frobnicator",
                               "--json"], env=env, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        pytest.fail("carto search waited on the FIFO")
    assert done.returncode == 0, done.stderr
    assert [r["event_id"] for r in json.loads(done.stdout)["results"]] == [tool]
    assert f"carto: skipped {path} (a FIFO, socket or device, not a log file)" in done.stderr


def test_orient_get_and_thread_answer_beside_a_log_that_cannot_be_read(writer, monkeypatch):
    tool = writer.tool("Ran: deploy the frobnicator service", project="webshop")
    _, _, path, why = _damaged_home(writer, "folder", indexed_before=False, monkeypatch=monkeypatch)
    line = f"carto: skipped {path} ({why}): its events are not searched; `carto doctor` says what to do"
    orient = CliRunner().invoke(cli, ["search", "--project", "webshop", "--json"])
    assert orient.exit_code == 0, orient.output
    assert json.loads(orient.stdout)["skipped_files"][0]["path"] == str(path)
    assert orient.stderr.splitlines() == [line]
    got = CliRunner().invoke(cli, ["search", "--get", tool, "--json"])
    assert got.exit_code == 0, got.output
    assert list(json.loads(got.stdout)["found"]) == [tool]
    assert got.stderr.splitlines() == [line]
    thread = CliRunner().invoke(cli, ["search", "--thread", tool, "--json"])
    assert thread.exit_code == 0, thread.output
    assert [row["event_id"] for row in json.loads(thread.stdout)["thread"]] == [tool]


def test_a_home_whose_only_log_cannot_be_read_says_so_not_that_it_is_empty(writer, monkeypatch):
    writer.prompt("please deploy frobnicator to staging")
    path = writer.home.log("prompts")
    path.unlink()
    path.mkdir()
    monkeypatch.setenv("CARTO_HOME", str(writer.home.root))
    done = _search("frobnicator", "--json")
    message = (f"no searched log of {writer.home.root} can be read: prompt-history.jsonl is a "
               "folder, not a log file (`carto doctor` says what to do)")
    assert done.exit_code == 1
    assert done.stderr == f"carto: {message}\n"
    assert json.loads(done.stdout) == {"error": message, "exit_code": 1}


@pytest.mark.parametrize("side", ["served", "access"])
def test_a_telemetry_log_that_cannot_be_written_leaves_the_answer_whole(writer, monkeypatch, side):
    tool = writer.tool("Ran: deploy the frobnicator service")
    padding(writer, 4)
    path = writer.home.log(side)
    path.mkdir()
    monkeypatch.setenv("CARTO_HOME", str(writer.home.root))
    monkeypatch.setenv("CARTO_SESSION_ID", "s-damaged")
    done = CliRunner().invoke(cli, ["search", "frobnicator", "--json"])
    assert done.exit_code == 0, done.output
    answer = json.loads(done.stdout)
    assert [r["event_id"] for r in answer["results"]] == [tool]
    left_out = {"served": "this search is not recorded there",
                "access": "results get no reuse boost"}[side]
    assert answer["skipped_files"] == [
        {"path": str(path), "why": "a folder, not a log file", "left_out": left_out}]
    assert done.stderr.splitlines() == [
        f"carto: skipped {path} (a folder, not a log file): {left_out}; `carto doctor` says "
        "what to do"]


def test_index_builds_from_the_other_logs_and_names_the_one_it_skipped(writer, monkeypatch):
    writer.tool("Ran: deploy the frobnicator service")
    _, _, path, why = _damaged_home(writer, "folder", indexed_before=False, monkeypatch=monkeypatch)
    done = CliRunner().invoke(cli, ["index", "--step", "keyword", "--json"])
    assert done.exit_code == 0, done.output
    step = json.loads(done.stdout)["steps"][0]
    assert step["outcome"] == "built" and step["live_documents"] == 6  # 2 tool rows + 4 padding
    assert step["skipped_files"] == [
        {"path": str(path), "why": why, "left_out": "its events are not searched"}]
    assert done.stderr.splitlines() == [
        f"carto: skipped {path} ({why}): its events are not searched; `carto doctor` says "
        "what to do"]
    # the log mended: its rows are new rows like any appended ones
    path.rmdir()
    prompt = writer.prompt("please deploy frobnicator to staging")
    found = _search("frobnicator", "--json")
    assert prompt in {r["event_id"] for r in json.loads(found.stdout)["results"]}
    assert "skipped_files" not in json.loads(found.stdout) and found.stderr == ""


def test_index_text_says_a_logs_unreadable_lines_in_words(writer, monkeypatch):
    """The keyword step printed its problems as a Python dict ("{'counts': {...}} x research"),
    and a torn last line made it say 'grown' on every run."""
    writer.tool("Ran: deploy the frobnicator service")
    with open(writer.home.log("tool-use"), "ab") as handle:
        handle.write(b"not json at all\n{\"event_id\": \"evt-torn")
    monkeypatch.setenv("CARTO_HOME", str(writer.home.root))
    first = CliRunner().invoke(cli, ["index", "--step", "keyword"])
    assert first.exit_code == 0, first.output
    again = CliRunner().invoke(cli, ["index", "--step", "keyword", "--json"])
    assert json.loads(again.stdout)["steps"][0]["outcome"] == "opened"
    lines = first.stdout.splitlines()
    assert lines[1:] == [
        "  tool-use: 1 x a line that is not JSON (skipped) (lines 2)",
        "  tool-use: 1 x a last line without its newline (a write in progress or a crash; "
        "not read) (lines 3)"]


def test_thread_with_a_changelog_that_cannot_be_read_says_so(writer, monkeypatch):
    """--thread read the changelog whole: a folder in its place ended it in 'Is a directory';
    and saying the id is no changelog event would point the wrong way."""
    tool = writer.tool("Ran: deploy the frobnicator service")
    path = writer.home.log("changelog")
    path.unlink()
    path.mkdir()
    monkeypatch.setenv("CARTO_HOME", str(writer.home.root))
    done = CliRunner().invoke(cli, ["search", "--thread", tool])
    assert done.exit_code == 3
    assert done.stdout == f"(no work arc for {tool}: the changelog cannot be read)\n"
    assert done.stderr.splitlines() == [
        f"carto: skipped {path} (a folder, not a log file): no work arc can be followed; "
        "`carto doctor` says what to do"]
    document = json.loads(CliRunner().invoke(cli, ["search", "--thread", tool, "--json"]).stdout)
    assert document["found"] is False
    assert document["skipped_files"] == [{"path": str(path), "why": "a folder, not a log file",
                                          "left_out": "no work arc can be followed"}]


@pytest.mark.parametrize("indexed_before", [False, True], ids=["no index yet", "indexed empty before"])
def test_index_on_a_home_whose_every_log_cannot_be_read_fails_as_search_does(
        writer, monkeypatch, indexed_before):
    """`carto index` said "built · 0 events" and exited 0 where `carto search` exits 1 naming
    the logs: the same line, exit code and JSON document now. Indexed empty before, the stamp
    of that run reads the damaged logs as absent and would replay "nothing new"."""
    writer.home.root.mkdir(parents=True, exist_ok=True)
    monkeypatch.setenv("CARTO_HOME", str(writer.home.root))
    if indexed_before:
        for _ in range(2):  # the second run changes nothing: it writes the stamp
            assert CliRunner().invoke(cli, ["index", "--step", "keyword"]).exit_code == 0
    for label, damage in (("prompts", "folder"), ("tool-use", "symbolic link loop")):
        DAMAGE[damage][0](writer.home.log(label))
    searched = _search("frobnicator", "--json")
    assert searched.exit_code == 1
    document = json.loads(searched.stdout)
    assert "tool-use-log.jsonl is a symbolic link that loops" in document["error"]
    for args in (["index"], ["index", "--step", "keyword"]):
        text = CliRunner().invoke(cli, args)
        assert (text.exit_code, text.stdout) == (1, ""), text.output
        assert text.stderr == searched.stderr
        answer = CliRunner().invoke(cli, [*args, "--json"])
        assert answer.exit_code == 1
        assert json.loads(answer.stdout) == document
        assert answer.stderr == searched.stderr
