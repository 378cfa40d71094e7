import json
import os
import subprocess

import pytest

from carto_core.model.project import (ProjectRegistry, ProjectScope, RegistryError, find_git, is_project_name,
                                main_checkout_path, project_for)

GIT_ENV = {"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_SYSTEM": "/dev/null", "GIT_AUTHOR_NAME": "T",
           "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@example.com"}


def git(cwd, *args):
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, env={**os.environ, **GIT_ENV})


@pytest.fixture
def repo(tmp_path):
    main = tmp_path / "webshop"
    (main / "src").mkdir(parents=True)
    git(main, "init", "-q", "-b", "main")
    (main / "src" / "cart.py").write_text("x = 1\n")
    git(main, "add", ".")
    git(main, "commit", "-qm", "init")
    return main


def test_project_of_a_repo_and_of_a_subfolder(repo):
    assert project_for(repo) == "webshop"
    assert project_for(repo / "src") == "webshop"
    info = find_git(repo / "src")
    assert info.branch() == "main" and not info.is_linked_worktree


def test_worktrees_map_to_the_main_repository(repo, tmp_path):
    claude_wt = repo / ".claude" / "worktrees" / "rounding"
    git(repo, "worktree", "add", "-q", str(claude_wt), "-b", "rounding")
    codex_wt = tmp_path / ".codex" / "worktrees" / "abc123" / "webshop"
    git(repo, "worktree", "add", "-q", str(codex_wt), "-b", "other")
    for worktree in (claude_wt, codex_wt):
        assert project_for(worktree / "src") == "webshop"
        info = find_git(worktree)
        assert info.is_linked_worktree and info.main_worktree == repo
        assert main_checkout_path(worktree / "src" / "cart.py") == str(repo / "src" / "cart.py")
    assert find_git(codex_wt).branch() == "other"


def test_outside_a_repo_the_cwd_basename_is_the_project(tmp_path):
    folder = tmp_path / "scratchpad"
    folder.mkdir()
    assert project_for(folder) == "scratchpad"
    assert project_for(tmp_path / "tmp") == ""
    assert project_for(None) == ""


@pytest.mark.parametrize("name", ["", "/", "?", "unknown", "tmp", "Documents", "worktrees"])
def test_non_project_names(name):
    assert not is_project_name(name)


def test_home_folder_is_not_a_project():
    assert not is_project_name(os.path.basename(os.path.expanduser("~")))
    assert is_project_name("webshop")


def test_family_registry_widens_a_scope(tmp_path, monkeypatch):
    path = tmp_path / "registry.json"
    path.write_text(json.dumps({"aliases": {"shop": ["webshop", "shop-api"]}}))
    monkeypatch.setenv("CARTO_PROJECT_REGISTRY", str(path))
    scope = ProjectScope.parse("shop")
    assert scope.names == ["shop", "webshop", "shop-api"]
    assert scope.matches("Shop-API") and scope.matches("webshop") and not scope.matches("infra")
    assert ProjectScope.parse("infra|ops").matches("ops-tools")


def test_malformed_or_missing_registry_is_an_error_not_a_silent_fallback(tmp_path, monkeypatch):
    bad = tmp_path / "bad.json"
    bad.write_text('{"aliases": {"x": "not-a-list"}}')
    monkeypatch.setenv("CARTO_PROJECT_REGISTRY", str(bad))
    with pytest.raises(RegistryError, match="must look like"):
        ProjectRegistry.load()
    monkeypatch.setenv("CARTO_PROJECT_REGISTRY", str(tmp_path / "absent.json"))
    with pytest.raises(RegistryError, match="does not exist"):
        ProjectRegistry.load()


def test_registry_found_in_the_config_dir(tmp_path, monkeypatch):
    config = tmp_path / "cfg"
    (config / "carto").mkdir(parents=True)
    (config / "carto" / "project-registry.json").write_text('{"aliases": {"fam": ["a"]}}')
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    assert ProjectRegistry.load().aliases == {"fam": ["a"]}
