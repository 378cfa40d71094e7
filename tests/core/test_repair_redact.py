"""`carto repair redact` and `carto doctor --secrets` on a home whose rows were never redacted:
counts per log and kind without printing a credential, the rewrite through the safe path, the
caches built from the old text, and a row another process appends during the repair."""

from __future__ import annotations

import json
import multiprocessing
import os

from click.testing import CliRunner

from carto_core.logio.appendlog import append_rows
from carto_core.cli import cli
from carto_core.logio.home import Home
from carto_core.logio.jsonl import dumps_row
from carto_core.logio.reader import iter_lines
from carto_core.repair import run_repair
from carto_core.repair.redact import RedactSecrets, redact_home

CTX = multiprocessing.get_context("fork")
AWS = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzz9EXAMPLE"
GHP = "ghp_" + "Rt5" * 12
CLEAN = {"event_id": "c1", "timestamp": "2026-03-01T10:00:00Z", "summary": "Ran: make test"}


def upstream_home(tmp_path) -> Home:
    """What upstream wrote: credentials in clear in two logs, a torn line and hook.log."""
    home = Home(tmp_path / "home")
    home.root.mkdir()
    home.log("changelog").write_bytes(
        dumps_row({"event_id": "e1", "timestamp": "2026-03-01T10:00:01Z",
                   "summary": f"Ran: export AWS_SECRET_ACCESS_KEY={AWS}"})
        + dumps_row(CLEAN)
        + b'{"event_id":"torn","summary":"git push https://' + GHP.encode() + b'@github.com/x\n')
    home.log("tool-use").write_bytes(dumps_row({"event_id": "e2", "timestamp": "2026-03-01T10:00:02Z",
                                                "summary": "Ran: curl", "env": {"API_TOKEN": "q9w8e7r6t5y4"}}))
    home.state.mkdir()
    (home.state / "hook.log").write_text(f"2026-03-01T10:00:03Z claude PostToolUse: bad {GHP}\n")
    (home.state / "search").mkdir()
    (home.state / "search" / "vocab.txt").write_text(f"make\n{GHP.lower()}\ntest\n")
    return home


def everything(home: Home) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(home.root.rglob("*")) if p.is_file())


def test_dry_run_counts_per_log_and_kind_and_changes_nothing(tmp_path):
    home = upstream_home(tmp_path)
    before = everything(home)
    doc = redact_home(home)
    assert everything(home) == before
    assert (doc["secrets"], doc["rows"], doc["fixed"], doc["would_fix"]) == (4, 4, 0, 4)
    assert doc["logs"]["changelog"]["aws-secret"] == 1 and doc["logs"]["changelog"]["github-token"] == 1
    assert doc["logs"]["tool-use"]["secret-assignment"] == 1
    assert doc["logs"][".carto/hook.log"]["github-token"] == 1
    assert doc["caches"] == {"holding": [".carto/search/vocab.txt"], "removed": []}
    text = json.dumps(doc)
    assert AWS not in text and GHP not in text and "q9w8e7r6t5y4" not in text


def test_write_redacts_every_place_and_patches_or_removes_the_caches(tmp_path):
    home = upstream_home(tmp_path)
    doc = redact_home(home, write=True)
    assert (doc["secrets"], doc["fixed"], doc["would_fix"]) == (4, 4, 0)
    # The unreadable index folder was replaced by a build of the redacted logs; its stray
    # vocabulary, still holding a piece, was removed.
    assert doc["caches"]["patched"]["keyword_index"]["outcome"] == "rebuilt"
    assert doc["caches"]["removed"] == [".carto/search/vocab.txt"]
    data = everything(home)
    for secret in (AWS, GHP, "q9w8e7r6t5y4"):
        assert secret.encode() not in data and secret.lower().encode() not in data
    lines = home.log("changelog").read_bytes().splitlines(keepends=True)
    assert lines[1] == dumps_row(CLEAN)  # a clean row is kept byte for byte
    assert lines[2].startswith(b'{"event_id":"torn","summary":"git push https://[REDACTED:github-token]@')
    assert [line.row["env"] for line in iter_lines(home.log("tool-use"))] == [
        {"API_TOKEN": "[REDACTED:secret-assignment]"}]
    again = redact_home(home, write=True)
    assert (again["secrets"], again["fixed"]) == (0, 0)
    assert not [n for n in os.listdir(home.root) if ".rewrite-" in n]


def _append_from_another_process(path, row):
    child = CTX.Process(target=append_rows, args=(str(path), [row]))
    child.start()
    child.join(30)
    assert child.exitcode == 0


def test_row_appended_by_another_process_during_the_repair_survives(tmp_path, monkeypatch):
    home = upstream_home(tmp_path)
    path = home.log("changelog")
    repair = RedactSecrets()
    real_fix = repair.fix
    passes = []

    def fix(label, lines, tally):
        passes.append(label)
        if label == "changelog" and passes.count("changelog") == 2:  # the write pass, locked
            _append_from_another_process(path, {"event_id": "during", "summary": "token=zz9Yy8Xx7Ww6"})
        return real_fix(label, lines, tally)

    monkeypatch.setattr(repair, "fix", fix)
    doc = run_repair(repair, home, write=True)
    assert doc["fixed"] == 3
    ids = [line.row["event_id"] for line in iter_lines(path)]
    assert sorted(ids) == ["c1", "during", "e1"]  # (the torn line is kept, redacted, unparsed)
    assert b"zz9Yy8Xx7Ww6" in path.read_bytes()  # appended after the read: copied as written...
    assert run_repair(RedactSecrets(), home, write=True)["fixed"] == 1  # ...the next run redacts it
    assert b"zz9Yy8Xx7Ww6" not in path.read_bytes()


