"""Faults on a 3-node loopback cluster (a primary and two quorum-synchronous standbys, fsync on):
the primary killed mid-push and a standby promoted, the server stopped and started again,
duplicate and out-of-order pushes, a revised turn, a machine replaying another's ids. Every
batch a push saw committed is on the server afterwards (0 acknowledged rows lost), each event
once (0 duplicates), and every failure is in the push's report."""

from __future__ import annotations

import threading
import time

import pytest

from teamkit import Machine, activity, make_repo, make_team

pytestmark = pytest.mark.slow


class ClusterDb:
    """The cluster's database as `teamkit.make_team` wants it (roles are the cluster's own)."""

    def __init__(self, cluster, name: str = "team"):
        self.cluster = cluster
        self.name = name
        cluster.primary.sql(f'create database "{name}"')

    def connect(self, user: str = "postgres", **kwargs):
        return self.cluster.primary.connect(self.name, user, **kwargs)

    def role(self, base: str) -> str:
        return base

    def url(self, user: str = "postgres", **params) -> str:
        return self.cluster.url(user, self.name, **params)

    def sql(self, statement: str, params=None, node=None):
        return (node or self.cluster.primary).sql(statement, params, dbname=self.name)


class Recorder:
    """Every batch a push saw committed (its ids), wrapped around `Sender._send_once`."""

    def __init__(self, monkeypatch):
        from carto_core.team import push as push_module

        self.acked: list[set[str]] = []
        self.lock = threading.Lock()
        original = push_module.Sender._send_once
        recorder = self

        def send_once(sender, rows, detail):
            result = original(sender, rows, detail)
            with recorder.lock:
                recorder.acked.append({row[0] for row in rows})
            return result

        monkeypatch.setattr(push_module.Sender, "_send_once", send_once)

    def ids(self) -> set[str]:
        with self.lock:
            return set().union(*self.acked) if self.acked else set()

    def batches(self) -> int:
        with self.lock:
            return len(self.acked)


def _home(tmp_path, sessions: int, name: str = "a"):
    shop = make_repo(tmp_path / name / "shop", "git@github.com:acme/shop.git")
    machine = Machine(tmp_path / name, f"{name}-box")
    expected = set()
    for n in range(sessions):
        rows = activity(f"s{name}{n:04d}", shop, start=10_000 - n, turns=3)
        machine.write_all(rows)
        expected |= {row["event_id"] for items in rows.values() for row in items}
    return machine, shop, expected


def _held(db, node=None) -> tuple[int, int, set[str]]:
    rows = db.sql("select event_id from carto.events where team = 'acme'", node=node)
    ids = [r[0] for r in rows]
    return len(ids), len(set(ids)), set(ids)


def _push_in_thread(machine, **options):
    from carto_core.team.push import push
    from carto_core.team.settings import load

    out = {}

    def run():
        out["report"] = push(machine.home, load(machine.home), **options)

    thread = threading.Thread(target=run)
    thread.start()
    return thread, out


