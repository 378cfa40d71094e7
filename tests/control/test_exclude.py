"""`[capture] exclude`: an excluded project or folder writes nothing, from any hook (Claude,
Codex) or any backfill (claude, codex, hermes, git, notes), while the others are recorded as
before. "Nothing" is checked as bytes: no file under the home holds the excluded project's name
or its text."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from carto_core.ingest.runner import run_ingest
from carto_core.logio.home import current_home
from carto_core.privacy.exclude import Exclusion, parse
from tests.control.conftest import (MARK, P, Q, QMARK, SID_P, SID_Q, files_holding, hook,
                                    invoke, tool_payload, transcript)


def _exclude(*patterns: str) -> None:
    path = Path(os.environ["XDG_CONFIG_HOME"]) / "carto" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("[capture]\nexclude = " + json.dumps(list(patterns)) + "\n", "utf-8")


def _nothing_of_p(home) -> None:
    assert home.root.is_dir()
    assert files_holding(home.root, [P, MARK]) == []
    assert files_holding(home.root, [QMARK])  # the other project was recorded


# --------------------------------------------------------------------------- the rule


def test_project_globs_match_whole_names_in_any_case_and_paths_match_their_subtree(tmp_path):
    rule = Exclusion(["client-*", "Scratch", "~/secret", "/mnt/nda/**"])
    assert rule.project("client-acme") and rule.project("CLIENT-acme") and rule.project("scratch")
    assert not rule.project("my-client-acme") and not rule.project("scratchpad")
    home = os.path.expanduser("~")
    assert rule.path(f"{home}/secret") and rule.path(f"{home}/secret/deep/er")
    assert not rule.path(f"{home}/secrets") and not rule.path(f"{home}/other/secret2")
    assert rule.path("/mnt/nda/x/y") and not rule.path("/mnt/ndax")
    assert rule.row({"project": "client-x"}) and rule.row({"cwd": f"{home}/secret/a"})
    assert not rule.row({"project": "webshop", "cwd": "/work/webshop"})
    assert not Exclusion([]) and not Exclusion([]).row({"project": "client-x"})


def test_a_config_without_an_exclude_key_is_not_parsed():
    assert not parse(b'[search]\nrankers = ["bm25"]\n')  # no TOML parse: nothing to find
    assert parse(b'[capture]\nexclude = "scratch"\n').project("scratch")
    broken = parse(b"[capture\nexclude = ")  # carto config and doctor say so
    assert broken.unreadable and broken.row({"project": "webshop", "cwd": "/work/webshop"})
    # every question an ingest or a hook asks of it says "out"
    assert broken.project("webshop") and broken.path("/work/webshop/a.py") and broken.folder("/work")
    assert not parse(b"[capture]\nexclude = []\n").unreadable


def test_the_folder_rule_names_the_project_of_a_repository(tmp_path):
    repo = tmp_path / "zanzibar"
    (repo / ".git").mkdir(parents=True)
    (repo / "src").mkdir()
    assert Exclusion([P]).folder(str(repo / "src"))
    assert not Exclusion([Q]).folder(str(repo / "src"))


# --------------------------------------------------------------------------- hooks


@pytest.mark.parametrize("provider", ["claude", "codex"])
@pytest.mark.parametrize("pattern", [P, f"/work/{P}"])
def test_a_hook_of_an_excluded_project_writes_nothing(provider, pattern):
    _exclude(pattern)
    home = current_home()
    user = Path(os.environ["HOME"])
    for project, sid, mark in ((P, SID_P, MARK), (Q, SID_Q, QMARK)):
        hook(home, "PostToolUse", tool_payload(project, sid, f"make {mark}-build"), provider)
        if provider == "claude":
            path = transcript(user / "t" / f"{sid}.jsonl", sid, f"/work/{project}",
                              [(f"fix the {mark} parser", f"fixed {mark}")])
        else:
            sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins" / "codex" / "tests"))
            from _codex_rollouts import assistant_item, meta, user_event, write_rollout

            path = write_rollout(user / "codex", sid, [
                meta(sid, f"/work/{project}"), user_event(f"fix the {mark} parser"),
                assistant_item(f"fixed {mark}")], old=False)
        payload = {"session_id": sid, "cwd": f"/work/{project}", "transcript_path": str(path),
                   "hook_event_name": "Stop", "last_assistant_message": f"done with {mark}"}
        hook(home, "Stop", payload, provider)
        hook(home, "Stop", {**payload, "transcript_path": f"/work/{project}/gone-{mark}.jsonl"}, provider)
    _nothing_of_p(home)
    assert any((home.state / "live").rglob("*.json"))  # the other project's live state was kept


def test_a_row_of_an_excluded_repository_is_dropped_from_a_call_elsewhere(tmp_path):
    """A session in webshop edits a file in the excluded repository: that row is not written."""
    secret = tmp_path / "zanzibar"
    (secret / ".git").mkdir(parents=True)
    _exclude(P)
    home = current_home()
    hook(home, "PostToolUse", {
        "session_id": SID_Q, "cwd": f"/work/{Q}", "hook_event_name": "PostToolUse",
        "tool_name": "Write", "tool_input": {"file_path": str(secret / f"{MARK}.py"), "content": "x"},
        "tool_response": {"type": "create", "filePath": str(secret / f"{MARK}.py")}})
    hook(home, "PostToolUse", tool_payload(Q, SID_Q, f"make {QMARK}-build"))
    _nothing_of_p(home)


def test_a_real_hook_process_of_an_excluded_folder_creates_no_home(tmp_path):
    _exclude(f"/work/{P}")
    home = current_home()
    payload = json.dumps(tool_payload(P, SID_P, f"make {MARK}"))
    done = subprocess.run([sys.executable, "-m", "carto_core", "hook", "claude", "PostToolUse"],
                          input=payload, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout == ""
    assert not home.root.exists()


# --------------------------------------------------------------------------- backfills


def test_ingest_claude_skips_an_excluded_project():
    from carto_claude.transcripts import ClaudeSource
    from tests.control.conftest import write_projects

    _exclude(P)
    write_projects(Path(os.environ["HOME"]))
    home = current_home()
    summary = run_ingest(ClaudeSource({"settle_seconds": 0}), home)
    assert summary.skipped["excluded"] >= 3 and summary.rows_written >= 3
    _nothing_of_p(home)


def test_ingest_codex_skips_an_excluded_project(tmp_path):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins" / "codex" / "tests"))
    from _codex_rollouts import assistant_item, meta, turn_complete, user_event, user_item, write_rollout
    from carto_codex.source import CodexRolloutSource

    _exclude(P)
    root = tmp_path / "codex" / "sessions" / "2026" / "02" / "01"
    for project, sid, mark in ((P, SID_P, MARK), (Q, SID_Q, QMARK)):
        write_rollout(root, sid, [meta(sid, f"/work/{project}"), user_event(f"fix {mark}"),
                                  user_item(f"fix {mark}"), assistant_item(f"fixed {mark}"),
                                  turn_complete()])
    home = current_home()
    summary = run_ingest(CodexRolloutSource({"roots": [str(tmp_path / "codex" / "sessions")],
                                             "settle_seconds": 0}), home)
    assert summary.skipped["excluded"] >= 1 and summary.rows_written >= 1
    _nothing_of_p(home)


def test_ingest_hermes_skips_an_excluded_project(tmp_path):
    from carto_hermes.fixtures import T0, HermesHome
    from carto_hermes.policy import load_policy
    from carto_hermes.source import HermesSource

    _exclude(P)
    hermes = HermesHome(tmp_path / "hermes")
    corpus = tmp_path / "dev"
    db = hermes.db()
    for project, sid, mark in ((P, "s-p", MARK), (Q, "s-q", QMARK)):
        (corpus / project / ".git").mkdir(parents=True)
        db.session(sid, cwd=str(corpus / project), title=f"the {mark} work")
        db.conversation(sid, [(f"why does {mark} fail?", "Let me look."),
                              (f"and {mark} now?", "It passes.")], start=T0 + 1)
    policy = tmp_path / "hermes.json"
    policy.write_text(json.dumps({"hermes_home": str(hermes.root), "sources": ["desktop"],
                                  "min_user_prompts": 1, "default_project": "hermes",
                                  "corpus_root": str(corpus), "busy_timeout_ms": 200}))
    home = current_home()
    summary = run_ingest(HermesSource({"policy": load_policy(str(policy)), "_now": T0 + 30 * 86400}), home)
    assert summary.skipped["excluded"] >= 2 and summary.rows_written >= 2
    _nothing_of_p(home)


def test_ingest_git_skips_an_excluded_repository(tmp_path, monkeypatch):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins" / "git" / "tests"))
    from _gitrepos import git, isolate_git
    from carto_git.source import GitSource

    isolate_git(monkeypatch)
    repos = []
    for project, mark in ((P, MARK), (Q, QMARK)):
        repo = tmp_path / "repos" / project
        repo.mkdir(parents=True)
        git(repo, "init", "-q", "-b", "main")
        (repo / "a.txt").write_text(mark)
        git(repo, "add", "a.txt")
        git(repo, "commit", "-q", "-m", f"feat: the {mark} start")
        repos.append(str(repo))
    home = current_home()
    for pattern, skipped in ((P, "excluded"), (str(tmp_path / "repos" / P), "excluded stream")):
        _exclude(pattern)
        if home.root.exists():
            import shutil

            shutil.rmtree(home.root)
        summary = run_ingest(GitSource({"repos": repos, "all_authors": True}), home)
        assert summary.skipped[skipped] >= 1 and summary.rows_written >= 1, summary
        _nothing_of_p(home)


def test_ingest_notes_skips_an_excluded_project(tmp_path):
    from carto_notes import NotesSource

    _exclude(P)
    for project, mark in ((P, MARK), (Q, QMARK)):
        note = tmp_path / "notes" / project / "n.md"
        note.parent.mkdir(parents=True)
        note.write_text(f"# {mark}\nthe {mark} plan\n")
    home = current_home()
    summary = run_ingest(NotesSource({"roots": [str(tmp_path / "notes")]}), home)
    assert summary.skipped["excluded"] == 1 and summary.rows_written == 1
    _nothing_of_p(home)


def test_doctor_shows_the_exclusion():
    _exclude(P, "~/secret")
    current_home().root.mkdir(parents=True)
    document = json.loads(invoke("doctor", "--no-probe", "--json", ok=(0, 1)).stdout)
    assert document["exclude"] == {"projects": [P], "paths": [os.path.expanduser("~/secret")],
                                   "config": str(Path(os.environ["XDG_CONFIG_HOME"]) / "carto" / "config.toml"),
                                   "everything": False}
    text = invoke("doctor", "--no-probe", ok=(0, 1)).output
    assert f"never recorded: project {P}" in text


@pytest.mark.parametrize("provider", ["claude", "codex"])
def test_a_config_that_names_an_exclusion_and_cannot_be_read_records_nothing(provider):
    """`[capture] exclude = ["P"]` and a typo elsewhere in the file: the hook read no exclusion
    and recorded the project the user had kept out. What the file keeps out is unknown, so
    nothing is recorded until it is mended, and doctor says so."""
    path = Path(os.environ["XDG_CONFIG_HOME"]) / "carto" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'[capture]\nexclude = ["{P}"]\n[search\n', "utf-8")
    home = current_home()
    for project, sid, mark in ((P, SID_P, MARK), (Q, SID_Q, QMARK)):
        hook(home, "PostToolUse", tool_payload(project, sid, f"make {mark}-build"), provider)
    assert files_holding(home.root, [P, MARK, QMARK]) == [] if home.root.exists() else True
    home.root.mkdir(parents=True, exist_ok=True)
    text = invoke("doctor", "--no-probe", ok=(0, 1)).output
    assert "never recorded: everything, until the config file can be read" in text
    path.write_text(f'[capture]\nexclude = ["{P}"]\n', "utf-8")  # mended: the rule as written
    hook(home, "PostToolUse", tool_payload(Q, SID_Q, f"make {QMARK}-build"), provider)
    assert files_holding(home.root, [QMARK])
