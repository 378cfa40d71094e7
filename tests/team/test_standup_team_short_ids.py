"""`carto standup --team` prints each session's id as `carto sessions` does: lengthened while
another session of the home starts the same way, the home's sessions the window leaves out
counted too, so that an id printed pastes into `carto session` and names that session, or (a
session of another machine) none of this home's."""

from __future__ import annotations

from teamkit import alice_and_bob, opened

#: Two sessions whose ids share their first 12 characters (and their 13th).
LOCAL, TEAM = "5a1e0000aaaa-local-one", "5a1e0000aaaa-team-one"


def _ids(machine, *flags) -> list[str]:
    """The id each session line of the standup's text starts with (after its ● or ○)."""
    text = machine.cli("standup", "--team", "--no-git", *flags, check=False).stdout
    return [line.split()[1] for line in text.splitlines() if line.startswith(("●", "○"))]


def test_a_team_session_sharing_a_local_ones_prefix_prints_an_id_of_its_own(tmp_path, pg_db):
    # alice's session ended about 15 hours ago: out of a 6h window, in a day's
    alice, bob = alice_and_bob(tmp_path, pg_db, {"sid": LOCAL, "start": 900},
                               {"sid": TEAM, "start": 40, "provider": "codex"})
    # both in the window: each id as long as it takes to tell them apart
    assert _ids(alice, "--since", "1d") == [TEAM[:16], LOCAL[:16]]
    # the local session out of the window: the team's id still is not the start of it, so
    # `carto session` here finds nothing rather than the local session
    assert _ids(alice) == [TEAM[:16]]
    assert alice.json("standup", "--team", "--no-git")["sessions"][0]["short"] == TEAM[:16]
    assert opened(alice, TEAM[:16]) == (3, None)
    assert opened(alice, TEAM[:8]) == (0, LOCAL)  # what an id of 8 would have named here
    assert opened(bob, TEAM[:16]) == (0, TEAM)
    # bob's home holds no session starting as the team's: his own standup prints 8
    assert _ids(bob) == [TEAM[:8]]
