"""Codex trust against the genuine client: the hashes carto computes are the ones Codex computes,
an untrusted install records nothing under `codex exec`, `carto install codex --trust` makes
exactly carto's handlers fire, and `carto uninstall codex` leaves the user's own trusted hooks
trusted (moved to their new keys)."""

from __future__ import annotations

import json

import pytest

from carto_codex import trust
from carto_core.install.hooksfile import load_settings

from .appserver import hooks_list


def hooks_file(run):
    return run.home / ".codex" / "hooks.json"


def test_every_hash_carto_computes_is_the_clients(codex_session, codex_bin):
    run = codex_session()
    settings = load_settings(hooks_file(run))
    listed = {e["key"]: e for e in hooks_list(codex_bin, run.home, run.repo)}
    ours = {}
    for event, groups in settings["hooks"].items():
        for g, group in enumerate(groups):
            for i, handler in enumerate(group["hooks"]):
                ours[trust.hook_key(hooks_file(run), event, g, i)] = trust.handler_hash(event, group.get("matcher"), handler)
    assert set(ours) == set(listed), (sorted(set(ours) ^ set(listed)))
    assert {k: v for k, v in ours.items() if listed[k]["currentHash"] != v} == {}
    entries = trust.review(hooks_file(run), settings, {})
    assert entries and {listed[e["key"]]["trustStatus"] for e in entries} == {"untrusted"}


@pytest.fixture(scope="module")
def untrusted(codex_session):
    return codex_session(bypass_trust=False)


def test_an_untrusted_install_records_nothing_headless(untrusted):
    run = untrusted
    assert run.rc == 0, run.diagnosis()
    assert run.events_fired() == {}, run.diagnosis()           # no hook at all ran
    assert run.rows("changelog") == [] and run.rows("tool-use") == []
    assert "codex exec" in run.install_output and "--trust" in run.install_output


@pytest.fixture(scope="module")
def trusted(codex_session):
    return codex_session(install_args=("--trust",), bypass_trust=False)


def test_install_trust_makes_exactly_cartos_handlers_fire(trusted, codex_bin):
    run = trusted
    why = run.diagnosis()
    sid = json.loads(run.transcript.read_text().splitlines()[0])["payload"]["id"]
    types = {r["type"] for r in run.rows("changelog") if r.get("session_id") == sid}
    assert {"git_commit", "tool_file_edit"} <= types, (types, why)
    assert run.events_fired() == {}, why                         # the taps stay untrusted
    statuses = {e["key"]: e["trustStatus"] for e in hooks_list(codex_bin, run.home, run.repo)}
    entries = trust.review(hooks_file(run), load_settings(hooks_file(run)), {})
    carto_keys = {e["key"] for e in entries}
    assert {statuses[k] for k in carto_keys} == {"trusted"}
    assert {s for k, s in statuses.items() if k not in carto_keys} == {"untrusted"}


def test_uninstall_keeps_the_users_trusted_hooks_trusted(trusted, codex_bin, tmp_path):
    run = trusted.clone(tmp_path / "clone")
    # The clone lives elsewhere: carto's trust keys name the original path. Re-key by
    # reinstalling trust in the clone, then the user trusts their own (tap) hooks via the
    # client's own review.
    assert run.carto("install", "codex", "--trust").returncode == 0
    listed = hooks_list(codex_bin, run.home, run.repo)
    carto_keys = {e["key"] for e in trust.review(hooks_file(run), load_settings(hooks_file(run)), {})}
    theirs = tuple(e["key"] for e in listed if e["key"] not in carto_keys)
    assert theirs
    listed = hooks_list(codex_bin, run.home, run.repo, trust_keys=theirs)
    assert {e["trustStatus"] for e in listed} == {"trusted"}

    done = run.carto("uninstall", "codex")
    assert done.returncode == 0, done.stdout + done.stderr
    after = hooks_list(codex_bin, run.home, run.repo)
    assert after and all("carto" not in (e.get("command") or "") for e in after)
    assert {e["trustStatus"] for e in after} == {"trusted"}, [(e["key"], e["trustStatus"]) for e in after]
    assert len(after) == len(theirs)
    state = trust.trust_states(trust.load_config(run.home / ".codex" / "config.toml")[1])
    here = {k for k in state if k.startswith(f"{hooks_file(run)}:")}
    assert here == {e["key"] for e in after}                      # no trust left for carto's keys
