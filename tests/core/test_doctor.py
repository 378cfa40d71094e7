"""`carto doctor --json` on a home written in upstream's exact row shapes."""

import json

from click.testing import CliRunner

from carto_core import hookimpl
from carto_core.cli import cli

# Rows in the shapes of reference/cartographer.md 1.5-1.8, as upstream's hooks write them.
UPSTREAM = {
    "tool-use-log.jsonl": [
        '{"event_id":"evt-a1b2c3d4e5f6","timestamp":"2026-09-08T14:03:05Z","type":"tool_bash","provider":"claude","tool":"Bash","summary":"Ran: npm test ","project":"fixrepo","cwd":"/w/fixrepo","session":"sess-claude-1","transcript_path":"/t/sess-claude-1.jsonl","diff_shape":null,"salience":0.2}',
        '{"event_id":"evt-b1b2c3d4e5f6","timestamp":"2026-09-08T14:04:05Z","type":"git_commit","provider":"claude","tool":"Bash","summary":"[feature] Commit 0123456789abcdef0123456789abcdef01234567: feat(app): log two | files: src/app.js","project":"fixrepo","cwd":"/w/fixrepo","session":"sess-claude-1","transcript_path":"/t/sess-claude-1.jsonl","diff_shape":{"files_new":0,"files_modified":1,"files_deleted":0,"lines_added":1,"lines_removed":1,"quadrant":"surgical","commit_type":"feat"},"salience":0.7,"commit_type":"feature","commit_action":"commit","parent_event_id":"evt-a1b2c3d4e5f6"}',
    ],
    "changelog.jsonl": [
        '{"event_id":"evt-a1b2c3d4e5f6","timestamp":"2026-09-08T14:03:05Z","type":"tool_bash","provider":"claude","session_id":"sess-claude-1","project":"fixrepo","cwd":"/w/fixrepo","summary":"Ran: npm test ","transcript_path":"/t/sess-claude-1.jsonl","diff_shape":null,"related_ids":[],"salience":0.2}',
        '{"event_id":"evt-c1b2c3d4e5f6","timestamp":"2026-09-08T14:05:05.123Z","type":"milestone_session_end_clear","provider":"claude","session_id":"sess-claude-1","project":"fixrepo","cwd":"/w/fixrepo","deeplink":"claude-history://session/%2Ft%2Fsess-claude-1.jsonl","summary":"Session ended (clear) [main, 0 dirty, 3 events]","transcript_path":"/t/sess-claude-1.jsonl","transcript_verified":true,"related_ids":[],"salience":0.5}',
        '{"event_id":"git-0123456","timestamp":"2026-09-07T10:00:00+02:00","type":"git_commit","project":"fixrepo","summary":"Commit 0123456: older work | files: a.js","commit_hash":"0123456789abcdef","author":"Dev","url":"https://github.com/o/fixrepo/commit/0123456789abcdef","files_changed":1,"related_ids":[]}',
    ],
    "session-milestones.jsonl": [
        '{"event_id":"evt-c1b2c3d4e5f6","timestamp":"2026-09-08T14:05:05Z","milestone":"session_end_clear","provider":"claude","description":"Session ended (clear)","session_id":"sess-claude-1","transcript_path":"/t/sess-claude-1.jsonl","transcript_verified":true,"deeplink":"claude-history://session/%2Ft%2Fsess-claude-1.jsonl","project":"fixrepo","cwd":"/w/fixrepo","event":"SessionEnd","git_branch":"main","git_dirty_files":0,"recent_commits":"0123456 feat(app): log two","session_event_count":3,"salience":0.5}',
    ],
    "research-log.jsonl": [
        '{"event_id":"evt-d1b2c3d4e5f6","timestamp":1788876185,"type":"fetch","url":"https://arxiv.org/abs/1234","prompt":"summarize","category":"research","project":"fixrepo","cwd":"/w/fixrepo","session":"sess-claude-1","transcript_path":"/t/s.jsonl","salience":0.7}',
        '{"event_id":"evt-e1b2c3d4e5f6","timestamp":1788876185000,"type":"search_result","url":"https://docs.python.org","title":"Docs","query":"python","category":"docs","related_ids":["evt-x"],"parent_event_id":"evt-x","salience":0.3}',
    ],
    "prompt-history.jsonl": [
        '{"event_id":"evt-0a1b2c3d4e5f","timestamp":"2026-09-08T13:00:00Z","type":"prompt","provider":"claude","summary":"fix the flaky test","project":"fixrepo","cwd":"/w/fixrepo","session_id":"sess-claude-1","salience":0.6}',
    ],
}


