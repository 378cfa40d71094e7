"""The tier's servers themselves: a node runs as an unprivileged user on loopback with pgvector,
and the 3-node cluster replicates synchronously and fails over without losing a commit."""

from __future__ import annotations

import os
import pwd

import psycopg
import pytest

from pgserver import SERVER_USER, running_as_root


def test_a_node_runs_unprivileged_on_loopback_with_pgvector(pg_db):
    rows = pg_db.sql("select setting from pg_settings where name in "
                     "('listen_addresses', 'unix_socket_directories') order by name")
    assert [r[0] for r in rows] == ["127.0.0.1", ""]
    pid = pg_db.node.pid()
    owner = pwd.getpwuid(os.stat(f"/proc/{pid}").st_uid).pw_name
    if running_as_root():
        assert owner == SERVER_USER
    else:
        assert owner == pwd.getpwuid(os.geteuid()).pw_name
    pg_db.sql("create extension vector")
    assert pg_db.sql("select '[1,2,3]'::vector <=> '[1,2,3]'::vector")[0][0] == 0


def test_other_roles_need_a_password(pg_db):
    role = pg_db.role("nopass")
    pg_db.sql(f"create role {role} login password 'right'")
    with pytest.raises(psycopg.OperationalError, match="password"):
        pg_db.connect(role, password="wrong")
    with pg_db.connect(role, password="right") as conn:
        assert conn.execute("select current_user").fetchone()[0] == role


def test_the_cluster_replicates_and_a_failover_keeps_acknowledged_commits(pg_cluster):
    primary = pg_cluster.primary
    primary.sql("create table t (n int primary key)")
    with primary.connect() as conn:
        for n in range(200):
            conn.execute("insert into t values (%s)", (n,))
            conn.commit()  # acknowledged: at least one standby flushed it
    assert primary.sql("select sync_state from pg_stat_replication order by 1") == [
        ("quorum",), ("quorum",)]
    new = pg_cluster.failover()
    assert new in pg_cluster.nodes and new is pg_cluster.primary
    assert new.sql("select count(*) from t")[0][0] == 200
    assert not new.sql("select pg_is_in_recovery()")[0][0]
    new.sql("insert into t values (1000)")
    pg_cluster.wait_replayed()
    assert pg_cluster.standbys[0].sql("select count(*) from t")[0][0] == 201
    with psycopg.connect(pg_cluster.url(), connect_timeout=10) as conn:
        assert conn.execute("select count(*) from t").fetchone()[0] == 201
