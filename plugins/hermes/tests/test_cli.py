"""`carto ingest hermes` end to end: dry run, --write, idempotence, read-only, bad input."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3

import pytest
from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.util.exitcodes import ExitCode
from carto_core.logio.home import current_home
from carto_core.logio.reader import iter_lines
from carto_hermes.fixtures import T0, call


def run(*args):
    result = CliRunner().invoke(cli, ["ingest", "hermes", *args])
    return result


def home_files():
    """Every file in the carto home (logs and state): bad input must leave this empty."""
    root = current_home().root
    if not root.exists():
        return []
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


def sha(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def populated(hermes_home, corpus_root):
    db = hermes_home.db()
    db.session("s1", cwd=str(corpus_root / "carto"), title="Ingest work")
    db.conversation("s1", [("plan the hermes adapter", "here is a plan"),
                           ("write it", "written")], tools={1: [call("write_file", path="/x")]})
    db.session("s2", source="cli")
    db.conversation("s2", [("unselected channel", "x"), ("still", "y")])
    return hermes_home


def test_dry_run_by_default_then_write_then_idempotent(populated, make_policy):
    policy = make_policy(sources=["desktop"])
    dry = run("--config", str(policy), "--json")
    assert dry.exit_code == 0, dry.output
    document = json.loads(dry.stdout)
    assert document["dry_run"] is True and document["written"] == {"turns": 2, "milestones": 1}
    assert document["skipped"] == {"source_not_selected": 1}
    assert home_files() == []  # a dry run writes nothing, not even a checkpoint

    db_path = populated.root / "state.db"
    before = sha(db_path)
    first = run("--config", str(policy), "--write", "--json")
    assert first.exit_code == 0, first.output
    assert json.loads(first.stdout)["written"] == {"turns": 2, "milestones": 1}
    assert sha(db_path) == before  # opened read-only: the database is byte-identical
    home = current_home()
    turns = [line.row for line in iter_lines(home.log("turns"))]
    assert [t["event_id"] for t in turns] == ["turn-hermes-s1-1", "turn-hermes-s1-3"]
    assert [r["event_id"] for r in map(lambda l: l.row, iter_lines(home.log("milestones")))] == [
        "hermes-session-s1"]
    logs_before = {name: (home.root / name).read_bytes() for name in ("turns.jsonl", "session-milestones.jsonl")}

    second = run("--config", str(policy), "--write", "--json")
    assert second.exit_code == 0 and json.loads(second.stdout)["rows_written"] == 0
    full = run("--config", str(policy), "--write", "--full", "--json")
    assert full.exit_code == 0
    full_doc = json.loads(full.stdout)
    assert full_doc["rows_written"] == 0 and full_doc["already_present"] == 3
    assert {n: (home.root / n).read_bytes() for n in logs_before} == logs_before
    assert sha(db_path) == before
    checkpoint = json.loads((home.state / "checkpoints" / "hermes.json").read_text())
    assert set(checkpoint["db:" + str(db_path.resolve())]["sessions"]) == {"s1", "s2"}


def test_new_messages_after_a_run_add_only_the_new_turn(populated, make_policy):
    policy = make_policy(sources=["desktop"])
    assert run("--config", str(policy), "--write").exit_code == 0
    db = populated.db()
    db.session("s3", ended=T0 + 100, started=T0 + 10)
    new_prompt = db.conversation("s3", [("brand new", "session")], tools={0: [call("terminal")]})[0]
    result = run("--config", str(policy), "--write", "--json")
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    assert doc["written"] == {"turns": 1, "milestones": 1} and doc["already_present"] == 0
    turns = [line.row["event_id"] for line in iter_lines(current_home().log("turns"))]
    assert turns == ["turn-hermes-s1-1", "turn-hermes-s1-3", f"turn-hermes-s3-{new_prompt}"]


def test_print_config_path(make_policy, monkeypatch):
    result = run("--print-config-path")
    assert result.exit_code == 0
    assert result.stdout.strip() == os.path.join(os.environ["XDG_CONFIG_HOME"], "carto", "hermes.json")
    assert "no policy file yet" in result.stderr
    policy = make_policy()
    monkeypatch.setenv("CARTO_HERMES_CONFIG", str(policy))
    result = run("--print-config-path", "--json")
    assert json.loads(result.stdout) == {"path": str(policy), "exists": True, "searched": [str(policy)]}


def test_missing_policy_refuses_and_says_where_it_looked(populated):
    result = run("--write")
    assert result.exit_code == ExitCode.USAGE
    assert "no Hermes policy file" in result.stderr
    assert os.path.join(os.environ["XDG_CONFIG_HOME"], "carto", "hermes.json") in result.stderr
    assert "session-cartographer" in result.stderr
    assert home_files() == []


@pytest.mark.parametrize("text, message", [
    ("{not json", "not valid JSON"),
    ("[1, 2]", "must be a JSON object"),
    ('{"min_user_prompts": "two"}', "min_user_prompts must be int"),
    ('{"exclude_project": ["typo"]}', "unknown key 'exclude_project'"),
    ('{"redact_patterns": ["(unclosed"]}', "not a valid regex"),
    ('{"artifacts": [{"dir": "/x"}]}', "artifacts[0]: kind is required"),
])
def test_malformed_policy(populated, tmp_path, text, message):
    path = tmp_path / "bad.json"
    path.write_text(text, "utf-8")
    result = run("--config", str(path), "--write")
    assert result.exit_code == ExitCode.USAGE, result.output
    assert message in result.stderr and str(path) in result.stderr
    assert home_files() == []


def test_locked_database_fails_the_run_and_writes_nothing(hermes_home, make_policy, corpus_root):
    db = hermes_home.db("default", wal=False)  # rollback journal: a writer's lock blocks readers
    db.session("s1")
    db.conversation("s1", [("a", "b"), ("c", "d")])
    other = hermes_home.db("work")  # a healthy second profile must not be written either
    other.session("w1")
    other.conversation("w1", [("a", "b"), ("c", "d")])
    policy = make_policy(busy_timeout_ms=50)
    locker = sqlite3.connect(db.path, isolation_level=None)
    try:
        locker.execute("BEGIN EXCLUSIVE")
        result = run("--config", str(policy), "--write")
    finally:
        locker.execute("ROLLBACK")
        locker.close()
    assert result.exit_code == ExitCode.UNAVAILABLE, result.output
    assert "busy" in result.stderr and str(db.path.resolve()) in result.stderr
    assert "Nothing was written" in result.stderr
    assert home_files() == []
    assert run("--config", str(policy), "--write").exit_code == 0  # once free, it goes through


def test_corrupt_database(hermes_home, make_policy):
    hermes_home.root.mkdir(parents=True, exist_ok=True)
    (hermes_home.root / "state.db").write_bytes(b"this is not sqlite at all" * 100)
    result = run("--config", str(make_policy()), "--write")
    assert result.exit_code == ExitCode.ERROR
    assert "not a readable SQLite database" in result.stderr
    assert home_files() == []


def test_unknown_schema(hermes_home, make_policy):
    hermes_home.root.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(hermes_home.root / "state.db")
    conn.executescript("CREATE TABLE sessions (id TEXT, kind TEXT);"
                       "CREATE TABLE chat (id INTEGER, body TEXT);")
    conn.close()
    result = run("--config", str(make_policy()), "--write")
    assert result.exit_code == ExitCode.ERROR
    assert "unknown schema" in result.stderr
    assert "sessions.source" in result.stderr and "table 'messages'" in result.stderr
    assert home_files() == []


def test_no_database_is_not_found(make_policy, hermes_home):
    result = run("--config", str(make_policy()))
    assert result.exit_code == ExitCode.NOT_FOUND
    assert str(hermes_home.root) in result.stderr


def test_show_explains_one_session(populated, make_policy):
    policy = make_policy(sources=["desktop"])
    result = run("--config", str(policy), "--show", "s1", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["kept"] is True and doc["project"] == "carto"
    assert doc["project_reason"] == "cwd under corpus_root"
    assert [r["row"]["event_id"] for r in doc["rows"]] == [
        "turn-hermes-s1-1", "turn-hermes-s1-3", "hermes-session-s1"]
    skipped = run("--config", str(policy), "--show", "s2", "--json")
    assert json.loads(skipped.stdout)["skipped"] == "source_not_selected"
    text = run("--config", str(policy), "--show", "s1")
    assert "project carto (cwd under corpus_root)" in text.stdout
    missing = run("--config", str(policy), "--show", "nope")
    assert missing.exit_code == ExitCode.NOT_FOUND and "no session 'nope'" in missing.stderr
    assert home_files() == []


def test_live_wal_database_is_read_and_left_untouched(populated, make_policy):
    """Hermes running: a writer holds the database with rows still only in the WAL."""
    db_path = populated.root / "state.db"
    writer = sqlite3.connect(db_path, isolation_level=None)
    try:
        writer.execute("PRAGMA wal_autocheckpoint=0")
        writer.execute("INSERT INTO sessions (id, source, started_at, ended_at) VALUES "
                       "('live', 'desktop', ?, ?)", (T0, T0 + 60))
        for index, role in enumerate(["user", "assistant", "user", "assistant"]):
            writer.execute("INSERT INTO messages (session_id, role, content, timestamp) "
                           "VALUES ('live', ?, ?, ?)", (role, f"wal text {index}", T0 + index))
        wal = db_path.with_name("state.db-wal")
        assert wal.stat().st_size > 0
        before = {p.name: sha(p) for p in (db_path, wal)}
        result = run("--config", str(make_policy(sources=["desktop"])), "--write", "--json")
        assert result.exit_code == 0, result.output
        assert {p.name: sha(p) for p in (db_path, wal)} == before
    finally:
        writer.close()
    ids = {line.row["event_id"] for line in iter_lines(current_home().log("milestones"))}
    assert "hermes-session-live" in ids


def test_connection_refuses_writes(populated):
    from carto_hermes.db import open_readonly

    conn = open_readonly(populated.root / "state.db", 100)
    try:
        with pytest.raises(sqlite3.OperationalError, match="readonly|read-only|query_only"):
            conn.execute("DELETE FROM messages")
    finally:
        conn.close()


def test_since_when_since_days_and_settle_as_every_transcript_source(populated, make_policy):
    populated.db().session("s3", cwd=str(populated.root), ended=None)  # still running
    populated.db().conversation("s3", [("an open question", "thinking"), ("and another", "so far")])
    """The same window flags as `ingest claude|codex` (issue 13): --since WHEN and its older
    spelling --since-days agree; --settle overrides the policy's settle_seconds."""
    policy = make_policy(sources=["desktop"])
    age_days = (__import__("time").time() - T0) / 86400

    def dry(*flags):
        result = run("--config", str(policy), "--json", *flags)
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    everything = dry()
    assert everything["written"]["turns"] == 4  # s3's last message is months old: settled
    recent = f"{max(1, int(age_days) - 1)}d"  # a window that ends after the session
    newer = dry("--since", recent)
    older = dry("--since-days", recent[:-1])
    assert newer["written"] == older["written"] == {}
    assert newer["skipped"] == older["skipped"] and newer["skipped"].get("older_than_since")
    wide = dry("--since", f"{int(age_days) + 2}d")
    assert wide["written"] == everything["written"]
    # A settle longer than the session's age: its last turn is not final yet, so held back.
    unsettled = dry("--settle", str(int((age_days + 30) * 86400)))
    assert unsettled["written"]["turns"] == everything["written"]["turns"] - 1  # s3's last turn