def _wait(predicate, timeout: float = 60.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError(what or "condition not reached")
        time.sleep(0.02)


@pytest.fixture
def world(tmp_path, pg_cluster, monkeypatch):
    db = ClusterDb(pg_cluster)
    members = make_team(db, members=("alice", "bob"))
    return {"db": db, "cluster": pg_cluster, "members": members, "tmp": tmp_path,
            "recorder": Recorder(monkeypatch)}


def test_the_primary_killed_mid_push_loses_no_acknowledged_row(world):
    db, cluster, recorder = world["db"], world["cluster"], world["recorder"]
    machine, shop, expected = _home(world["tmp"], 300)
    machine.join(world["members"]["alice"][1], "acme", shop)
    thread, out = _push_in_thread(machine, batch_rows=40, retry_seconds=60)
    _wait(lambda: recorder.batches() >= 5, what="five batches committed")
    acked_before = recorder.ids()
    new_primary = cluster.failover()
    # Every batch the push saw committed before the kill is on the promoted standby.
    count, distinct, held = _held(db, node=new_primary)
    assert acked_before <= held, f"{len(acked_before - held)} acknowledged rows lost"
    assert count == distinct
    thread.join(120)
    report = out["report"]
    assert report.state == "ok", report.reason
    assert report.retries >= 1 and any("retrying" in p for p in report.problems)
    count, distinct, held = _held(db)
    assert held == expected and count == distinct == len(expected)
    assert recorder.ids() <= held
    # The standby that followed the new primary has it all too.
    cluster.wait_replayed()
    assert _held(db, node=cluster.standbys[0])[2] == expected
    # Nothing left to send; the re-sent batch around the kill changed nothing.
    again = machine.json("team", "push")
    assert (again["sent"], again["inserted"]) == (0, 0)


def test_a_server_stopped_and_started_again_mid_push(world):
    db, cluster, recorder = world["db"], world["cluster"], world["recorder"]
    machine, shop, expected = _home(world["tmp"], 200)
    machine.join(world["members"]["alice"][1], "acme", shop)
    thread, out = _push_in_thread(machine, batch_rows=40, retry_seconds=60)
    _wait(lambda: recorder.batches() >= 3, what="three batches committed")
    primary = cluster.primary
    primary.stop("immediate")  # a crash: no checkpoint, recovery replays the WAL
    acked_before = recorder.ids()
    time.sleep(1.5)
    primary.start()
    thread.join(120)
    report = out["report"]
    assert report.state == "ok", report.reason
    assert report.retries >= 1
    count, distinct, held = _held(db)
    assert acked_before <= held and held == expected and count == distinct


def test_a_server_down_longer_than_the_retries_stops_the_push_and_the_next_one_catches_up(world):
    db, cluster, recorder = world["db"], world["cluster"], world["recorder"]
    machine, shop, expected = _home(world["tmp"], 150)
    machine.join(world["members"]["alice"][1], "acme", shop)
    thread, out = _push_in_thread(machine, batch_rows=40, retry_seconds=2)
    _wait(lambda: recorder.batches() >= 2, what="two batches committed")
    for node in cluster.nodes:
        node.stop("immediate")
    thread.join(120)
    report = out["report"]
    assert report.state == "unreachable" and "unreachable" in report.reason
    acked = recorder.ids()
    assert acked and report.problems
    for node in [cluster.primary, *cluster.standbys]:
        node.start()
    cluster.wait_streaming(cluster.primary, 2)
    count, distinct, held = _held(db)
    assert acked <= held and count == distinct
    resumed = machine.json("team", "push")
    assert resumed["state"] == "ok"
    count, distinct, held = _held(db)
    assert held == expected and count == distinct == len(expected)


def test_duplicate_and_out_of_order_pushes_revisions_and_replayed_ids_on_the_cluster(world):
    """Two pushes of one home at once (one runs, the other says so), the same rows pushed again,
    a changelog copy arriving before its tool-use row, a turn revised, then replayed in its old
    state, and another machine replaying the first's ids."""
    import json
    import shutil

    from teamkit import stamp

    db, tmp = world["db"], world["tmp"]
    machine, shop, expected = _home(tmp, 40)
    machine.join(world["members"]["alice"][1], "acme", shop)
    first, out = _push_in_thread(machine, batch_rows=20)
    second = machine.cli("team", "push", "--json", check=False)
    first.join(60)
    reports = [out["report"].to_dict(), json.loads(second.stdout)]
    assert {r["state"] for r in reports} <= {"ok", "busy"} and "ok" in {r["state"] for r in reports}
    machine.json("team", "push")
    again = machine.json("team", "push", "--from-start")
    assert again["inserted"] == again["updated"] == 0 and again["unchanged"] == again["sent"] > 0
    count, distinct, held = _held(db)
    assert held == expected and count == distinct

    # Out of order: the changelog's copy of a tool call pushed before the tool-use row.
    late = tmp / "late"
    other = Machine(late, "a-box")  # the same machine, its tool-use log written late
    shutil.copytree(machine.home.root, other.home.root, dirs_exist_ok=True)
    common = {"event_id": "evt-late", "timestamp": stamp(5), "type": "tool_bash", "provider": "claude",
              "summary": "Ran: make late", "project": "shop", "cwd": str(shop)}
    other.write("changelog", [{**common, "session_id": "s-late", "related_ids": []}])
    assert other.json("team", "push")["inserted"] == 1
    other.write("tool-use", [{**common, "tool": "Bash", "session": "s-late"}])
    assert other.json("team", "push")["updated"] == 1
    log, logs = db.sql("select log, logs from carto.events where event_id = 'evt-late'")[0]
    assert (log, logs) == ("tool-use", ["tool-use", "changelog"])

    # A revised turn, then the old state of the machine pushing the older revision again.
    turn = {"event_id": "turn-rev-0", "project": "shop", "type": "transcript", "provider": "claude",
            "transcript_path": "/t/rev.jsonl", "session": "s-rev", "turn_idx": 0}
    other.write("turns", [{**turn, "timestamp": stamp(4), "summary": "first draft", "open": True}])
    other.json("team", "push")
    before = tmp / "before"
    shutil.copytree(other.home.root, before / "home")
    other.write("turns", [{**turn, "timestamp": stamp(3), "summary": "first draft, then the final answer"}])
    assert other.json("team", "push")["updated"] == 1
    assert Machine(before, "a-box").json("team", "push", "--from-start")["updated"] == 0
    assert db.sql("select summary from carto.events where event_id = 'turn-rev-0'")[0][0].endswith("final answer")

    # Bob's machine replays alice's ids: refused, reported, nothing changed.
    snapshot = db.sql("select event_id, machine, author, summary from carto.events order by event_id")
    bob = Machine(tmp / "b", "b-box")
    shutil.copytree(machine.home.root, bob.home.root, dirs_exist_ok=True)
    shutil.rmtree(bob.home.state / "team")  # alice's settings and positions stay hers
    bob.join(world["members"]["bob"][1], "acme", shop)
    result = bob.cli("team", "push", "--json", check=False)
    replay = json.loads(result.stdout)
    assert result.exit_code == 4 and replay["state"] == "refused"
    assert replay["refused"] == replay["sent"] > 0 and replay["inserted"] == 0
    assert db.sql("select event_id, machine, author, summary from carto.events order by event_id") == snapshot
