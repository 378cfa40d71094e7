"""Prompt recall marks a recalled wrapup whose cited file changed since (a real git repository,
the real `carto hook` process) and shows the up-to-date one first."""

from __future__ import annotations

import json
import os
import subprocess
from datetime import timedelta

from .conftest import NOW, build_index, context_of, prompt_payload, run_hook, write_home


def _git(repo, *args, when=None):
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@x", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    if when is not None:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = when.strftime("%Y-%m-%dT%H:%M:%S+0000")
    return subprocess.run(["git", "-C", str(repo), *args], env=env, check=True, capture_output=True,
                          text=True).stdout.strip()


def _commit(repo, name, text, message, when):
    (repo / name).write_text(text)
    _git(repo, "add", name)
    _git(repo, "commit", "-qm", message, when=when)
    return _git(repo, "rev-parse", "HEAD")


def test_a_recalled_wrapup_whose_cited_file_changed_says_so_and_goes_below(tmp_path):
    repo = tmp_path / "webshop"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    first = _commit(repo, "invoice.py", "a\n", "feat: invoice", NOW - timedelta(days=10))
    _commit(repo, "loyalty.py", "a\n", "feat: loyalty", NOW - timedelta(days=10))
    home = tmp_path / "home"
    write_home(home)

    def wrapup(n, days, decision, files):
        return {"event_id": f"evt-wrapstale{n}", "timestamp": (NOW - timedelta(days=days)).strftime("%Y-%m-%dT%H:%M:%SZ"),
                "milestone": "session_wrapup", "provider": "claude", "session_id": f"wrap-{n}",
                "project": "webshop", "cwd": str(repo), "description": decision, "decisions": [decision],
                "unresolved": [], "key_insight": "", "cites": {"repo": str(repo), "commits": {}, "files": files}}

    with open(home / "session-milestones.jsonl", "w", encoding="utf-8") as handle:
        for row in (wrapup(1, 9, "loyalty discounts reduce invoice totals before sales tax, says finance", ["invoice.py"]),
                    wrapup(2, 9.5, "loyalty discounts reduce invoice totals before sales tax, says audit", ["loyalty.py"])):
            handle.write(json.dumps(row) + "\n")
    later = _commit(repo, "invoice.py", "b\n", "fix: invoice after tax", NOW - timedelta(days=6))
    build_index(home)
    prompt = "do loyalty discounts reduce invoice totals before sales tax?"
    # asked in the repository the wrapups were recorded in (another folder named webshop is
    # another project to recall)
    context = context_of(run_hook(home, "claude", prompt_payload("new-session", prompt, cwd=str(repo))))
    assert context is not None, "the wrapups should be recalled"
    snippets = [line for line in context.splitlines() if line.startswith("- [")]
    ids = [line[3:line.index(" · ")] for line in snippets]
    assert ids[:2] == ["evt-wrapstale2", "evt-wrapstale1"], context  # the up-to-date one first
    stale = next(line for line in snippets if "evt-wrapstale1" in line)
    assert f"(stale: invoice.py changed in {later[:7]}, 3 days after this)" in stale
    assert "(stale:" not in snippets[0] and first  # the up-to-date one is not marked


def test_a_superseded_decision_is_not_recalled_and_its_successor_is(tmp_path):
    from carto_core.lenses.decisions import change
    from carto_core.logio.home import Home
    from carto_core.model import decisions

    home = tmp_path / "home"
    write_home(home)

    def wrapup(n, days, decision):
        return {"event_id": f"evt-wrapdecide{n}", "timestamp": (NOW - timedelta(days=days)).strftime("%Y-%m-%dT%H:%M:%SZ"),
                "milestone": "session_wrapup", "provider": "claude", "session_id": f"wrap-{n}",
                "project": "webshop", "cwd": "/src/webshop", "description": decision, "decisions": [decision],
                "unresolved": [], "key_insight": ""}

    old = "gift cards are refunded to the original card within seven days, says finance"
    new = "gift cards are refunded as store credit within seven days (reverses the card refund rule)"
    with open(home / "session-milestones.jsonl", "w", encoding="utf-8") as handle:
        for row in (wrapup(1, 20, old), wrapup(2, 3, new)):
            handle.write(json.dumps(row) + "\n")
    prompt = "are gift cards refunded to the original card within seven days?"
    build_index(home)
    before = context_of(run_hook(home, "claude", prompt_payload("session-a", prompt)))
    assert before is not None and "evt-wrapdecide1" in before  # both are current: both may come
    change(Home(home), decisions.record_id("decision", "webshop", old), "superseded",
           by=decisions.record_id("decision", "webshop", new))
    build_index(home)
    after = context_of(run_hook(home, "claude", prompt_payload("session-b", prompt)))
    # the successor comes (its wrapup, or the update row, just written and not yet in the saved
    # index, that says what replaced the old rule); the superseded wrapup does not
    assert after is not None and "evt-wrapdecide1" not in after, after
    snippets = [line for line in after.splitlines() if line.startswith("- [")]
    assert any("evt-wrapdecide2" in line or f"-> {new}" in line for line in snippets), after
    assert all(f"-> {new}" in line for line in snippets if old in line), after
