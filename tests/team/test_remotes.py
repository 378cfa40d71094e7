"""Projects named across machines by their normalised git remote; URLs without passwords."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carto_core.team.connect import describe, split_password
from carto_core.team.remotes import normalise_remote, project_key

SPELLINGS = [
    "git@github.com:acme/shop.git",
    "git@github.com:Acme/Shop",
    "ssh://git@github.com:22/acme/shop.git",
    "ssh://git@github.com/acme/shop",
    "https://github.com/acme/shop",
    "https://alice:ghp_secret123@github.com/acme/shop.git/",
    "http://github.com/acme/shop.git",
    "git://github.com/acme/shop.git",
    "  https://GitHub.com/acme/shop  ",
]


@pytest.mark.parametrize("url", SPELLINGS)
def test_every_spelling_of_one_remote_is_one_key(url):
    assert normalise_remote(url) == "github.com/acme/shop"


def test_a_credential_in_a_remote_never_reaches_the_key():
    assert "ghp_secret123" not in normalise_remote("https://alice:ghp_secret123@github.com/acme/shop")
    assert normalise_remote("") == ""
    assert normalise_remote("/srv/git/shop.git") == "srv/git/shop"
    assert normalise_remote("file:///srv/git/shop.git") == "srv/git/shop"
    assert normalise_remote("git@gitlab.example.com:group/sub/repo.git") == "gitlab.example.com/group/sub/repo"


_part = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_-]{0,12}", fullmatch=True)


@settings(deadline=None)
@given(host=st.from_regex(r"[a-z][a-z0-9-]{0,10}\.(com|org|io)", fullmatch=True),
       owner=_part, name=_part, user=st.sampled_from(["git", "alice", "x-token"]),
       port=st.sampled_from(["", ":22", ":2222"]), suffix=st.sampled_from(["", ".git", "/", ".git/"]))
def test_ssh_scp_and_https_forms_agree(host, owner, name, user, port, suffix):
    key = f"{host}/{owner}/{name}".lower()
    forms = [f"{user}@{host}:{owner}/{name}{suffix.rstrip('/')}",
             f"ssh://{user}@{host}{port}/{owner}/{name}{suffix}",
             f"https://{user}:pw@{host}/{owner}/{name}{suffix}",
             f"https://{host.upper()}/{owner}/{name}{suffix}"]
    assert {normalise_remote(form) for form in forms} == {key}


def test_a_checkout_and_its_linked_worktree_have_one_key(tmp_path):
    import subprocess

    repo = tmp_path / "shop"
    repo.mkdir()
    run = lambda *a, cwd=repo: subprocess.run(["git", *a], cwd=cwd, check=True, capture_output=True)  # noqa: E731
    run("init", "-q", "-b", "main")
    run("remote", "add", "upstream", "git@github.com:other/fork.git")
    run("remote", "add", "origin", "git@github.com:acme/shop.git")
    run("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "x")
    run("worktree", "add", "-q", str(tmp_path / "shop-wt"), "-b", "wt")
    (repo / "deep" / "er").mkdir(parents=True)
    for folder in (repo, repo / "deep" / "er", tmp_path / "shop-wt"):
        found = project_key(folder)
        assert (found.key, found.name) == ("github.com/acme/shop", "shop")
    assert project_key(tmp_path) is None


@pytest.mark.parametrize("url, stored", [
    ("postgresql://alice:s3cr%40t@db.example.com:5433/carto?sslmode=verify-full",
     "postgresql://alice@db.example.com:5433/carto?sslmode=verify-full"),
    ("postgresql://alice@db/carto?password=s3cr%40t&sslmode=require", "postgresql://alice@db/carto?sslmode=require"),
    ("postgresql://alice@db/carto?sslmode=require&password=s3cr%40t", "postgresql://alice@db/carto?sslmode=require"),
    ("host=db user=alice password=s3cr@t dbname=carto", "host=db user=alice dbname=carto"),
])
def test_a_password_is_split_off_the_url(url, stored):
    from psycopg.conninfo import conninfo_to_dict

    without, password = split_password(url)
    assert conninfo_to_dict(without) == conninfo_to_dict(stored) and password == "s3cr@t"
    assert without.startswith("postgresql://") == url.startswith("postgresql://")
    assert "s3cr" not in describe(url)


def test_a_url_without_password_is_kept_as_is():
    url = "postgresql://alice@db1:5432,db2:5433/carto?target_session_attrs=read-write"
    assert split_password(url) == (url, None)
    assert describe(url) == "alice@db1:5432,db2:5433/carto"
    assert describe("service=carto") == "service carto"
