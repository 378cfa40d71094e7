"""Commit attribution: the session that made a commit, or "not recorded, backfilled from git"."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from carto_core.logio.appendlog import append_rows
from carto_core.lenses.attribution import BACKFILLED, RECORDED, UNATTRIBUTED, attribute, attribute_commit
from carto_core.model.corpus import load_corpus
from carto_core.logio.home import Home
from carto_core.logio.logs import order_row
from carto_core.transcript.resolver import TranscriptRoots

CODEX = Path(__file__).parents[1] / "plugins" / "codex" / "tests" / "fixtures" / "claude-code-log"
LIVE = "rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl"
SID = "11111111-1111-4111-8111-111111111111"

HOOKED = "9f2c4e1a7b3d5f6081726354a5b6c7d8e9f0a1b2"
BACKFILLED_SHA = "0a1b2c3d4e5f60718293a4b5c6d7e8f901234567"
OLD = "1234567890abcdef1234567890abcdef12345678"


def build(tmp_path) -> tuple[Home, TranscriptRoots, Path]:
    codex = tmp_path / "codex"
    shutil.copytree(CODEX, codex)
    recorded = codex / "sessions" / "2026" / "01" / "02" / LIVE
    home = Home(os.environ["CARTO_HOME"])
    hook = {"event_id": "evt-aaaaaaaaaaaa", "timestamp": "2026-03-02T10:00:05Z", "type": "git_commit",
            "provider": "codex", "project": "shop", "cwd": "/w/shop",
            "summary": f"[feature] Commit {HOOKED}: feat: discount codes | files: src/discounts.py",
            "transcript_path": str(recorded), "diff_shape": None, "salience": 0.7,
            "commit_type": "feature"}
    # The same event in the tool-use log (session spelt `session`) and its changelog copy.
    append_rows(home.log("tool-use"), [order_row("tool-use", {**hook, "tool": "Bash", "session": SID})])
    append_rows(home.log("changelog"), [
        order_row("changelog", {**hook, "session_id": SID, "related_ids": []}),
        order_row("changelog-git", {
            "event_id": f"git-{BACKFILLED_SHA[:7]}", "timestamp": "2026-03-03T09:00:00+00:00",
            "type": "git_commit", "project": "shop",
            "summary": f"Commit {BACKFILLED_SHA[:7]}: fix: discount rounding | files: src/discounts.py",
            "commit_hash": BACKFILLED_SHA, "author": "Alice", "files_changed": 1, "related_ids": []}),
        # An old hand-written commit row with an unresolved session.
        {"event_id": "evt-bbbbbbbbbbbb", "timestamp": "2026-01-01T00:00:00Z", "type": "git_commit",
         "session_id": "unknown", "summary": f"Commit {OLD}: chore: discount config"},
    ])
    return home, TranscriptRoots(codex=(codex,)), recorded


def test_a_hook_logged_commit_names_its_session_and_finds_the_archived_transcript(tmp_path):
    home, roots, recorded = build(tmp_path)
    archived = recorded.parent.parent.parent.parent.parent / "archived_sessions" / LIVE
    recorded.rename(archived)  # Codex archived the rollout after the commit was logged
    [found] = attribute_commit(HOOKED[:8], home=home, roots=roots)
    assert (found.status, found.session_id, found.provider) == (RECORDED, SID, "codex")
    assert found.commit == HOOKED and found.subject == "feat: discount codes"
    assert found.description == f"made in codex session {SID}"
    assert found.transcript == {"recorded": str(recorded), "path": str(archived), "how": "archive"}
    assert sorted(found.event_ids) == ["evt-aaaaaaaaaaaa", "evt-aaaaaaaaaaaa"]  # both copies, one commit
    assert found.sessions == [SID]


def test_a_backfilled_commit_is_not_recorded(tmp_path):
    home, roots, _ = build(tmp_path)
    for query in (BACKFILLED_SHA, BACKFILLED_SHA[:7], "DISCOUNT ROUNDING"):
        [found] = attribute_commit(query, home=home, roots=roots)
        assert (found.status, found.commit, found.author) == (BACKFILLED, BACKFILLED_SHA, "Alice")
        assert found.description == "not recorded, backfilled from git"
        assert found.session_id == "" and found.transcript is None
        assert found.as_dict()["session_id"] is None


def test_a_subject_fragment_lists_every_match_newest_first(tmp_path):
    home, roots, _ = build(tmp_path)
    found = attribute_commit("discount", home=home, roots=roots)
    assert [(a.commit, a.status) for a in found] == [
        (BACKFILLED_SHA, BACKFILLED), (HOOKED, RECORDED), (OLD, UNATTRIBUTED)]


def test_unknown_commit_and_blank_query_find_nothing(tmp_path):
    home, roots, _ = build(tmp_path)
    assert attribute_commit("ffffffff", home=home, roots=roots) == []
    assert attribute_commit("no such subject", home=home, roots=roots) == []
    assert attribute_commit("   ", home=home, roots=roots) == []


def test_a_loaded_corpus_gives_the_same_answer(tmp_path):
    home, roots, _ = build(tmp_path)
    corpus = load_corpus(home)
    from_corpus = attribute_commit("discount", events=corpus.events, roots=roots)
    from_logs = attribute_commit("discount", home=home, roots=roots)
    assert [(a.commit, a.status, a.session_id) for a in from_corpus] == \
        [(a.commit, a.status, a.session_id) for a in from_logs]


def test_attribute_gives_standup_one_dict_with_the_keys_it_renders(tmp_path):
    home, roots, _ = build(tmp_path)
    found = attribute(home, "discount", roots=roots)
    assert found["status"] == RECORDED  # a recorded commit wins over newer backfilled ones
    assert (found["sha"], found["session_id"], found["attribution"]) == (HOOKED, SID, "recorded")
    assert found["files"] == ["/w/shop/src/discounts.py"] and found["session_commits"] == 1
    assert found["event_id"] == "evt-aaaaaaaaaaaa" and found["age_ms"] > 0
    backfilled = attribute(home, BACKFILLED_SHA[:9], roots=roots)
    assert backfilled["attribution"] == "not recorded, backfilled from git"
    assert attribute(home, "zzz-nothing", roots=roots) is None
