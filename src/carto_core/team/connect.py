"""The connection to a team server, and the errors every team command reports in one line.

libpq does the connecting, so everything psql honours works: TLS from the URL or the service
(`sslmode=verify-full`, `sslrootcert=...`), several hosts with `target_session_attrs=read-write`
(a client follows a failover by reconnecting), a service file, `~/.pgpass`, `PGPASSWORD`, and
the password file `carto team init` wrote (its path is passed as `passfile`). A password is
never put on a command line, in a log line or in an error message. Which server a connection
reached is named by `server_identity` (its id, wherever it is reached from).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from contextlib import contextmanager

from carto_core.team.schema import SCHEMA_VERSION, read_state

CONNECT_TIMEOUT = 5
#: A lens's query never holds a terminal longer than this (ms).
QUERY_TIMEOUT_MS = 30_000


class TeamError(Exception):
    """A team command that cannot go on; `state` is what `--json` documents say."""

    state = "error"


class TeamNotConfigured(TeamError):
    state = "not_configured"


class TeamUnavailable(TeamError):
    """The `team` extra is not installed (psycopg, pgvector)."""

    state = "unavailable"


class TeamUnreachable(TeamError):
    state = "unreachable"


class TeamDenied(TeamError):
    state = "denied"


class TeamSchemaMismatch(TeamError):
    state = "schema_mismatch"


class TeamTls(TeamError):
    """The URL's TLS settings and the server disagree (a mode it does not offer, a certificate
    that is missing or does not verify): retrying never helps, the settings must change.
    `answered` is whether libpq's message shows the server answered (see `_TLS_ANSWERED`)."""

    state = "tls"

    def __init__(self, message: str, *, answered: bool = False):
        super().__init__(message)
        self.answered = answered


def require_driver():
    """psycopg, or TeamUnavailable naming the install command."""
    try:
        import psycopg
    except ImportError:
        raise TeamUnavailable("the team extra is not installed: pip install 'carto-core[team]' "
                              "(psycopg and pgvector)") from None
    return psycopg


def split_password(url: str) -> tuple[str, str | None]:
    """(the URL or conninfo without its password, the password or None)."""
    psycopg = require_driver()
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    try:
        params = conninfo_to_dict(url)
    except psycopg.ProgrammingError as exc:
        raise TeamError(f"not a PostgreSQL URL or conninfo: {_scrub(str(exc))}") from None
    password = params.pop("password", None)
    if password is None:
        return url, None
    if url.startswith(("postgresql://", "postgres://")):
        return _url_without_password(url), password
    return make_conninfo(**params), password


def _url_without_password(url: str) -> str:
    scheme, rest = url.split("://", 1)
    authority, slash, tail = rest.partition("/")
    if "@" in authority:
        userinfo, at, hosts = authority.rpartition("@")
        userinfo = userinfo.split(":", 1)[0]
        authority = f"{userinfo}@{hosts}" if userinfo else hosts
    # A password given as a query parameter.
    tail = re.sub(r"(^|[?&])password=[^&]*(&|$)", lambda m: m.group(1) if m.group(2) else "", tail)
    tail = tail.rstrip("?&")
    return f"{scheme}://{authority}{slash}{tail}"


def describe(url: str) -> str:
    """`user@host:port/db` for messages (never a password)."""
    try:
        from psycopg.conninfo import conninfo_to_dict

        params = conninfo_to_dict(url)
    except Exception:  # noqa: BLE001 - a description never fails
        return "the team server"
    if params.get("service") and not params.get("host"):
        return f"service {params['service']}"
    host = params.get("host") or "localhost"
    port = params.get("port") or "5432"
    if "," in host:
        hosts = host.split(",")
        ports = port.split(",") if "," in str(port) else [port] * len(hosts)
        where = ",".join(f"{h}:{p}" for h, p in zip(hosts, ports))
    else:
        where = f"{host}:{port}"
    user = params.get("user") or os.environ.get("PGUSER") or ""
    dbname = params.get("dbname") or user
    return f"{user + '@' if user else ''}{where}/{dbname}"


def not_a_member(conn, team: str) -> TeamDenied:
    """What a login the server knows but the team does not list is told (one line, and the
    command that lets it in). Row-level security hides the team itself from such a login, so a
    team that does not exist looks the same from here."""
    login = conn.execute("SELECT current_user").fetchone()[0]
    conn.rollback()
    return TeamDenied(f"{login} is not a member of team {team} on {describe(conn.info.dsn)} "
                      "(revoked, never granted, or no such team): the team's administrator runs "
                      f"`carto team admin grant {login} --team {team}`")


def write_passfile(path, url: str, password: str) -> None:
    """libpq's password file format, one line per host of the URL, mode 0600."""
    from psycopg.conninfo import conninfo_to_dict

    from carto_core.team.settings import write_private

    params = conninfo_to_dict(url)
    hosts = (params.get("host") or "*").split(",")
    ports = str(params.get("port") or "*").split(",")
    if len(ports) == 1:
        ports = ports * len(hosts)
    user = params.get("user") or os.environ.get("PGUSER") or "*"
    dbname = params.get("dbname") or "*"

    def field(value: str) -> str:
        return value.replace("\\", "\\\\").replace(":", "\\:")

    lines = [":".join(field(v) for v in (h, p, dbname, user, password)) for h, p in zip(hosts, ports)]
    write_private(path, "\n".join(lines) + "\n")


