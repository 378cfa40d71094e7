"""File review shows the session's repository, never its secrets: environment files, `.git/`,
key and credential files and anything git ignores are refused wherever they sit and whichever
way they are named (a symlink to one included); a commit's diff leaves them out; the text it
shows is redacted as stored text is, a credential across the size cut included."""

from __future__ import annotations

import os
import subprocess

import pytest

from carto_core.logio.appendlog import append_rows
from carto_core.serve import desk as desk_module
from carto_core.serve.review_rules import refusal
from carto_core.util.timeparse import format_timestamp, utcnow

TOKEN = "ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R9s"
BASE = "/api/sessions/secret-session/review"

HIDDEN = {
    ".env": f"GITHUB_TOKEN={TOKEN}\n",
    ".env.local": "ENV-LOCAL-TEXT\n",
    ".envrc": "ENVRC-TEXT\n",
    "config/.env.production": "ENV-PRODUCTION-TEXT\n",
    "deploy/server.pem": "PEM-FILE-TEXT\n",
    "deploy/tls.KEY": "KEY-FILE-TEXT\n",
    "id_rsa": "ID-RSA-TEXT\n",
    "home/.netrc": "NETRC-TEXT\n",
    "infra/terraform.tfstate": "TFSTATE-TEXT\n",
}
IGNORED = {"secrets.txt": "IGNORED-SECRET-TEXT\n", "build/out.log": "IGNORED-BUILD-TEXT\n",
           "clés/privé.txt": "IGNORED-NON-ASCII-TEXT\n"}


def _git(repo, *args):
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@x"}
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)
    return subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True,
                          text=True).stdout.strip()


@pytest.fixture
def repo(home, tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run(["git", "-C", str(repo), "config", "remote.origin.url",
                    f"https://x:{TOKEN}@github.com/acme/shop.git"], check=True)
    (repo / ".gitignore").write_text("secrets.txt\nbuild/\nclés/\n")
    (repo / "src").mkdir()
    (repo / "src" / "app.py").write_text(f'API = "{TOKEN}"\nprint("app")\n')
    for name, text in {**HIDDEN, **IGNORED}.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    (repo / "notes.txt").symlink_to(repo / ".env")
    # The hidden files are committed too (force-added where ignored): their diff must not show.
    _git(repo, "add", "-f", ".")
    sha = _git(repo, "commit", "-qm", "everything")
    append_rows(home.log("changelog"), [{
        "event_id": "evt-secret-1", "timestamp": format_timestamp(utcnow()),
        "type": "tool_file_edit", "summary": f"Modified: {repo}/src/app.py", "project": "repo",
        "session_id": "secret-session", "provider": "claude", "cwd": str(repo)}])
    return repo, sha


def test_hidden_files_are_refused_however_named(client, repo):
    root, _ = repo
    asked = [*HIDDEN, *IGNORED, "notes.txt", ".git/config", ".git/HEAD", "./.env",
             f"{root}/.env", f"{root}/.git/config", "src/../.env"]
    for path in asked:
        answer = client.get(BASE, params={"path": path})
        assert answer.status_code == 403, (path, answer.text)
        assert answer.json()["code"] == "REVIEW_FORBIDDEN"
        for text in [*HIDDEN.values(), *IGNORED.values()]:
            assert text.strip() not in answer.text
        assert TOKEN not in answer.text
    # The control: an ordinary file of the same repository is shown (redacted).
    shown = client.get(BASE, params={"path": "src/app.py"}).json()
    assert shown["text"] == 'API = "[REDACTED:github-token]"\nprint("app")\n'
    assert client.get(BASE, params={"path": ".gitignore"}).json()["text"].startswith("secrets.txt\n")


def test_a_diff_leaves_hidden_files_out_and_is_redacted(client, repo):
    _, sha = repo
    diff = client.get(BASE, params={"commit": sha}).json()
    assert diff["kind"] == "diff"
    assert "+print(\"app\")" in diff["text"] and "[REDACTED:github-token]" in diff["text"]
    assert TOKEN not in diff["text"]
    for text in [*HIDDEN.values(), *IGNORED.values()]:
        assert text.strip() not in diff["text"], text
    assert "diff --git a/.gitignore" in diff["text"]
    # A hidden path named with the commit is refused like the file.
    assert client.get(BASE, params={"commit": sha, "path": ".env"}).status_code == 403


def test_a_credential_across_the_cut_is_not_shown_in_part(client, repo, monkeypatch):
    root, _ = repo
    monkeypatch.setattr(desk_module, "REVIEW_BYTES_MAX", 1000)
    (root / "src" / "long.py").write_text("#" * 990 + f" {TOKEN}\n")
    answer = client.get(BASE, params={"path": "src/long.py"}).json()
    assert answer["truncated"] is True and len(answer["text"].encode()) <= 1000
    assert TOKEN[:8] not in answer["text"]


@pytest.mark.parametrize("path, hidden", [
    (".env", True), ("a/b/.env.test", True), (".ENV", True), (".environment/x", True),
    (".git", True), ("sub/.git/config", True), ("x.pem", True), ("keys/ID_RSA.pub", True),
    ("id_ed25519", True), (".pgpass", True), ("aws/credentials", True),
    ("src/env.py", False), ("docs/git.md", False), ("environment.yml", False),
    ("src/keys.py", False), ("a.pem.txt", False), ("README", False), (".github/ci.yml", False),
])
def test_refusal_rules(path, hidden):
    assert (refusal(path) is not None) is hidden
