"""The transcript resolver: recorded path, then archive basename, then a session-id hunt."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from carto_core.transcript.resolver import (
    HOW_ARCHIVE, HOW_HUNT, HOW_MISSING, HOW_RECORDED, TranscriptRoots, codex_rollouts,
    find_session, guess_provider, resolve_transcript, session_id_from_path,
)

# The Codex samples (provenance in that folder's SOURCES.md).
CODEX = Path(__file__).parents[1] / "plugins" / "codex" / "tests" / "fixtures" / "claude-code-log"
ARCHIVED_SID = "55555555-5555-4555-8555-555555555555"
LIVE = "rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl"


@pytest.fixture
def codex_home(tmp_path) -> Path:
    home = tmp_path / "codex-home"
    shutil.copytree(CODEX, home)
    return home


def roots_for(codex_home: Path | None = None, claude: Path | None = None) -> TranscriptRoots:
    return TranscriptRoots(claude=(claude,) if claude else (), codex=(codex_home,) if codex_home else ())


def test_recorded_path_that_exists_is_returned_as_is(codex_home):
    path = codex_home / "sessions" / "2026" / "01" / "02" / LIVE
    found = resolve_transcript(str(path), roots=roots_for())
    assert (found.path, found.how) == (path, HOW_RECORDED)


def test_archived_rollout_found_from_stale_recorded_path_by_basename(codex_home):
    live = codex_home / "sessions" / "2026" / "01" / "02" / LIVE
    archived = codex_home / "archived_sessions" / LIVE
    live.rename(archived)  # what `codex archive` does
    found = resolve_transcript(str(live), roots=roots_for())  # no roots: the recording's own home
    assert (found.path, found.how) == (archived, HOW_ARCHIVE)


def test_unarchived_rollout_found_back_under_its_date_folders(codex_home):
    live = codex_home / "sessions" / "2026" / "01" / "02" / LIVE
    recorded = codex_home / "archived_sessions" / LIVE  # recorded while archived, then unarchived
    found = resolve_transcript(str(recorded), roots=roots_for())
    assert (found.path, found.how) == (live, HOW_ARCHIVE)


def test_archived_fixture_found_from_stale_path_by_session_id_hunt(codex_home, tmp_path):
    # The recording names a date folder in another (gone) home; the archive keeps only the id.
    stale = tmp_path / "gone" / ".codex" / "sessions" / "2024" / "01" / "01" / (
        f"rollout-2024-01-01T00-00-00-{ARCHIVED_SID}.jsonl")
    found = resolve_transcript(str(stale), roots=roots_for(codex_home))
    assert found.how == HOW_HUNT
    assert found.path == codex_home / "archived_sessions" / f"rollout-{ARCHIVED_SID}.jsonl"


def test_hunt_by_explicit_session_id_when_path_was_never_recorded(codex_home):
    found = resolve_transcript(None, "11111111-1111-4111-8111-111111111111", roots=roots_for(codex_home))
    assert found.how == HOW_HUNT and found.path.name == LIVE


def test_claude_session_hunt_covers_all_three_layouts(tmp_path):
    projects = tmp_path / "projects"
    main = projects / "-work-app" / "aaaaaaaa-0000-4000-8000-000000000001.jsonl"
    sibling = projects / "-work-app" / "agent-bbbbbbbb-0000-4000-8000-000000000002.jsonl"
    nested = projects / "-work-app" / "aaaaaaaa-0000-4000-8000-000000000001" / "subagents" / (
        "agent-cccccccc-0000-4000-8000-000000000003.jsonl")
    for path in (main, sibling, nested):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("{}\n")
    roots = roots_for(claude=projects)
    for path in (main, sibling, nested):
        sid = path.stem.removeprefix("agent-")
        stale = f"/old/.claude/projects/-elsewhere/{path.name}"
        found = resolve_transcript(stale, sid, roots=roots)
        assert (found.path, found.how) == (path, HOW_HUNT)


def test_provider_narrows_the_hunt(codex_home, tmp_path):
    sid = "11111111-1111-4111-8111-111111111111"
    roots = roots_for(codex_home, claude=tmp_path / "none")
    assert find_session(sid, provider="claude", roots=roots) is None
    assert find_session(sid, provider="codex", roots=roots).name == LIVE


def test_missing_everywhere_is_reported_not_guessed(codex_home):
    found = resolve_transcript("/nowhere/rollout-2026-01-01T00-00-00-99999999-9999-4999-8999-999999999999.jsonl",
                               roots=roots_for(codex_home))
    assert (found.path, found.how, found.found) == (None, HOW_MISSING, False)


def test_a_path_like_session_id_never_escapes_the_roots(codex_home):
    assert find_session("../../etc/passwd", roots=roots_for(codex_home)) is None


def test_default_roots_follow_codex_home_and_claude_config_dir(monkeypatch, tmp_path):
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "cx"))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cl"))
    roots = TranscriptRoots.default()
    assert roots.codex == (tmp_path / "cx",)
    assert roots.claude == (tmp_path / "cl" / "projects",)


def test_config_file_roots_win_over_agent_defaults(monkeypatch, tmp_path, codex_home):
    config = tmp_path / "config.toml"
    config.write_text(f'[transcripts]\ncodex = ["{codex_home}"]\nclaude = ["{tmp_path / "p"}"]\n')
    monkeypatch.setenv("CARTO_CONFIG", str(config))
    roots = TranscriptRoots.default()
    assert roots.codex == (codex_home,) and roots.claude == (tmp_path / "p",)
    assert resolve_transcript(None, ARCHIVED_SID).path.parent.name == "archived_sessions"


def test_rollout_listing_is_live_first_and_counts_every_file(codex_home):
    listed = list(codex_rollouts([codex_home]))
    on_disk = sorted(codex_home.rglob("rollout-*.jsonl"))
    assert sorted(listed) == on_disk
    assert listed[-1].parent.name == "archived_sessions"


@pytest.mark.parametrize("name,sid", [
    (LIVE, "11111111-1111-4111-8111-111111111111"),
    (f"rollout-{ARCHIVED_SID}.jsonl", ARCHIVED_SID),
    ("1AF7FC5E-8455-4414-9ccd-011d40f70b2a.jsonl", "1af7fc5e-8455-4414-9ccd-011d40f70b2a"),
    ("notes.jsonl", None),
])
def test_session_id_from_file_name(name, sid):
    assert session_id_from_path(f"/x/{name}") == sid


def test_guess_provider():
    assert guess_provider("/h/.codex/sessions/x.jsonl") == "codex"
    assert guess_provider("/h/.claude/projects/p/x.jsonl") == "claude"
    assert guess_provider("/elsewhere/x.jsonl") is None