def _scrub(text: str) -> str:
    """An error message without anything that looks like a password."""
    return re.sub(r"(password=)\S+", r"\1***", re.sub(r"(://[^:/@]+):[^@/]+@", r"\1:***@", text))


#: libpq's wrapping of a connection error, which repeats the host and port `where` names.
_LIBPQ_PREFIX = re.compile(r'^(?:connection failed: )?(?:connection to server at "[^"]*"(?: \([^)]*\))?, '
                           r'port \d+ failed: )?(?:FATAL: +|fe_sendauth: )?')


def _classify(exc: Exception, where: str) -> TeamError:
    message = _scrub(str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__)
    message = _LIBPQ_PREFIX.sub("", message) or message
    low = message.lower()
    import psycopg

    if isinstance(exc, psycopg.Error) and not isinstance(exc, psycopg.OperationalError):
        if isinstance(exc, psycopg.errors.InsufficientPrivilege):
            return TeamDenied(f"the team server {where} refused: {message}")
        # The server answered, with an error: retrying will not help.
        return TeamError(f"the team server {where} answered with an error: {message}")
    if ("password authentication failed" in low or "no password supplied" in low
            or "pg_hba.conf" in low or "permission denied" in low or "role" in low and "does not exist" in low):
        return TeamDenied(f"the team server {where} refused the login: {message}")
    if _TLS_SETTINGS.search(low):
        return TeamTls(f"TLS with the team server {where} failed: {message} (fix: {_tls_fix(low)})",
                       answered=bool(_TLS_ANSWERED.search(low)))
    if "ssl" in low or "certificate" in low:
        # A TLS session cut short (SSL SYSCALL error, closed unexpectedly): the network's doing.
        return TeamUnreachable(f"TLS with the team server {where} failed: {message}")
    if "database" in low and "does not exist" in low:
        return TeamDenied(f"the team server {where}: {message}")
    return TeamUnreachable(f"the team server {where} is unreachable: {message}")


#: libpq's words for TLS settings the server or the files do not bear out.
_TLS_SETTINGS = re.compile(r"does not support ssl|ssl was required|root certificate file|"
                           r"certificate verify failed|does not match host name|invalid sslmode|"
                           r"sslrootcert|certificate file|private key file|no ssl support|"
                           r"unsupported protocol|wrong version number|tlsv1\d* alert|sslv3 alert")

#: Of those, the ones only the server's answer produces, so `team status` says it is reachable.
#: psycopg reports a failed connection as an OperationalError carrying libpq's message and
#: nothing more (no SQLSTATE: the server sent no error), so the message decides: the server
#: replied 'N' to the TLS request ("server does not support SSL, but SSL was required"), its
#: certificate arrived and did not verify ("certificate verify failed", "does not match host
#: name"), it sent a TLS alert ("tlsv1 alert ...", "tlsv13 alert ...", "sslv3 alert ...") or
#: bytes that are not the TLS asked for ("wrong version number", "unsupported protocol"). Not
#: answered: a file missing on this machine or a setting libpq rejects itself (root certificate
#: file, sslrootcert, certificate or key file, invalid sslmode, no SSL support), which it reports
#: whether or not the server spoke; and a handshake cut off ("SSL SYSCALL error", "EOF
#: detected", "closed the connection unexpectedly") or a timeout, which `_classify` makes
#: `unreachable`.
_TLS_ANSWERED = re.compile(r"does not support ssl|certificate verify failed|does not match host name|"
                           r"wrong version number|unsupported protocol|tlsv1\d* alert|sslv3 alert")


def _tls_fix(low: str) -> str:
    """What changes, for the TLS failure whose libpq message (lower case) is `low`."""
    if "does not support ssl" in low or "ssl was required" in low:
        return ("the server offers no TLS: its administrator turns TLS on (docs/team.md, TLS), "
                "or the URL asks for none (sslmode=prefer or disable), on a network you trust")
    if "root certificate file" in low or "sslrootcert" in low:
        return ("name the team's CA certificate in the URL (sslrootcert=/path/ca.pem, a file that "
                "exists here) or sslrootcert=system for a certificate a public CA signed")
    if "invalid sslmode" in low:
        return "sslmode is one of disable, allow, prefer, require, verify-ca, verify-full"
    if "verify failed" in low or "host name" in low:
        return ("the server's certificate is not signed by the URL's sslrootcert, or not for the "
                "URL's host: the team's administrator gives you the right CA certificate and host")
    return "the URL's TLS parameters (sslmode, sslrootcert, sslcert, sslkey) and the server's TLS must agree"


