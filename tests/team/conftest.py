"""Fixtures of the team tier: PostgreSQL servers started and stopped by the tests themselves
(`pgserver.py`), on loopback, as an unprivileged user when the tests run as root.

- `pg_server` (session): one template and one fast node (fsync off) shared by the tier;
- `pg_db`: a fresh database on it for one test (dropped after it), and the roles the test made;
- `pg_cluster`: a primary and two quorum-synchronous standbys (fsync on) for one fault test.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pgserver import Database, Server  # noqa: E402


@pytest.fixture(scope="session")
def pg_server():
    server = Server()
    try:
        server.main = server.node("main")
        yield server
    finally:
        server.close()


def _database(pg_server):
    database = Database.create(pg_server.main)
    try:
        yield database
    finally:
        database.drop()


@pytest.fixture
def pg_db(pg_server):
    yield from _database(pg_server)


@pytest.fixture
def other_db(pg_server):
    """A second database of the same server, beside `pg_db`."""
    yield from _database(pg_server)


@pytest.fixture
def pg_cluster(pg_server):
    cluster = pg_server.cluster(f"k{next(Database.counter)}")
    try:
        yield cluster
    finally:
        for node in [*cluster.nodes, *getattr(cluster, "dead", [])]:
            node.stop("immediate")
