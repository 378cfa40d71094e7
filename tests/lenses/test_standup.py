"""standup and the edit-collision note on a real repository with a real linked worktree."""

from __future__ import annotations

import json
import os
import subprocess
from datetime import datetime, timedelta, timezone

import pytest
from click.testing import CliRunner

from carto_core.logio.appendlog import append_rows
from carto_core.cli import cli
from carto_core.capture.collision import collision_note
from carto_core.logio.home import Home
from carto_core.lenses.standup import find_commit, found_nothing, standup
from carto_core.logio.logs import order_row

NOW = datetime.now(timezone.utc).replace(microsecond=0)
A, B, C = "aaaa1111-0000-4000-8000-000000000001", "bbbb2222-0000-4000-8000-000000000002", "cccc3333-0000-4000-8000-000000000003"


def git(*args, cwd):
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture
def world(tmp_path):
    repo = tmp_path / "shop"
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "cart.py").write_text("total = 0\n")
    (repo / "README.md").write_text("shop\n")
    git("init", "-q", "-b", "main", cwd=repo)
    git("-c", "user.name=t", "-c", "user.email=t@t", "add", ".", cwd=repo)
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "init", cwd=repo)
    worktree = tmp_path / "shop-rounding"
    git("worktree", "add", "-q", str(worktree), "-b", "rounding", cwd=repo)
    other = tmp_path / "infra"
    other.mkdir()
    home = Home(tmp_path / "home")

    def row(minutes, sid, etype, summary, cwd, cwd_field=None, **extra):
        ts = (NOW - timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M:%SZ")
        return order_row("changelog", {"event_id": f"evt-{sid[:4]}{minutes:04d}{etype[:4]}", "timestamp": ts,
                                       "type": etype, "provider": "codex" if sid == B else "claude",
                                       "session_id": sid, "project": cwd.name.split("-")[0],
                                       "cwd": str(cwd) if cwd_field is None else cwd_field, "summary": summary, "related_ids": [], **extra})

    rows = [
        row(90, A, "tool_file_edit", f"Modified: {repo}/src/cart.py", repo),
        row(80, A, "git_commit", f"[feature] Commit {'a1' * 20}: feat(cart): discount codes | files: src/cart.py", repo,
            commit_type="feature"),
        row(30, B, "tool_file_edit", f"Modified: {worktree}/src/cart.py", worktree),
        row(25, B, "tool_bash", "Ran: pytest", worktree),
        row(20, C, "tool_file_edit", f"Modified: {other}/main.tf", other),
        row(10, C, "tool_file_edit", "Modified: relative.txt", other, cwd_field=""),
        row(5, "unknown", "tool_bash", "Ran: ls -la", other),
    ]
    append_rows(home.log("changelog"), rows)
    return {"home": home, "repo": repo, "worktree": worktree}


def test_three_sessions_two_checkouts_show_contention(world):
    doc = standup(world["home"], since="6h", now=NOW, me=C)
    assert [s["id"] for s in doc["sessions"]] == [C, B, A]  # most recent first
    by = {s["id"]: s for s in doc["sessions"]}
    assert by[C]["is_self"] and by[A]["commits"][0]["subject"] == "feat(cart): discount codes"
    assert by[B]["provider"] == "codex" and by[C]["edits_unresolved"] == 1
    assert doc["contention"]["projects"] == [{"project": "shop", "sessions": sorted([A, B])}]
    files = doc["contention"]["files"]
    assert len(files) == 1
    assert files[0]["path"] == str(world["repo"] / "src" / "cart.py")
    assert files[0]["worktree_split"] is True
    assert set(files[0]["paths"]) == {str(world["repo"] / "src/cart.py"), str(world["worktree"] / "src/cart.py")}
    assert files[0]["sessions"] == [B, A]
    assert doc["unattributed_events"] == 1


def test_unclaimed_lists_a_tracked_change_no_session_logged(world):
    (world["repo"] / "README.md").write_text("changed by hand\n")
    doc = standup(world["home"], since="6h", now=datetime.now(timezone.utc), me=C)
    paths = [u["path"] for u in doc["unclaimed_changes"]]
    assert paths == ["README.md"]  # cart.py is unchanged on disk; README changed and unlogged


def test_standup_text_and_json_from_the_cli(world):
    runner = CliRunner()
    env = {"CARTO_HOME": str(world["home"].root)}
    text = runner.invoke(cli, ["standup", "--since", "6h", "--no-git"], env=env)
    assert text.exit_code == 0, text.output
    assert "CONTENTION" in text.stdout and "[same file, separate worktrees]" in text.stdout
    assert "bbbb2222 · aaaa1111" in text.stdout
    data = json.loads(runner.invoke(cli, ["standup", "--json", "--no-git"], env=env).stdout)
    assert data["contention"]["files"][0]["worktree_split"] is True


def test_commit_names_the_session_that_made_it(world):
    found = find_commit(world["home"], "a1a1a1a")
    assert found["session_id"] == A and found["attribution"] == "recorded"
    assert found["files"] == [str(world["repo"] / "src" / "cart.py")]
    by_subject = find_commit(world["home"], "discount codes")
    assert by_subject["sha"] == "a1" * 20
    append_rows(world["home"].log("changelog"), [{"event_id": "git-b2b2b2b", "timestamp": "2026-01-01T00:00:00Z",
                                                  "type": "git_commit", "project": "shop",
                                                  "summary": "Commit b2b2b2b: chore: bump | files: x"}])
    backfilled = find_commit(world["home"], "b2b2b2b")
    assert backfilled["session_id"] is None
    assert backfilled["attribution"] == "not recorded, backfilled from git"
    runner = CliRunner()
    result = runner.invoke(cli, ["standup", "--commit", "a1a1a1a"], env={"CARTO_HOME": str(world["home"].root)})
    assert result.exit_code == 0 and f"session {A} (claude)" in result.stdout
    missing = runner.invoke(cli, ["standup", "--commit", "ffffff0"], env={"CARTO_HOME": str(world["home"].root)})
    assert missing.exit_code == 3


def test_collision_note_from_the_other_checkout(world):
    home, repo, worktree = world["home"], world["repo"], world["worktree"]
    # C editing the main checkout's file: B edited it 30 minutes ago from the worktree.
    note = collision_note(home, C, str(repo / "src" / "cart.py"), now=NOW)
    assert note is not None and "bbbb2222" in note and "another checkout" in note
    # B itself gets A's commit? No: A's commit is 80 minutes old, past the 45-minute window.
    assert collision_note(home, B, str(worktree / "src" / "cart.py"), now=NOW) is None
    # A file nobody else touched: nothing.
    assert collision_note(home, A, str(repo / "README.md"), now=NOW) is None
    # Within a wider window A's commit of the same file is a collision for B.
    assert "aaaa1111" in collision_note(home, B, str(worktree / "src" / "cart.py"), now=NOW, window_minutes=120)
    # Two other sessions within the window: the newest is named, the other counted.
    both = collision_note(home, C, str(repo / "src" / "cart.py"), now=NOW, window_minutes=120)
    assert "session bbbb2222" in both and " and 1 other session edited cart.py" in both


D = "dddd4444-0000-4000-8000-000000000004"


def _rollout(codex_home, sid, text):
    folder = codex_home / "sessions" / "2026" / "09" / "08"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"rollout-2026-09-08T10-00-00-{sid}.jsonl"
    path.write_text(text)
    return path


def test_silent_sessions_hook_trust_and_mentions_from_codex_files(world, tmp_path, monkeypatch):
    codex_home = tmp_path / "codex"
    monkeypatch.setenv("CODEX_HOME", str(codex_home))
    (world["repo"] / "README.md").write_text("changed by a silent codex session\n")
    # D logged nothing but its transcript names README.md three times; B (logged) once.
    _rollout(codex_home, D, '{"cmd":"sed -i s/x/y/ README.md"}\n{"out":"README.md"}\n{"patch":"README.md"}\n')
    _rollout(codex_home, B, '{"cmd":"cat README.md"}\n')
    now = datetime.now(timezone.utc)

    doc = standup(world["home"], since="6h", now=now, me=C)
    assert [s["id"] for s in doc["silent"]["codex_sessions_without_events"]] == [D]
    trust = doc["silent"]["codex_hook_trust"]
    assert trust["state"] == "not_installed" and trust["trust_known"] is False
    assert "carto install codex" in trust["reason"]
    (readme,) = [u for u in doc["unclaimed_changes"] if u["path"] == "README.md"]
    assert [(m["id"], m["mentions"], m["unlogged"]) for m in readme["mentioned_by"]] == [(D, 3, True), (B, 1, False)]

    (codex_home / "hooks.json").write_text(json.dumps({"hooks": {"PostToolUse": [{"hooks": [
        {"type": "command", "command": "carto hook codex PostToolUse"}]}]}}))
    trust = standup(world["home"], since="6h", now=now, me=C)["silent"]["codex_hook_trust"]
    # B's hook rows are in the window: Codex ran the hooks (a run bypassing hook trust), so they
    # are not called untrusted; what config.toml records is said beside it.
    assert (trust["state"], trust["trust_known"], trust["silent_sessions"], trust["hooks_fired"]) == (
        "fired", True, [D], [B])
    assert trust["hook_files"] == [str(codex_home / "hooks.json")] and "/hooks" in trust["reason"]
    assert trust["reason"].startswith("carto's hooks logged rows of 1 Codex session in the window, so "
                                      "Codex ran them, though its config.toml does not record them as "
                                      "trusted: codex: one of carto's hooks in ")
    assert "never trusted (PostToolUse)" in trust["reason"]
    assert trust["reason"].endswith("; 1 Codex session wrote a transcript in the window after they were "
                                    "installed and logged no event")
    # Hook rows of another machine (the team's standup) say nothing of this one's hooks.
    trust = standup(world["home"], since="6h", now=now, me=C, local_ids=set())["silent"]["codex_hook_trust"]
    assert (trust["state"], trust["silent_sessions"], trust["hooks_fired"]) == ("untrusted", [D], [])
    unread = "carto_core.lenses.standup._trust_problems"  # no Codex source to read the trust
    with monkeypatch.context() as patch:
        patch.setattr(unread, lambda files: None)
        trust = standup(world["home"], since="6h", now=now, me=C)["silent"]["codex_hook_trust"]
    assert (trust["state"], trust["trust_known"], trust["hooks_fired"]) == ("fired", False, [B])
    assert trust["reason"] == ("carto's hooks logged rows of 1 Codex session in the window, so Codex ran "
                               "them; their trust is not checked: no installed Codex source reads it "
                               "(`carto plugins`); 1 Codex session wrote a transcript in the window "
                               "after they were installed and logged no event")

    (codex_home / "config.toml").write_text("[features]\nhooks = false\n")
    trust = standup(world["home"], since="6h", now=now, me=C)["silent"]["codex_hook_trust"]
    assert trust["state"] == "disabled" and trust["disabled_by"] == [str(codex_home / "config.toml")]

    (codex_home / "config.toml").write_text("[features]\nhooks = true\n")
    old = (now - timedelta(days=1)).timestamp()
    for path in (codex_home / "sessions").rglob("*.jsonl"):
        os.utime(path, (old, old))  # no rollout in the window: nothing is silent
    doc = standup(world["home"], since="6h", now=now, me=C)
    trust = doc["silent"]["codex_hook_trust"]
    assert (trust["state"], trust["silent_sessions"]) == ("fired", [])  # no symptom: B's rows alone
    assert doc["silent"]["codex_sessions_without_events"] == []
    text = CliRunner().invoke(cli, ["standup", "--since", "6h"], env={"CARTO_HOME": str(world["home"].root)})
    assert text.exit_code == 0


def test_a_rollout_copied_just_now_is_as_old_as_its_last_record(world, tmp_path, monkeypatch):
    """A restored or copied rollout has a new mtime: its last record says when it was active."""
    codex_home = tmp_path / "codex"
    monkeypatch.setenv("CODEX_HOME", str(codex_home))
    now = datetime.now(timezone.utc)
    stamp = lambda at: at.strftime("%Y-%m-%dT%H:%M:%S.000Z")  # noqa: E731
    # Copied just now (mtime now): records of last month, then of an hour ago.
    _rollout(codex_home, D, "".join(json.dumps({"timestamp": stamp(now - timedelta(days=30 + i)),
                                                "type": "event_msg"}) + "\n" for i in (1, 0)))
    _rollout(codex_home, B, json.dumps({"timestamp": stamp(now - timedelta(days=31)),
                                        "type": "event_msg"}) + "\n"
             + json.dumps({"timestamp": stamp(now - timedelta(hours=1)), "type": "event_msg"}) + "\n")
    doc = standup(world["home"], since="6h", now=now, me=C)
    assert doc["silent"]["codex_sessions_without_events"] == []  # B logged, D's records are old
    unlogged = "eeee5555-0000-4000-8000-000000000005"
    _rollout(codex_home, unlogged, json.dumps({"timestamp": stamp(now - timedelta(hours=1)),
                                               "type": "event_msg"}) + "\n")
    (item,) = standup(world["home"], since="6h", now=now, me=C)["silent"]["codex_sessions_without_events"]
    assert item["id"] == unlogged and item["transcript_written"] == stamp(now - timedelta(hours=1))[:19] + "Z"


def test_an_empty_window_exits_3_and_json_still_prints_its_document(world):
    """Nothing in the window is "ran fine, found nothing" (docs/cli.md: exit 3); --json still
    prints the whole document, with an empty roster, and the reason goes to stderr."""
    runner = CliRunner()
    env = {"CARTO_HOME": str(world["home"].root)}
    # The fixture's newest row is 5 minutes old: a 2-minute window holds nothing.
    empty = runner.invoke(cli, ["standup", "--since", "2m", "--json", "--no-git"], env=env)
    assert empty.exit_code == 3, empty.output
    doc = json.loads(empty.stdout)
    assert doc["sessions"] == [] and doc["unattributed_events"] == 0 and doc["unclaimed_changes"] == []
    assert doc["window"]["spec"] == "2m" and "nothing in the window" in empty.stderr
    text = runner.invoke(cli, ["standup", "--since", "2m", "--no-git"], env=env)
    assert text.exit_code == 3 and "STANDUP" in text.stdout and "nothing in the window" in text.stderr
    # An event without a session is still something found (the roster is empty).
    doc = standup(world["home"], since="7m", now=NOW, scan_unclaimed=False)
    assert doc["sessions"] == [] and doc["unattributed_events"] == 1 and not found_nothing(doc)
    assert found_nothing(standup(world["home"], since="2m", now=NOW, scan_unclaimed=False))
    # A window with sessions stays exit 0.
    assert runner.invoke(cli, ["standup", "--since", "6h", "--json", "--no-git"], env=env).exit_code == 0


def test_the_header_says_last_for_a_span_and_since_for_a_moment(world):
    """'STANDUP — last 2030-01-01' and 'last yesterday' read as nonsense; a window that starts
    after now was said like any other."""
    env = {"CARTO_HOME": str(world["home"].root)}
    heads = {when: CliRunner().invoke(cli, ["standup", "--since", when, "--no-git"], env=env)
             .stdout.splitlines()[0] for when in ("6h", "2 days", "yesterday", "2030-01-01")}
    assert heads["6h"].startswith("STANDUP — last 6h ")
    assert heads["2 days"].startswith("STANDUP — last 2 days ")
    assert heads["yesterday"].startswith("STANDUP — since yesterday ")
    assert heads["2030-01-01"].startswith(
        "STANDUP — since 2030-01-01 (after now: the window holds nothing yet) ")


def test_codex_sessions_before_the_hooks_were_installed_do_not_blame_their_trust(world, tmp_path, monkeypatch):
    """Right after `carto install codex --trust`, standup said 'Codex hooks suspected untrusted:
    ... 4 Codex session(s) wrote a transcript in the window and logged no event', counting
    rollouts written months before the hooks existed. The install ledger records when carto
    first wrote the hook file; only a silent session after that counts. (B's hook rows are read
    as another machine's, `local_ids`: rows of hooks that fired would speak for them here.)"""
    codex_home = tmp_path / "codex"
    monkeypatch.setenv("CODEX_HOME", str(codex_home))
    now = datetime.now(timezone.utc)
    _rollout(codex_home, D, '{"cmd":"make test"}\n')
    old = (now - timedelta(days=3)).timestamp()
    for path in (codex_home / "sessions").rglob("*.jsonl"):
        os.utime(path, (old, old))
    codex_home.mkdir(exist_ok=True)
    assert CliRunner().invoke(cli, ["install", "codex", "--trust"]).exit_code == 0
    trust = standup(world["home"], since="7d", now=now, me=C, local_ids=set())["silent"]["codex_hook_trust"]
    assert trust["state"] == "trusted" and trust["silent_sessions"] == []
    assert "(1 Codex session in the window is from before" in trust["reason"] and trust["installed_at"] is not None
    unread = "carto_core.lenses.standup._trust_problems"  # no Codex source to read the trust
    with monkeypatch.context() as patch:
        patch.setattr(unread, lambda files: None)
        trust = standup(world["home"], since="7d", now=now, me=C, local_ids=set())["silent"]["codex_hook_trust"]
    assert (trust["state"], trust["trust_known"], trust["silent_sessions"]) == ("unknown", False, [])
    assert "(1 before)" in trust["reason"] and "`carto plugins`" in trust["reason"]
    # a session after the install that logged nothing is the symptom again
    later = "eeee5555-0000-4000-8000-000000000005"
    _rollout(codex_home, later, '{"cmd":"make build"}\n')
    later_now = now + timedelta(minutes=1)
    trust = standup(world["home"], since="7d", now=later_now, me=C, local_ids=set())["silent"]["codex_hook_trust"]
    assert trust["state"] == "trusted" and trust["silent_sessions"] == [later]
    assert "yet 1 Codex session wrote a transcript" in trust["reason"] and "carto doctor" in trust["reason"]
    with monkeypatch.context() as patch:
        patch.setattr(unread, lambda files: None)
        trust = standup(world["home"], since="7d", now=later_now, me=C, local_ids=set())["silent"]["codex_hook_trust"]
    assert trust["state"] == "suspected_untrusted" and trust["silent_sessions"] == [later]
    assert "1 Codex session(s)" in trust["reason"]


def test_a_forgotten_codex_session_is_not_silent(world, tmp_path, monkeypatch):
    """`carto forget --session S` takes S's turns out; its rollout stays on disk, and standup
    listed it under SILENT ("0 events logged", install the hooks). The tombstones know it."""
    from carto_core.logio.tombstone import bury

    codex_home = tmp_path / "codex"
    monkeypatch.setenv("CODEX_HOME", str(codex_home))
    _rollout(codex_home, D, '{"cmd":"ls"}\n')
    now = datetime.now(timezone.utc)
    assert [s["id"] for s in standup(world["home"], since="6h", now=now, me=C)["silent"]
            ["codex_sessions_without_events"]] == [D]
    bury(world["home"], {f"turn-codex-{D}-1"})
    doc = standup(world["home"], since="6h", now=now, me=C)
    assert doc["silent"]["codex_sessions_without_events"] == []
    assert D not in doc["silent"]["codex_hook_trust"]["silent_sessions"]