def test_ingest_all_says_in_one_whole_line_why_hermes_is_not_set_up(populated, monkeypatch):
    """`ingest --all` keeps the first line of a source's refusal: that line alone must say why
    (it once ended on "Looked in:", the places it named cut off), and where to read how to
    set it up (the rest of the refusal, which said so, is cut off)."""
    monkeypatch.setenv("HERMES_HOME", str(populated.root))
    result = CliRunner().invoke(cli, ["ingest", "--all", "--dry-run"])
    lines = [line for line in result.stdout.splitlines() if line.startswith("hermes:")]
    assert lines == ["hermes: not set up (no Hermes policy file (the adapter never runs "
                     "without one: there is no default policy)); `carto ingest hermes --help` "
                     "says how to set it up"], result.stdout
    document = json.loads(CliRunner().invoke(cli, ["ingest", "--all", "--dry-run", "--json"]).stdout)
    assert document["not_set_up"]["hermes"].startswith("no Hermes policy file (")


def test_ingest_all_asks_no_policy_of_a_machine_without_hermes(tmp_path, monkeypatch):
    """A person who never ran Hermes Agent got "hermes: not set up (no Hermes policy file ...)"
    from every `carto ingest --all`, asked to write a policy for a database that is not there.
    Without a state.db where Hermes keeps one, Hermes is among the sources with nothing to
    read."""
    monkeypatch.setenv("HERMES_HOME", str(tmp_path / "no-hermes"))
    result = CliRunner().invoke(cli, ["ingest", "--all", "--dry-run"])
    assert "hermes: not set up" not in result.stdout, result.stdout
    nothing = next(line for line in result.stdout.splitlines() if line.startswith("nothing to read where"))
    assert "hermes" in nothing, result.stdout
    document = json.loads(CliRunner().invoke(cli, ["ingest", "--all", "--dry-run", "--json"]).stdout)
    assert "hermes" not in document["not_set_up"] and "hermes" in document["nothing_to_read"]