def test_cli_repair_and_doctor_exit_codes_and_never_print_a_secret(tmp_path):
    home = upstream_home(tmp_path)
    env = {"CARTO_HOME": str(home.root)}
    runner = CliRunner()
    doctor = runner.invoke(cli, ["doctor", "--secrets"], env=env)
    assert doctor.exit_code == 1, doctor.output
    assert "changelog: 2 credentials in 2 rows (aws-secret 1, github-token 1)" in doctor.output
    assert "fix: carto repair redact --write" in doctor.output
    report = json.loads(runner.invoke(cli, ["doctor", "--secrets", "--json"], env=env).output)
    assert (report["secrets"], report["ok"], report["caches_holding"]) == (4, False, [".carto/search/vocab.txt"])
    dry = runner.invoke(cli, ["repair", "redact", "--json"], env=env)
    assert dry.exit_code == 0 and json.loads(dry.output)["would_fix"] == 4
    done = runner.invoke(cli, ["repair", "redact", "--write"], env=env)
    assert done.exit_code == 0 and "4 credentials found, 4 fixed" in done.output
    assert "removed cache file still holding a piece (rebuilds on next use): .carto/search/vocab.txt" in done.output
    for result in (doctor, dry, done):
        assert AWS not in result.output and GHP not in result.output
    assert runner.invoke(cli, ["repair", "redact"], env=env).exit_code == 3
    clean = runner.invoke(cli, ["doctor", "--secrets"], env=env)
    assert clean.exit_code == 0 and "no stored credentials found" in clean.output


def test_every_file_under_the_home_is_scanned_and_patched(tmp_path):
    """Beyond the logs: the live state and checkpoints (JSON), an unknown JSONL, a text file;
    binary files are left alone; nothing holds the credential after --write."""
    home = upstream_home(tmp_path)
    live = home.state / "live" / "claude"
    live.mkdir(parents=True)
    (live / "0123abcd.json").write_text(json.dumps({"v": 1, "key": "k", "checkpoint": {
        "answer": {"offset": 0, "text": f"pushed with {GHP}"}}}))
    os.chmod(live / "0123abcd.json", 0o600)
    (home.state / "checkpoints").mkdir()
    (home.state / "checkpoints" / "codex.json").write_text(json.dumps({"/r.jsonl": {"answer": {"text": f"AWS_SECRET_ACCESS_KEY={AWS}"}}}))
    (home.state / "team").mkdir()
    (home.state / "team" / "outbox.jsonl").write_bytes(dumps_row({"event_id": "o1", "summary": f"token {GHP}"}))
    (home.root / "NOTES.md").write_text(f"# notes\nexport AWS_SECRET_ACCESS_KEY={AWS}\n")
    (home.state / "cursor.key").write_bytes(b"\0\1" + GHP.encode())  # binary: never patched
    doc = redact_home(home)
    for label in (".carto/live/claude/0123abcd.json", ".carto/checkpoints/codex.json",
                  ".carto/team/outbox.jsonl", "NOTES.md"):
        assert doc["logs"][label]["secrets"] == 1 and doc["logs"][label]["would_fix"] == 1, label
    assert ".carto/cursor.key" not in doc["logs"]
    text = json.dumps(doc)
    assert AWS not in text and GHP not in text
    doc = redact_home(home, write=True)
    assert doc["fixed"] >= 8
    remaining = {str(p.relative_to(home.root)) for p in home.root.rglob("*")
                 if p.is_file() and (GHP.encode() in p.read_bytes() or AWS.encode() in p.read_bytes())}
    assert remaining == set()  # the binary file is not patched: the cache pass removes what holds a piece
    state = json.loads((live / "0123abcd.json").read_text())
    assert state["checkpoint"]["answer"]["text"] == "pushed with [REDACTED:github-token]"
    assert os.stat(live / "0123abcd.json").st_mode & 0o777 == 0o600  # its mode kept
    assert redact_home(home)["secrets"] == 0  # and a second scan finds nothing


def test_doctor_secrets_reports_the_live_state(tmp_path, monkeypatch):
    home = Home(tmp_path / "home")
    (home.state / "live" / "codex").mkdir(parents=True)
    (home.state / "live" / "codex" / "f.json").write_text(json.dumps({"checkpoint": {"answer": {"text": GHP}}}))
    monkeypatch.setenv("CARTO_HOME", str(home.root))
    result = CliRunner().invoke(cli, ["doctor", "--secrets", "--json"])
    assert result.exit_code == 1
    report = json.loads(result.output)
    assert report["logs"][".carto/live/codex/f.json"]["github-token"] == 1 and GHP not in result.output
