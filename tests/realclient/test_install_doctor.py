"""install, uninstall and doctor against the genuine clients: doctor's verdicts match what the
client does (hooks that fire, Codex hooks it skips), and after uninstall the client runs no
carto handler while the user's own hooks (the taps) still fire."""

from __future__ import annotations

import pytest

from .scripts import CLAUDE_MAIN, CODEX_MAIN


def hook_problems(document):
    return [p for p in document["problems"] if "hook" in p["problem"]]


def test_doctor_says_the_claude_hooks_fire_and_they_did(claude_session):
    run = claude_session(CLAUDE_MAIN)
    assert run.carto_hooks_run(), run.diagnosis()
    document = run.carto_json("doctor")
    probes = [p for p in document["hooks"]["probes"] if p["provider"] == "claude"]
    assert probes and all(p["fires"] for p in probes), probes
    ran = {event for event, status in run.carto_hooks_run() if status == 0}
    assert ran <= {p["event"] for p in probes}
    assert hook_problems(document) == [], document["problems"]


def test_doctor_names_the_untrusted_codex_hooks_the_client_skipped(codex_session):
    run = codex_session(bypass_trust=False)
    assert run.events_fired() == {} and run.rows("changelog") == [], run.diagnosis()
    document = run.carto_json("doctor")
    [untrusted] = [p for p in document["problems"] if "never trusted" in p["problem"]]
    assert "carto install codex --trust" in untrusted["fix"]
    # The commands themselves fire: the client skipping them is the whole problem.
    probes = [p for p in document["hooks"]["probes"] if p["provider"] == "codex"]
    assert probes and all(p["fires"] for p in probes), probes


def test_doctor_is_clean_once_codex_trusts_cartos_hooks(codex_session):
    run = codex_session(install_args=("--trust",), bypass_trust=False)
    document = run.carto_json("doctor")
    assert hook_problems(document) == [], document["problems"]
    assert run.rows("changelog"), run.diagnosis()


@pytest.mark.parametrize("client", ["claude", "codex"])
def test_after_uninstall_the_client_runs_no_carto_hook_and_the_users_hooks_still_fire(
        request, client):
    def uninstall(run):
        done = run.carto("uninstall", client)
        assert done.returncode == 0, done.stdout + done.stderr
        document = run.carto_json("doctor", "--no-probe")
        assert any(p["problem"].startswith("no hooks installed") for p in document["problems"])

    session = request.getfixturevalue(f"{client}_session")
    run = session(CLAUDE_MAIN if client == "claude" else CODEX_MAIN, setup=uninstall)
    assert run.rc == 0, run.diagnosis()
    assert run.events_fired()["PostToolUse"] >= 2, run.diagnosis()   # the taps: the user's hooks
    assert run.rows("changelog") == [] and run.rows("tool-use") == [], run.diagnosis()
    if client == "claude":
        assert run.carto_hooks_run() == {}, run.diagnosis()