def _build(home):
    """An upstream folder, private (a shared one is a problem of its own:
    tests/core/test_repair_permissions.py)."""
    home.mkdir(parents=True, exist_ok=True, mode=0o700)
    home.chmod(0o700)
    for name, lines in UPSTREAM.items():
        (home / name).write_text("".join(line + "\n" for line in lines))
        (home / name).chmod(0o600)


def test_doctor_reports_every_log_and_its_row_count(tmp_path, monkeypatch):
    home = tmp_path / "cartographer"
    _build(home)
    monkeypatch.setenv("CARTO_HOME", str(home))
    monkeypatch.chdir(tmp_path)
    # No hooks installed is a problem of its own (tests/install/test_doctor_hooks.py).
    assert CliRunner().invoke(cli, ["install", "claude"]).exit_code == 0
    result = CliRunner().invoke(cli, ["doctor", "--no-probe", "--json"])
    doc = json.loads(result.output)
    logs = {log["log"]: log for log in doc["logs"]}
    expected = {"tool-use": 2, "changelog": 3, "milestones": 1, "research": 2, "prompts": 1, "turns": 0}
    assert {label: logs[label]["rows"] for label in expected} == expected
    assert logs["changelog"]["newest_timestamp"] == "2026-09-08T14:05:05Z"
    # epoch seconds and milliseconds are read as instants
    assert logs["research"]["newest_timestamp"] == "2026-09-08T14:03:05Z"
    assert all(logs[label]["malformed"] == 0 for label in expected)
    assert doc["events"] == sum(expected.values())
    assert result.exit_code == 0, doc["problems"]
    assert doc["ok"] is True


def test_doctor_reports_bad_lines_with_a_fix_and_exit_1(tmp_path, monkeypatch):
    home = tmp_path / "h"
    _build(home)
    with open(home / "changelog.jsonl", "ab") as handle:
        handle.write(b"garbage\n{\"summary\":\"no id\"}\n{\"event_id\":\"e\",\"s\":\"\xff\"}\n{\"event_id\":\"torn")
    monkeypatch.setenv("CARTO_HOME", str(home))
    result = CliRunner().invoke(cli, ["doctor", "--json"])
    doc = json.loads(result.output)
    changelog = next(log for log in doc["logs"] if log["log"] == "changelog")
    assert changelog["rows"] == 5  # three good + the id-less row + the non-UTF-8 row, both kept
    assert changelog["problems"] == {"malformed_json": 1, "missing_event_id": 1, "invalid_utf8": 1, "torn_line": 1}
    assert changelog["malformed"] == 2
    assert result.exit_code == 1
    assert any("changelog.jsonl" in p["problem"] and p["fix"] for p in doc["problems"])


def test_doctor_text_on_an_empty_home_says_how_to_start(tmp_path, monkeypatch):
    monkeypatch.setenv("CARTO_HOME", str(tmp_path / "nowhere"))
    result = CliRunner().invoke(cli, ["doctor", "--no-probe"])
    assert result.exit_code == 3  # no home: ran fine, found nothing (docs/cli.md)
    assert "does not exist" in result.output and "carto ingest" in result.output
    assert not (tmp_path / "nowhere").exists()


def test_doctor_names_the_repair_that_mends_a_torn_line_and_the_lines_left(tmp_path, monkeypatch):
    """The fix of an unreadable line was 'inspect the listed line numbers and remove or repair
    them', no command, beside '1 unreadable lines'; it now names `carto repair torn-rows`, the
    file and line a person may have to delete, and counts in the noun's number."""
    home = tmp_path / "h"
    _build(home)
    with open(home / "changelog.jsonl", "ab") as handle:
        handle.write(b"{\"event_id\":\"torn")
    monkeypatch.setenv("CARTO_HOME", str(home))
    doc = json.loads(CliRunner().invoke(cli, ["doctor", "--json", "--no-probe"]).output)
    problem = next(p for p in doc["problems"] if "changelog.jsonl" in p["problem"])
    assert problem["problem"] == "changelog.jsonl: 1 unreadable line (torn_line 1)"
    lines = sum(1 for _ in open(home / "changelog.jsonl", "rb"))
    assert problem["fix"].startswith("`carto repair torn-rows --write` mends what it can")
    assert f"changelog.jsonl line {lines}" in problem["fix"]


