"""`carto handoff`: every line cites an event that says what the line says, the document fits its
bound, and the decisions and open threads are what the transcripts themselves show (a json-only
scan: the commits the client reported, the files its edit tools changed and no commit took)."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from carto_core.cli import cli
from tests.clikit import run as _run

ROOT = Path(__file__).resolve().parents[2]
LINEAGE = ROOT / "plugins" / "claude" / "tests" / "fixtures" / "claude-2.1.328-lineage"
ORIGIN = "2a1c0000-0000-4000-8000-000000000003"
DEMO = "5c0375b4-57a5-4f26-b12d-d022ee4e51b7"


def _lines(path: Path) -> list[dict]:
    return [json.loads(raw) for raw in path.read_text("utf-8").splitlines() if raw.strip()]


def scan(transcript: Path) -> dict:
    """Commits (sha) the client reported (its gitOperation, else git's own line in a failed
    call's output), and files its edit tools changed, from the file alone."""
    calls, shas, edited = {}, [], []
    for line in _lines(transcript):
        content = (line.get("message") or {}).get("content") if isinstance(line.get("message"), dict) else None
        for block in content if isinstance(content, list) else ():
            if block.get("type") == "tool_use":
                calls[block["id"]] = block
            elif block.get("type") == "tool_result" and block.get("tool_use_id") in calls:
                call = calls[block["tool_use_id"]]
                result = line.get("toolUseResult")
                commit = ((result or {}).get("gitOperation") or {}).get("commit") if isinstance(result, dict) else None
                if commit:
                    shas.append(commit["sha"][:7])
                elif call["name"] == "Bash" and "git commit" in call["input"].get("command", ""):
                    # a failed call's output: git's own `[branch sha] subject` line
                    text = json.dumps(block.get("content"))
                    shas += re.findall(r"\[[^\]\s]+(?: \(root-commit\))? ([0-9a-f]{7,40})\] ", text)
                if call["name"] in ("Edit", "Write", "MultiEdit") and not block.get("is_error"):
                    edited.append(call["input"]["file_path"])
    return {"shas": shas, "edited": edited}


def _cited(event_id: str) -> dict:
    """The row an id names; a call of a turn (`<turn id>#<n>`) is the n-th entry of its tools."""
    turn, _, n = event_id.partition("#")
    row = _run("search", "--get", turn, "--json")["found"][turn]
    return row["tools"][int(n) - 1] if n else row


def test_session_handoff_cites_what_the_transcript_says(shared_fixtures, tmp_path):
    projects = tmp_path / "p"
    shutil.copytree(LINEAGE, projects / "-home-dev-repo", ignore=shutil.ignore_patterns("*.md", "payloads"))
    shutil.copytree(shared_fixtures / "claude" / "claude-code-viewer" / "projects", projects / "viewer")
    _run("ingest", "claude", "--root", str(projects), "--json")
    for sid, transcript in ((ORIGIN, projects / "-home-dev-repo" / f"{ORIGIN}.jsonl"),
                            (DEMO, projects / "viewer" / "sample-project" / f"{DEMO}.jsonl")):
        truth = scan(transcript)
        doc = _run("handoff", sid, "--json")
        commits = [d for d in doc["decisions"] if d["kind"] == "commit"]
        assert sorted(d["text"][-8:-1] for d in commits) == sorted(truth["shas"]), sid
        for decision in commits:
            cited = _cited(decision["event_id"])
            assert cited["commit"]["sha"][:7] in decision["text"]
        open_files = [t["text"].removeprefix("uncommitted edits: ") for t in doc["open_threads"] if t["kind"] == "uncommitted"]
        assert open_files == ([] if truth["shas"] else list(dict.fromkeys(truth["edited"]))), sid
        for thread in doc["open_threads"]:
            assert thread["text"].removeprefix("uncommitted edits: ") in _cited(thread["event_id"])["edits"]
        for item in doc["files"]:
            assert item["path"] in _cited(item["event_id"])["edits"]
        for turn in doc["last_turns"]:
            assert _cited(turn["event_id"])["session"] == sid
        assert doc["transcript_path"] == str(transcript)
    project = _run("handoff", "--project", "Demo", "--json")
    assert [t["event_id"] for t in project["open_threads"]] == [
        t["event_id"] for t in _run("handoff", DEMO, "--json")["open_threads"]]
    assert DEMO in [s["session_id"] for s in project["sessions"]]
    text = _run("handoff", DEMO)
    assert "uncommitted edits: /path/to/Demo/CLAUDE.md  [turn-" in text


def test_handoff_errors(tmp_path, monkeypatch):
    monkeypatch.delenv("CLAUDE_CODE_SESSION_ID", raising=False)
    Path(os.environ["CARTO_HOME"]).mkdir(parents=True, exist_ok=True)
    assert "no session id" in CliRunner().invoke(cli, ["handoff"]).output
    assert CliRunner().invoke(cli, ["handoff"]).exit_code == 2
    assert CliRunner().invoke(cli, ["handoff", "zzzz"]).exit_code == 3
    assert CliRunner().invoke(cli, ["handoff", "a", "--project", "b"]).exit_code == 2


_item = st.fixed_dictionaries({"text": st.text(max_size=300), "event_id": st.text(min_size=1, max_size=40)})


@settings(max_examples=60, deadline=None)
@given(sections=st.dictionaries(st.sampled_from(["decisions", "open_threads", "last_turns", "commits", "wrapups"]),
                                st.lists(_item, max_size=40)),
       files=st.lists(st.fixed_dictionaries({"path": st.text(max_size=200), "touches": st.integers(1, 9),
                                            "event_id": st.text(max_size=30)}), max_size=40),
       limit=st.integers(1000, 8000))
def test_the_bound_holds_and_cuts_only_tails(sections, files, limit):
    from carto_core.lenses.handoff import _size, bound

    document = {"kind": "session", "session_id": "s", "transcript_path": "/t", **sections, "files": files}
    out = bound(document, limit)
    empty = bound({**{k: [] for k in document if isinstance(document[k], list)},
                   **{k: v for k, v in document.items() if not isinstance(v, list)}}, limit)
    if _size(empty) <= limit:
        assert _size(out) <= limit
    for name, items in document.items():
        if isinstance(items, list):
            kept = out[name]
            assert kept == items[: len(kept)]  # a prefix: tails go first
            assert out["cut"].get(name, 0) == len(items) - len(kept)
