"""Fixtures of the team tier: PostgreSQL servers started and stopped by the tests themselves
(`pgserver.py`), on loopback, as an unprivileged user when the tests run as root.

- `pg_server` (session): one template and one fast node (fsync off) shared by the tier;
- `pg_db`: a fresh database on it for one test (dropped after it), and the roles the test made;
- `pg_cluster`: a primary and two quorum-synchronous standbys (fsync on) for one fault test.
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pgserver import SUPERUSER, Server  # noqa: E402

_counter = itertools.count(1)


@pytest.fixture(scope="session")
def pg_server():
    server = Server()
    try:
        server.main = server.node("main")
        yield server
    finally:
        server.close()


class Database:
    """One test's database on a node, and the login roles the test created (dropped after)."""

    def __init__(self, node, name: str):
        self.node = node
        self.name = name
        self.roles: list[str] = []

    def url(self, user: str = SUPERUSER, **params: str) -> str:
        return self.node.url(user, self.name, **params)

    def sql(self, statement: str, params=None):
        return self.node.sql(statement, params, dbname=self.name)

    def connect(self, user: str = SUPERUSER, **kwargs):
        return self.node.connect(self.name, user, **kwargs)

    def role(self, base: str) -> str:
        """A role name unique to this test (roles are shared by every database of a node)."""
        name = f"{base}_{self.name}"
        self.roles.append(name)
        return name

    def drop(self) -> None:
        self.node.sql(f'drop database if exists "{self.name}" with (force)')
        for role in self.roles:
            self.node.sql(f'drop role if exists "{role}"')


@pytest.fixture
def pg_db(pg_server):
    name = f"t{next(_counter)}"
    pg_server.main.sql(f'create database "{name}"')
    database = Database(pg_server.main, name)
    try:
        yield database
    finally:
        database.drop()


@pytest.fixture
def pg_cluster(pg_server):
    cluster = pg_server.cluster(f"k{next(_counter)}")
    try:
        yield cluster
    finally:
        for node in [*cluster.nodes, *getattr(cluster, "dead", [])]:
            node.stop("immediate")
