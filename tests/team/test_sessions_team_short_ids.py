"""`carto sessions --team` in text prints each session's id as short as the home's own table
does: lengthened while another session starts the same way, the home's sessions the table
leaves out counted too, so that an id printed pastes into `carto session` and names that
session, or (a session of another machine) none of this home's."""

from __future__ import annotations

from teamkit import alice_and_bob, opened

#: Two sessions whose ids share their first 12 characters (and their 13th).
LOCAL, TEAM = "5a1e0000aaaa-local-one", "5a1e0000aaaa-team-one"


def _ids(machine, *flags) -> list[str]:
    text = machine.cli("sessions", "--team", *flags).stdout
    return [line.split()[0] for line in text.splitlines()[1:] if not line.startswith(("team:", "("))]


def test_a_team_session_sharing_a_local_ones_prefix_prints_an_id_of_its_own(tmp_path, pg_db):
    alice, bob = alice_and_bob(tmp_path, pg_db, {"sid": LOCAL, "start": 90},
                               {"sid": TEAM, "start": 40, "provider": "codex"})
    # both listed: each id as long as it takes to tell them apart
    assert _ids(alice) == [TEAM[:16], LOCAL[:16]]
    # the local session left out by --provider: the team's id still is not the start of it,
    # so `carto session` here finds nothing rather than the local session
    assert _ids(alice, "--provider", "codex") == [TEAM[:16]]
    # the team's session left out: no session of this home starts as the local one does
    assert _ids(alice, "--provider", "claude") == [LOCAL[:8]]
    assert opened(alice, LOCAL[:16]) == opened(alice, LOCAL[:8]) == (0, LOCAL)
    assert opened(alice, TEAM[:16]) == (3, None)
    assert opened(alice, TEAM[:8]) == (0, LOCAL)  # what an id of 8 would have named here
    assert opened(bob, TEAM[:16]) == (0, TEAM)