def connect(settings, *, timeout: float = CONNECT_TIMEOUT, query_timeout_ms: int | None = QUERY_TIMEOUT_MS,
            check: bool = True, autocommit: bool = False):
    """A connection to the team server of `settings`, its schema checked (unless `check` is
    False). Raises TeamUnreachable, TeamDenied, TeamSchemaMismatch, TeamUnavailable."""
    psycopg = require_driver()
    where = describe(settings.url)
    kwargs: dict = {"connect_timeout": max(1, int(timeout)), "application_name": "carto",
                    "autocommit": autocommit}
    if settings.passfile and os.path.isfile(settings.passfile):
        kwargs["passfile"] = settings.passfile
    if query_timeout_ms:
        kwargs["options"] = f"-c statement_timeout={int(query_timeout_ms)}"
    try:
        conn = psycopg.connect(settings.url, **kwargs)
    except psycopg.Error as exc:
        error = _classify(exc, where)
        if isinstance(error, TeamDenied) and _PASSWORD_PROBLEM.search(str(error)):
            error = TeamDenied(f"{error} (fix: {_password_fix(settings)})")
        raise error from None
    if check:
        try:
            state = read_state(conn)
        except psycopg.Error as exc:
            conn.close()
            raise _classify(exc, where) from None
        problem = state.problem()
        if problem:
            conn.close()
            if state.version == 0:
                # Most often a member's URL naming another database of the server.
                team = getattr(settings, "team", None) or "NAME"
                raise TeamSchemaMismatch(
                    f"{where} holds no carto schema: the URL names a database that is not the "
                    f"team's (`carto team init URL --team {team}` with the team's URL), or the team's "
                    "administrator has not run `carto team admin setup` there yet")
            raise TeamSchemaMismatch(f"{where}: {problem}")
    return conn


_PASSWORD_PROBLEM = re.compile(r"password authentication failed|no password supplied", re.I)


def _password_fix(settings) -> str:
    """How the person gives the password the server wants: a member through `carto team init`
    (asked, kept in the password file), an administrator through libpq's own places."""
    team = getattr(settings, "team", None)
    if team and settings.url != settings.stored_url:
        # CARTO_TEAM_URL is in use: the stored URL (and its password file) is not.
        url = split_password(settings.url)[0]
        return (f"the URL in use is CARTO_TEAM_URL's ('{url}'), not the stored one: give its password "
                "in CARTO_TEAM_URL itself, PGPASSWORD or ~/.pgpass, or unset CARTO_TEAM_URL")
    if team:
        url = split_password(settings.stored_url)[0]
        return (f"`carto team init '{url}' --team {team} --password-stdin` asks for it and keeps "
                "it in the password file")
    return "give it in PGPASSWORD or ~/.pgpass, libpq's password file"


def classify(exc: Exception, settings) -> TeamError:
    """A psycopg error raised mid-work, as the one-line TeamError a command reports."""
    return exc if isinstance(exc, TeamError) else _classify(exc, describe(settings.url))


@contextmanager
def working(conn, settings, *, passing: tuple[type[BaseException], ...] = ()):
    """`conn` for one piece of work, closed after it whatever happens. A failure inside comes
    out as the one-line TeamError `classify` makes of it (a TeamError as it is), but for the
    kinds `passing` names: the caller's own refusals and a person's answer, for it to say."""
    try:
        yield conn
    except passing:
        raise
    except Exception as exc:  # noqa: BLE001 - a server error, as one line
        raise classify(exc, settings) from None
    finally:
        conn.close()


# --------------------------------------------------------------------------- which server


def server_identity(conn, settings) -> tuple[str, str | None]:
    """What names the server a push is connected to, and the id of the server it is a copy of
    (else None): the id `carto team admin setup` keeps in it (`carto.meta`: a server rebuilt at
    the same URL has another), else the URL actually used (`CARTO_TEAM_URL` or the stored one),
    without its password. A database found elsewhere than where its id was recorded is a copy
    (a dump restored, a template: `schema.identify`), named as the setup will name it."""
    from carto_core.team.schema import copy_id, same_place, server_place

    try:
        found = dict(conn.execute("SELECT key, value FROM carto.meta WHERE key IN ('server_id', 'server_place')").fetchall())
        live = server_place(conn) if found.get("server_id") and found.get("server_place") else None
    finally:
        conn.rollback()
    server_id = found.get("server_id")
    if not server_id:
        return f"url:{clean_url(settings.url)}", None
    if live is not None and not same_place(found["server_place"], live):
        return f"id:{copy_id(server_id, live)}", server_id
    return f"id:{server_id}", None


def clean_url(url: str) -> str:
    """`url` without its password."""
    try:
        return split_password(url)[0]
    except TeamError:
        return url


def server_fingerprint(settings, identity: str) -> str:
    """Which positions a push uses (and which forgets a home remembers: `forget.forget_here`):
    the server it is connected to (`server_identity`), the team and the machine. Another server
    or team starts from the beginning."""
    text = json.dumps([identity, settings.team, settings.machine])
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


__all__ = ["SCHEMA_VERSION", "TeamDenied", "TeamError", "TeamNotConfigured", "TeamSchemaMismatch",
           "TeamTls", "TeamUnavailable", "TeamUnreachable", "classify", "clean_url", "connect", "describe",
           "not_a_member", "require_driver", "server_fingerprint", "server_identity", "split_password",
           "working", "write_passfile"]

