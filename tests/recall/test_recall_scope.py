"""Prompt recall and the folder a project is: a row of a project in `[capture] exclude` is
never quoted into another project's session, and a row recorded in another folder of the same
last name ("api" of a client and the owner's own "api") is not the current project's."""

from __future__ import annotations

import json

from .conftest import NOW, build_index, context_of, prompt_payload, run_hook, write_home

QUESTION = "how did we fix the coupon stacking bug in checkout?"


def test_an_excluded_projects_rows_are_not_recalled_into_another_project(tmp_path):
    home = tmp_path / "home"
    write_home(home)
    build_index(home)
    config = tmp_path / "config.toml"
    config.write_text('[capture]\nexclude = ["webshop"]\n')
    shown = context_of(run_hook(home, "claude", prompt_payload("s-blog", QUESTION, cwd="/src/blog")))
    assert shown is not None and "webshop" in shown  # recalled while webshop is recorded
    done = run_hook(home, "claude", prompt_payload("s-blog2", QUESTION, cwd="/src/blog"),
                    env={"CARTO_CONFIG": str(config)})
    assert done.returncode == 0, done.stderr
    assert "webshop" not in (context_of(done) or "")


def test_a_row_of_another_folder_of_the_same_name_is_not_the_current_projects(tmp_path):
    home = tmp_path / "home"
    write_home(home)
    stamp = NOW.strftime("%Y-%m-%dT%H:%M:%SZ")
    rows = [
        # the client's "api": ranks first for the prompt (it holds every word of it)
        {"event_id": "evt-clientapi01", "timestamp": stamp, "type": "tool_file_edit", "provider": "claude",
         "summary": "Modified: src/quarantine.py - zebrafish cluster quarantine migration plan, zebrafish "
                    "quarantine migration for the cluster", "project": "api", "cwd": "/src/clientA/api",
         "session_id": "client-session", "salience": 0.4},
        {"event_id": "evt-mineapi0001", "timestamp": stamp, "type": "tool_file_edit", "provider": "claude",
         "summary": "Modified: src/plan.py - zebrafish quarantine notes", "project": "api",
         "cwd": "/src/me/api", "session_id": "my-session", "salience": 0.4},
    ]
    with open(home / "changelog.jsonl", "a", encoding="utf-8") as handle:
        handle.writelines(json.dumps(row) + "\n" for row in rows)
    build_index(home)
    done = run_hook(home, "claude", prompt_payload(
        "s-me", "what is the plan for the zebrafish cluster quarantine migration?", cwd="/src/me/api"))
    assert done.returncode == 0, done.stderr
    snippets = [line for line in (context_of(done) or "").splitlines() if line.startswith("- [")]
    assert snippets and "evt-mineapi0001" in snippets[0], snippets
