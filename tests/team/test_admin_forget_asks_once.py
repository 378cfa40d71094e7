"""`carto team admin forget` after a restore undid an earlier forget made from the same machine:
the check of what the restore undid (`forget.undone`) is made once, and the server's identity
(`connect.server_identity`, the key the forgets are remembered under) asked once, where the
question, the forgets made again and the new forget's record each made their own."""

from __future__ import annotations

import json

from test_restored_admin_forget import undone, world  # noqa: F401 - fixtures

from carto_core.team import connect, forget


def _counting(monkeypatch, module, name: str) -> list[int]:
    calls: list[int] = []
    real = getattr(module, name)

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


def test_an_admin_forget_checks_the_restore_once_and_asks_the_servers_identity_once(undone, monkeypatch):  # noqa: F811
    db, bob, admin, env = undone["db"], undone["bob"], undone["admin"], undone["env"]
    [records] = json.loads((admin.home.root / ".carto/team/forgets.json").read_text())["servers"].values()
    identities = _counting(monkeypatch, connect, "server_identity")
    checks = _counting(monkeypatch, forget, "undone")
    done = admin.cli("team", "admin", "forget", bob, "--project", "github.com/acme/blog", "--yes", env=env)
    assert done.stdout == f"removed 6 rows of {bob} of project github.com/acme/blog from team acme\n"
    assert done.stderr.splitlines() == [
        f"note: the team server no longer held the forget of user {bob} and project github.com/acme/shop "
        f"made here at {records[0]['at']} (restored to an earlier point?): forgotten again, 6 rows removed"]
    assert (len(checks), len(identities)) == (1, 1)
    assert db.sql("select count(*) from carto.events") == [(0,)]
    assert db.sql("select removed, detail->>'project' from carto.audit where action = 'forget' order by id") == [
        (6, "github.com/acme/shop"), (6, "github.com/acme/blog")]
    # both remembered under the one key: the shop forget made again, the blog one new
    [kept] = json.loads((admin.home.root / ".carto/team/forgets.json").read_text())["servers"].values()
    assert [r["project"] for r in kept] == ["github.com/acme/shop", "github.com/acme/blog"]