def test_an_empty_home_beside_nothing_to_backfill_names_no_backfill(tmp_path, monkeypatch):
    """Right after `carto install claude` on a fresh machine, doctor said 'the home holds no
    events yet, while claude-memory left history on disk' with the fix `carto ingest --all`;
    that ingest read 0 units (claude-memory always offers its CLAUDE.md stream) and doctor said
    it again after it: a fix that never fixes. A source counts only when it has something."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    for var in ("CODEX_HOME", "CLAUDE_CONFIG_DIR", "HERMES_HOME"):
        monkeypatch.delenv(var, raising=False)
    (tmp_path / ".claude" / "projects" / "-work-x").mkdir(parents=True)  # Claude Code ran, no memory
    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    monkeypatch.setenv("CARTO_HOME", str(home))
    doc = json.loads(CliRunner().invoke(cli, ["doctor", "--json", "--no-probe"]).stdout)
    assert not any("holds no events yet" in p["problem"] for p in doc["problems"]), doc["problems"]
    (tmp_path / ".claude" / "CLAUDE.md").write_text("# my notes\n\nalways run the tests\n")
    doc = json.loads(CliRunner().invoke(cli, ["doctor", "--json", "--no-probe"]).stdout)
    assert any("claude-memory left history" in p["problem"] for p in doc["problems"]), doc["problems"]


def test_problems_sharing_a_fix_print_it_once(tmp_path, monkeypatch):
    """Ten silent hooks of one moved environment printed the same two-line fix ten times; the
    text now lists the problems and gives their shared fix once under them (--json keeps each)."""
    from carto_core.cli import doctor_cmd

    real = doctor_cmd.doctor_document
    fix = "run `carto install claude` from the environment carto is installed in"

    def document(**kwargs):
        doc = real(**kwargs)
        doc["problems"] = [{"problem": f"claude {event} hook installed but silent", "fix": fix}
                           for event in ("SessionStart", "Stop", "SessionEnd")]
        doc["problems"].append({"problem": "something else", "fix": "do another thing"})
        doc["ok"] = False
        return doc

    monkeypatch.setattr(doctor_cmd, "doctor_document", document)
    monkeypatch.setenv("CARTO_HOME", str(tmp_path))
    out = CliRunner().invoke(cli, ["doctor", "--no-probe"]).stdout
    tail = out[out.index("problems:"):].splitlines()
    assert tail == ["problems:",
                    "  - claude SessionStart hook installed but silent",
                    "  - claude Stop hook installed but silent",
                    "  - claude SessionEnd hook installed but silent",
                    f"    fix (the 3 above): {fix}",
                    "  - something else",
                    "    fix: do another thing"]


def test_a_log_that_cannot_be_read_is_a_problem_in_the_report_not_its_end(tmp_path, monkeypatch):
    """A log carto cannot open (made unreadable, a folder in its place) ended `carto doctor` with
    'carto: doctor: Is a directory: .../research-log.jsonl' and no report: the tool a person runs
    to find what is wrong stopped at the first wrong thing. The log is now reported unreadable,
    with why and a fix, beside the rest."""
    home = tmp_path / "h"
    _build(home)
    (home / "research-log.jsonl").unlink()
    (home / "research-log.jsonl").mkdir(mode=0o700)
    real_open = open

    def refusing(path, *args, **kwargs):  # a log made unreadable (root reads a chmod 000 file)
        if str(path).endswith("prompt-history.jsonl"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr("builtins.open", refusing)
    monkeypatch.setenv("CARTO_HOME", str(home))
    result = CliRunner().invoke(cli, ["doctor", "--no-probe", "--json"])
    doc = json.loads(result.stdout)
    logs = {log["log"]: log for log in doc["logs"]}
    assert logs["changelog"]["rows"] == 3  # the others still read
    assert logs["research"]["unreadable"] == "a folder, not a log file"
    assert logs["prompts"]["unreadable"] == "permission denied"
    problems = {p["problem"]: p["fix"] for p in doc["problems"]}
    assert problems[f"research-log.jsonl cannot be read: a folder, not a log file ({home / 'research-log.jsonl'})"]
    fix = problems[f"prompt-history.jsonl cannot be read: permission denied ({home / 'prompt-history.jsonl'})"]
    assert fix == f"`chmod 600 {home / 'prompt-history.jsonl'}` (carto reads and writes its logs as their owner)"
    assert result.exit_code == 1
    text = CliRunner().invoke(cli, ["doctor", "--no-probe"]).stdout
    assert "  prompts         cannot be read: permission denied" in text


def test_doctor_names_a_fifo_and_symbolic_links_in_a_logs_place(tmp_path):
    """A FIFO in a log's place made `carto doctor` wait forever (reading it waits for a
    writer), a symbolic link to nothing was reported '(absent)' with no problem (the log it
    stands for is elsewhere: an unmounted disk), and a link that loops was '(absent)' in the
    table. Each is now 'cannot be read', a problem with its fix. (A subprocess: a wait fails
    the test instead of hanging the run.)"""
    import os
    import subprocess
    import sys

    home = tmp_path / "h"
    _build(home)
    for name in ("research-log.jsonl", "prompt-history.jsonl"):
        (home / name).unlink()
    os.mkfifo(home / "research-log.jsonl")
    (home / "prompt-history.jsonl").symlink_to(tmp_path / "unmounted" / "prompt-history.jsonl")
    (home / "turns.jsonl").symlink_to(home / "turns.jsonl")
    env = {**os.environ, "CARTO_HOME": str(home), "HOME": str(tmp_path)}
    run = [sys.executable, "-m", "carto_core", "doctor", "--no-probe"]
    try:
        done = subprocess.run([*run, "--json"], env=env, capture_output=True, text=True, timeout=120)
        text = subprocess.run(run, env=env, capture_output=True, text=True, timeout=120).stdout
    except subprocess.TimeoutExpired:
        raise AssertionError("carto doctor waited on the FIFO") from None
    doc = json.loads(done.stdout)
    logs = {log["log"]: log for log in doc["logs"]}
    assert logs["changelog"]["rows"] == 3  # the others still read
    link = tmp_path / "unmounted" / "prompt-history.jsonl"
    assert {label: logs[label]["unreadable"] for label in ("research", "prompts", "turns")} == {
        "research": "a FIFO, socket or device, not a log file",
        "prompts": f"a symbolic link to {link}, which does not exist",
        "turns": "a symbolic link that loops"}
    problems = {p["problem"]: p["fix"] for p in doc["problems"]}
    fifo = home / "research-log.jsonl"
    assert problems[f"research-log.jsonl cannot be read: a FIFO, socket or device, not a log file ({fifo})"] \
        == f"`mv {fifo} {fifo}.aside` (carto writes this log there)"
    dangling = home / "prompt-history.jsonl"
    assert problems[f"prompt-history.jsonl cannot be read: a symbolic link to {link}, which does not exist ({dangling})"] \
        == (f"point the link at the log (a disk to mount?) or remove it: `rm {dangling}` "
            "(carto then starts a new log there)")
    assert done.returncode == 1
    assert "  turns           cannot be read: a symbolic link that loops" in text.splitlines()


def test_doctor_reads_the_derived_writers_failures_until_they_are_repaired(tmp_path, monkeypatch):
    """A derived writer that raised during ingest was written to .carto/writer-errors.jsonl and
    nothing read it: doctor said the home was fine while the writer's copy missed rows. Its
    unrepaired failures are a problem now; `carto repair writers --write` (the fix) hands it the
    rows again and resolves them; a writer no longer installed, a home without the file, and
    failures an older carto logged without naming rows (resolved by the repair) are ok."""
    from carto_core.builtins.writers import JsonlWriter
    from carto_core.ingest.runner import write_rows
    from carto_core.logio.home import Home
    from carto_core.model.sources import Writer
    from carto_core.plugin.registry import load_registries, set_registries

    written: list[str] = []
    broken = {"on": True}

    class Mirror(Writer):
        name = "mirror"

        def write(self, home, log, rows):
            if broken["on"]:
                raise OSError(28, "No space left on device")
            written.extend(row["event_id"] for row in rows)
            return len(rows)

    class Plugin:
        @staticmethod
        @hookimpl
        def carto_register_writers(register):
            register(Mirror)

    root = tmp_path / "home"
    _build(root)
    monkeypatch.setenv("CARTO_HOME", str(root))
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(cli, ["install", "claude"]).exit_code == 0
    set_registries(load_registries(extra={"mirror": Plugin()}))

    def doctor() -> dict:
        return json.loads(CliRunner().invoke(cli, ["doctor", "--no-probe", "--json"]).output)

    clean = doctor()
    assert clean["writer_errors"]["writers"] == [] and clean["writer_errors"]["ok"] and clean["ok"]
    home = Home(root)
    rows = [{"event_id": "evt-new1", "timestamp": "2026-09-09T10:00:00Z", "type": "tool_bash", "summary": "a"},
            {"event_id": "evt-new2", "timestamp": "2026-09-09T10:01:00Z", "type": "tool_bash", "summary": "b"}]
    write_rows(home, "changelog", rows[:1], [JsonlWriter(), Mirror()])
    write_rows(home, "changelog", rows[1:], [JsonlWriter(), Mirror()])
    doc = doctor()
    [item] = doc["writer_errors"]["writers"]
    assert {k: item[k] for k in ("writer", "failures", "rows", "installed")} == {
        "writer": "mirror", "failures": 2, "rows": 2, "installed": True}
    assert item["last_error"] == "OSError(28, 'No space left on device')" and item["last_timestamp"]
    [problem] = [p for p in doc["problems"] if "'mirror'" in p["problem"]]
    assert problem["problem"].startswith("derived writer 'mirror' failed 2 times during ingest, last at ")
    assert problem["problem"].endswith("2 rows in the logs are missing from what it writes")
    assert problem["fix"].startswith("`carto repair writers --write` once what made it fail is mended")
    assert not doc["ok"]
    # Still failing: the repair says so (exit 1) and the failures stay.
    result = CliRunner().invoke(cli, ["repair", "writers", "--write"])
    assert result.exit_code == 1, result.output
    assert [p for p in doctor()["problems"] if "'mirror'" in p["problem"]]
    broken["on"] = False
    result = CliRunner().invoke(cli, ["repair", "writers", "--write"])
    assert result.exit_code == 0, result.output
    assert written == ["evt-new1", "evt-new2"]
    after = doctor()
    assert after["writer_errors"] == {"path": str(home.state / "writer-errors.jsonl"), "writers": [],
                                      "ok": True}
    assert not [p for p in after["problems"] if "writer" in p["problem"]], after["problems"]
    # A failure an older carto logged (no rows named) is resolved by the repair, which writes
    # nothing for it; one of a writer no longer installed is listed, not a problem.
    with open(home.state / "writer-errors.jsonl", "a") as handle:
        handle.write('{"timestamp":"2026-09-09T11:00:00Z","writer":"mirror","error":"OSError()"}\n')
        handle.write('{"timestamp":"2026-09-09T11:00:00Z","writer":"gone","error":"OSError()",'
                     '"log":"changelog","event_ids":["evt-new1"]}\n')
    doc = doctor()
    assert {i["writer"]: (i["installed"], i["unknown_rows"]) for i in doc["writer_errors"]["writers"]} == {
        "gone": (False, 0), "mirror": (True, 1)}
    [problem] = [p for p in doc["problems"] if "writer" in p["problem"]]
    assert problem["problem"].endswith("the rows it missed are not named (an older carto)")
    assert CliRunner().invoke(cli, ["repair", "writers", "--write"]).exit_code == 0
    assert written == ["evt-new1", "evt-new2"]
    doc = doctor()
    assert [i["writer"] for i in doc["writer_errors"]["writers"]] == ["gone"]
    assert doc["writer_errors"]["ok"] and doc["ok"], doc["problems"]


def test_each_fix_doctor_prints_for_a_log_it_cannot_read_works_as_printed(tmp_path):
    """A FIFO, a folder and a symbolic link to nothing in logs' places, in a home whose path
    holds a space: doctor printed `mv PATH PATH.aside` and `rm PATH` unquoted, so a fix pasted
    into a shell moved nothing ("mv: target 'h.aside' is not a directory"). Each command it
    prints between backquotes, run through /bin/sh as printed, leaves no log unreadable."""
    import os
    import re
    import subprocess
    import sys

    home = tmp_path / "a home" / "h"
    _build(home)
    for name in ("research-log.jsonl", "prompt-history.jsonl", "turns.jsonl"):
        (home / name).unlink(missing_ok=True)
    os.mkfifo(home / "research-log.jsonl")
    (home / "prompt-history.jsonl").mkdir()
    (home / "turns.jsonl").symlink_to(tmp_path / "unmounted" / "turns.jsonl")
    env = {**os.environ, "CARTO_HOME": str(home), "HOME": str(tmp_path)}
    run = [sys.executable, "-m", "carto_core", "doctor", "--no-probe", "--json"]

    def unreadable():
        done = subprocess.run(run, env=env, capture_output=True, text=True, timeout=120)
        return {p["problem"]: p["fix"] for p in json.loads(done.stdout)["problems"]
                if " cannot be read: " in p["problem"]}

    fixes = unreadable()
    assert len(fixes) == 3, fixes
    for fix in fixes.values():
        commands = re.findall(r"`([^`]+)`", fix)
        assert len(commands) == 1, fix
        done = subprocess.run(["/bin/sh", "-c", commands[0]], capture_output=True, text=True,
                              timeout=30)
        assert done.returncode == 0, (commands[0], done.stderr)
    assert unreadable() == {}
    assert (home / "prompt-history.jsonl.aside").is_dir()
