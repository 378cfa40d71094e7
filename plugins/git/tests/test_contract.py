"""carto-git's source against the contract suite shipped in core (carto_core.testing).

Repositories are built in tmp_path with the machine's git configuration shut out.
"""

from __future__ import annotations

import os
import subprocess

import pytest

from carto_core.testing import SourceContract
from carto_git.source import GitSource

pytest_plugins = ["carto_core.testing"]

ISOLATED = {
    "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_SYSTEM": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "Nobody", "GIT_AUTHOR_EMAIL": "nobody@example.com",
    "GIT_COMMITTER_NAME": "Nobody", "GIT_COMMITTER_EMAIL": "nobody@example.com",
}


def git(cwd, *args, date=None):
    env = {**os.environ, **ISOLATED}
    if date:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = date
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)


def repository(path, commits):
    path.mkdir(parents=True)
    git(path, "init", "-q", "-b", "main")
    for index, (message, files) in enumerate(commits):
        for name, text in files.items():
            (path / name).write_text(text)
        git(path, "add", "-A")
        git(path, "commit", "-q", "--allow-empty", "-m", message,
            date=f"2026-09-2{index + 1}T10:00:00+02:00")


@pytest.fixture(autouse=True)
def _isolated_git(monkeypatch):
    for key, value in ISOLATED.items():
        monkeypatch.setenv(key, value)


class TestGitContract(SourceContract):
    min_rows = 4

    @pytest.fixture
    def source(self, tmp_path):
        root = tmp_path / "dev"
        repository(root / "alpha", [("feat: first", {"a.txt": "1"}),
                                    ("fix: second\n\nwith a body\nover lines", {"a.txt": "2"})])
        repository(root / "beta", [("docs: readme", {"README.md": "x"}),
                                   ("chore: empty commit", {})])
        return GitSource({"roots": [str(root)]})

    @pytest.fixture
    def garbage_source(self, tmp_path):
        root = tmp_path / "dev"
        repository(root / "good", [("feat: fine", {"f.txt": "1"})])
        (root / "fresh").mkdir()
        git(root / "fresh", "init", "-q")  # a repository without commits
        (root / "not-a-repo").mkdir()
        return GitSource({"roots": [str(root)]})
