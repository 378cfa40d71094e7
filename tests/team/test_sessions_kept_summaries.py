"""`carto sessions --team` lists the home's sessions from the summaries `carto sessions` keeps
(`lenses.sessionstore`), never loading the home's corpus (every event in memory: measured in
docs/performance.md), and lists what it listed from the loaded corpus: a home whose sessions are
pushed, not allowed, or newer than its last push, beside another machine's pushed sessions; the
server reachable or not."""

from __future__ import annotations

import json
import os
import re
import socket

import pytest

from teamkit import Machine, activity, make_repo, make_team

FLAGS = ([], ["--limit", "2"], ["--project", "shop"], ["--provider", "codex"], ["--since", "2d"],
         ["--project", "infra", "--limit", "1"])


@pytest.fixture
def homes(tmp_path, pg_db):
    members = make_team(pg_db)
    alice, bob = Machine(tmp_path / "a", "alice-box"), Machine(tmp_path / "b", "bob-box")
    a_shop = make_repo(tmp_path / "a" / "code" / "shop", "git@github.com:acme/shop.git")
    a_infra = make_repo(tmp_path / "a" / "code" / "infra", "https://github.com/acme/infra.git")
    b_shop = make_repo(tmp_path / "b" / "code" / "shop", "git@github.com:acme/shop.git")
    alice.write_all(activity("s-a1", a_shop, start=90, tag="zebra"))
    alice.write_all(activity("s-a2", a_infra, start=60 * 30, tag="quartz"))  # infra is not allowed
    bob.write_all(activity("s-b1", b_shop, start=40, provider="codex"))
    bob.write_all(activity("s-b2", b_shop, start=60 * 72, provider="codex"))
    alice.join(members["alice"][1], "acme", a_shop)
    bob.join(members["bob"][1], "acme", b_shop)
    assert alice.json("team", "push")["inserted"] == 6 and bob.json("team", "push")["inserted"] == 12
    alice.write_all(activity("s-a3", a_shop, start=10))  # after the push: here only
    return alice, members


def _listing(alice, flags, env=None) -> dict:
    return json.loads(alice.cli("sessions", "--team", "--json", *flags, env=env, check=False).stdout)


def test_the_team_listing_reads_the_kept_summaries_and_lists_what_the_loaded_corpus_listed(homes, monkeypatch):
    from carto_core.lenses import sessionstore
    from carto_core.lenses.livecorpus import LiveCorpus
    from carto_core.lenses.views import session_summaries_by_id

    alice, members = homes
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        dead = {"CARTO_TEAM_URL": f"postgresql://nobody@127.0.0.1:{sock.getsockname()[1]}/none"}
    cases = [(flags, env) for flags in FLAGS for env in (None, dead)]
    with monkeypatch.context() as before:
        # the home's sessions as the loaded corpus summarises them
        before.setattr(sessionstore, "cached_summaries", lambda home: session_summaries_by_id(LiveCorpus(home)))
        expected = [_listing(alice, flags, env) for flags, env in cases]

    def refuse(self):
        raise AssertionError("the corpus was loaded")

    monkeypatch.setattr(LiveCorpus, "_load", refuse)
    assert [_listing(alice, flags, env) for flags, env in cases] == expected
    alice_login, bob_login = members["alice"][0], members["bob"][0]
    everything = _listing(alice, [])
    assert [(s["session_id"], s["project"], s["provider"], s["machine"], s["author"])
            for s in everything["sessions"]] == [
        ("s-a3", "shop", "claude", "alice-box", alice_login), ("s-b1", "shop", "codex", "bob-box", bob_login),
        ("s-a1", "shop", "claude", "alice-box", alice_login), ("s-a2", "infra", "claude", "alice-box", alice_login),
        ("s-b2", "shop", "codex", "bob-box", bob_login)]
    assert (everything["total"], everything["index_generation"], everything["team"]["state"]) == (5, 1, "ok")
    alone = _listing(alice, [], dead)
    assert [s["session_id"] for s in alone["sessions"]] == ["s-a3", "s-a1", "s-a2"]
    assert (alone["total"], alone["team"]["state"]) == (3, "unreachable")


def _lines_and_turns_opens(alice, *flags, env=None):
    """`carto sessions --team FLAGS`' text as (id, author on machine, parent named) per line, and
    how many more times it opened the home's turns log than its `--json` form does (once the
    summaries are kept: the first run after new rows summarises their sessions)."""
    from tests.clikit import opened_paths

    turns = os.path.realpath(alice.home.log("turns"))
    alice.cli("sessions", "--team", "--json", *flags, env=env)
    with opened_paths() as opened:
        text = alice.cli("sessions", "--team", *flags, env=env).stdout
    with opened_paths() as json_opened:
        alice.cli("sessions", "--team", "--json", *flags, env=env)
    lines = [(line.split()[0], re.search(r"  (\S+ on \S+)", line)[1],
              line.split("  sub-agent of ")[1] if "  sub-agent of " in line else None)
             for line in text.splitlines()[1:] if not line.startswith(("team:", "("))]
    return lines, opened.count(turns) - json_opened.count(turns)


def test_the_team_text_listing_takes_the_home_threads_parents_from_the_kept_summaries(homes, tmp_path):
    """A Codex sub-agent thread of this home is listed under the session that spawned it with
    the link its kept summary holds: the turns log is opened no more than for --json. Before:
    the text form read the whole turns log for the links (docs/performance.md)."""
    alice, members = homes
    thread = activity("s-a4", tmp_path / "a" / "code" / "shop", start=5, provider="codex")
    thread["turns"] = [{**row, "parent_session": "s-a3"} for row in thread["turns"]]
    alice.write_all(thread)
    me, bob = f"{members['alice'][0]} on alice-box", f"{members['bob'][0]} on bob-box"
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        dead = {"CARTO_TEAM_URL": f"postgresql://nobody@127.0.0.1:{sock.getsockname()[1]}/none"}
    assert _lines_and_turns_opens(alice) == ([
        ("s-a3", me, None), ("s-a4", me, "s-a3"), ("s-b1", bob, None), ("s-a1", me, None),
        ("s-a2", me, None), ("s-b2", bob, None)], 0)
    # the parent left out by the limit: its thread still names it
    assert _lines_and_turns_opens(alice, "--provider", "codex", "--limit", "1") == ([("s-a4", me, "s-a3")], 0)
    # the team unreachable: the home's sessions (its author as the team's URL names it)
    here = "nobody on alice-box"
    assert _lines_and_turns_opens(alice, env=dead) == ([
        ("s-a3", here, None), ("s-a4", here, "s-a3"), ("s-a1", here, None), ("s-a2", here, None)], 0)
