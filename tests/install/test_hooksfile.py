"""carto's handlers in an agent's hooks file: install adds or repairs them and nothing else,
uninstall removes exactly them (install then uninstall gives the file's data back), both are
idempotent and keep a backup; the launcher rule that makes them fire from any environment."""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from carto_claude.install import carto_hooks
from carto_core.cli import cli
from carto_core.install.hooksfile import (
    InstallError,
    carto_handlers,
    hook_identity,
    merge_hooks,
    remove_hooks,
    render,
)
from carto_core.install.launcher import carto_argv, launcher

LAUNCHER = ["/opt/env/bin/carto"]


def test_carto_argv_knows_every_launcher_and_nothing_else():
    assert carto_argv("carto hook claude Stop") == ["hook", "claude", "Stop"]
    assert carto_argv("/a b/bin/carto hook codex Stop") is None  # unquoted space: another program
    assert carto_argv("'/a b/bin/carto' hook codex Stop") == ["hook", "codex", "Stop"]
    assert carto_argv("/usr/bin/python3 -m carto_core hook claude Stop") == ["hook", "claude", "Stop"]
    for other in ("my-carto hook claude Stop", "cartographer hook claude Stop", "echo carto", "", "'unclosed"):
        assert carto_argv(other) is None, other
    assert hook_identity("carto mcp") is None
    assert hook_identity("/x/carto hook claude PostToolUse") == ("claude", "PostToolUse")


def test_launcher_prefers_the_running_script_then_the_one_beside_python(tmp_path):
    script = tmp_path / "bin" / "carto"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\n")
    script.chmod(0o755)
    python = tmp_path / "bin" / "python"
    assert launcher(argv0=str(script), executable="/nowhere/python") == [str(script)]
    assert launcher(argv0="/usr/bin/pytest", executable=str(python)) == [str(script)]
    assert launcher(argv0="pytest", executable="/nowhere/python") == ["/nowhere/python", "-m", "carto_core"]
    script.chmod(0o644)  # not executable: not a launcher
    assert launcher(argv0=str(script), executable="/nowhere/python")[1:] == ["-m", "carto_core"]


@pytest.mark.parametrize("head", ["#!{python}\n", "#!{python} -E\n",
                                  "#!/bin/sh\n'''exec' \"{python}\" \"$0\" \"$@\"\n' '''\n"])
def test_a_script_whose_interpreter_is_gone_is_not_a_launcher(tmp_path, head):
    """What a moved environment's `bin/carto` looks like: pip's first line (or its sh trampoline
    for long paths) still names the interpreter at the old place."""
    python = tmp_path / "bin" / "python"
    script = python.with_name("carto")
    script.parent.mkdir()
    script.write_text(head.format(python=tmp_path / "old place" / "python") + "import carto_core\n")
    script.chmod(0o755)
    assert launcher(argv0="/x/__main__.py", executable=str(python)) == [str(python), "-m", "carto_core"]
    assert launcher(argv0=str(script), executable=str(python)) == [str(python), "-m", "carto_core"]
    python.symlink_to(sys.executable)
    script.write_text(head.format(python=python) + "import carto_core\n")
    assert launcher(argv0="/x/__main__.py", executable=str(python)) == [str(script)]


def test_render_puts_the_launcher_in_front_and_quotes_it():
    rendered = render(carto_hooks(), ["/my env/bin/carto"])
    commands = [h["command"] for groups in rendered.values() for g in groups for h in g["hooks"]]
    assert commands and all(c.startswith("'/my env/bin/carto' hook claude ") for c in commands)
    assert all(shlex.split(c)[0] == "/my env/bin/carto" for c in commands)


def test_reinstall_from_another_environment_repairs_in_place():
    settings_ = {"hooks": {}}
    merge_hooks(settings_, render(carto_hooks(), ["/old/bin/carto"]))
    positions = [(h["event"], h["group"], h["index"]) for h in carto_handlers(settings_, "claude")]
    changes = merge_hooks(settings_, render(carto_hooks(), LAUNCHER))
    assert changes and all(" ~ /old/bin/carto hook claude " in c for c in changes)
    after = carto_handlers(settings_, "claude")
    assert [(h["event"], h["group"], h["index"]) for h in after] == positions  # nothing moved
    assert all(h["handler"]["command"].startswith("/opt/env/bin/carto ") for h in after)
    assert merge_hooks(settings_, render(carto_hooks(), LAUNCHER)) == []


def test_an_older_cartos_group_is_rewritten_in_place_never_duplicated():
    user = {"matcher": "Bash", "hooks": [{"type": "command", "command": "my-linter"}]}
    old = {"matcher": "Bash|Write", "hooks": [{"type": "command", "command": "/gone/bin/carto hook claude PostToolUse"}]}
    settings_ = {"hooks": {"PostToolUse": [user, old]}}
    changes = merge_hooks(settings_, render(carto_hooks(), LAUNCHER))
    groups = settings_["hooks"]["PostToolUse"]
    shipped = carto_hooks()["PostToolUse"]
    assert groups[0] == user
    assert groups[1]["matcher"] == shipped[0]["matcher"]          # same place, new matcher
    assert groups[1]["hooks"][0]["command"] == "/opt/env/bin/carto hook claude PostToolUse"
    assert len(groups) == 1 + len(shipped)
    assert any("matcher 'Bash|Write'" in c for c in changes)


def test_carto_in_a_users_own_group_keeps_its_place_and_gets_the_new_launcher():
    mixed = {"matcher": "Bash", "hooks": [{"type": "command", "command": "my-linter"},
                                          {"type": "command", "command": "/gone/bin/carto hook claude Stop"}]}
    settings_ = {"hooks": {"Stop": [mixed]}}
    merge_hooks(settings_, render(carto_hooks(), LAUNCHER))
    assert settings_["hooks"]["Stop"][0]["hooks"][1]["command"] == "/opt/env/bin/carto hook claude Stop"
    assert settings_["hooks"]["Stop"][0]["hooks"][0] == {"type": "command", "command": "my-linter"}


# --- install then uninstall gives the data back ------------------------------------------------

events = st.sampled_from(["PostToolUse", "PreToolUse", "Stop", "SessionStart", "Notification", "SessionEnd"])
handler = st.fixed_dictionaries({"type": st.just("command"),
                                 "command": st.sampled_from(["my-linter", "notify-send done", "carto-lookalike hook x"]),
                                 "timeout": st.integers(1, 60)})
group = st.one_of(st.fixed_dictionaries({"hooks": st.lists(handler, min_size=1, max_size=2)}),
                  st.fixed_dictionaries({"matcher": st.sampled_from(["Bash", "Edit|Write", "*"]),
                                         "hooks": st.lists(handler, min_size=1, max_size=2)}))
user_settings = st.fixed_dictionaries(
    {}, optional={"hooks": st.dictionaries(events, st.lists(group, min_size=1, max_size=3), min_size=1),
                  "model": st.sampled_from(["opus", "sonnet"]), "env": st.dictionaries(st.sampled_from("AB"), st.text(max_size=4))})


@settings(max_examples=80, deadline=None)
@given(original=user_settings)
def test_uninstall_after_install_gives_the_settings_back(original):
    data = json.loads(json.dumps(original))
    added = merge_hooks(data, render(carto_hooks(), LAUNCHER))
    assert len(added) == sum(len(g["hooks"]) for gs in carto_hooks().values() for g in gs)
    # Everything the user had is still there, in order, before carto's groups.
    for event, groups in original.get("hooks", {}).items():
        assert data["hooks"][event][: len(groups)] == groups
    removed = remove_hooks(data, "claude")
    assert len(removed) == len(added)
    assert data == original
    assert remove_hooks(data, "claude") == []


def test_uninstall_keeps_a_users_handler_sharing_a_carto_group():
    data = {}
    merge_hooks(data, render(carto_hooks(), LAUNCHER))
    data["hooks"]["Stop"][0]["hooks"].append({"type": "command", "command": "say done"})
    remove_hooks(data, "claude")
    assert data == {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}}


def test_uninstall_removes_only_that_providers_handlers():
    data = {}
    merge_hooks(data, render(carto_hooks(), LAUNCHER))
    codex_like = {"type": "command", "command": "/x/carto hook codex Stop"}
    data["hooks"]["Stop"].append({"hooks": [codex_like]})
    remove_hooks(data, "claude")
    assert data == {"hooks": {"Stop": [{"hooks": [codex_like]}]}}


# --- the command ------------------------------------------------------------------------------


def test_carto_uninstall_claude_removes_what_install_added_and_is_idempotent(tmp_path):
    settings_path = tmp_path / "settings.json"
    mine = {"model": "opus", "hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "my-linter"}]}]}}
    settings_path.write_text(json.dumps(mine))
    runner = CliRunner()
    assert runner.invoke(cli, ["install", "claude", "--settings", str(settings_path)]).exit_code == 0
    installed = settings_path.read_text()
    printed = runner.invoke(cli, ["uninstall", "claude", "--settings", str(settings_path), "--print"])
    assert printed.exit_code == 0 and "would remove" in printed.output
    assert settings_path.read_text() == installed
    done = runner.invoke(cli, ["uninstall", "claude", "--settings", str(settings_path), "--json"])
    assert done.exit_code == 0, done.output
    result = json.loads(done.output)
    assert settings_path.read_text() == json.dumps(mine)  # the original bytes
    assert result["restored"] == [f"{settings_path}: restored as it was before carto was installed",
                                  f"{os.environ['CARTO_HOME']}: removed (carto had made it, and it held nothing)"]
    assert len(result["changes"]) == sum(len(g["hooks"]) for gs in carto_hooks().values() for g in gs)
    again = runner.invoke(cli, ["uninstall", "claude", "--settings", str(settings_path)])
    assert again.exit_code == 0 and "nothing to change" in again.output
    assert [p for p in tmp_path.iterdir() if "carto-backup" in p.name] == []  # none left over


def test_uninstall_of_a_missing_file_changes_nothing(tmp_path):
    done = CliRunner().invoke(cli, ["uninstall", "claude", "--settings", str(tmp_path / "none.json")])
    assert done.exit_code == 0 and "nothing to change" in done.output
    assert not (tmp_path / "none.json").exists()


def test_uninstall_refuses_a_broken_file(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text("{nope")
    done = CliRunner().invoke(cli, ["uninstall", "claude", "--settings", str(path)])
    assert done.exit_code == 4 and path.read_text() == "{nope"


SHAPES = [
    ({"hooks": {"Stop": [1]}}, "hooks.Stop[0] is not an object"),
    ({"hooks": {"Stop": [{"hooks": 3}]}}, "hooks.Stop[0].hooks is not a list"),
    ({"hooks": {"Stop": [{"matcher": "x"}]}}, "hooks.Stop[0].hooks is not a list"),
    ({"hooks": {"Stop": [{"matcher": 2, "hooks": []}]}}, "hooks.Stop[0].matcher is not a string"),
    ({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}, "y"]}]}}, "hooks.Stop[0].hooks[1] is not an object"),
    ({"hooks": {"Stop": [{"hooks": [{"command": 3}]}]}}, "hooks.Stop[0].hooks[0].command is not a string"),
    ({"hooks": {"Stop": "x"}}, "hooks.Stop is not a list"),
    ({"hooks": []}, "`hooks` is not an object"),
]


@pytest.mark.parametrize("verb", ["install", "uninstall"])
@pytest.mark.parametrize("agent, option", [("claude", "--settings"), ("codex", "--hooks-file")])
@pytest.mark.parametrize("data, why", SHAPES)
def test_a_hooks_file_of_another_shape_is_refused_naming_the_part(tmp_path, verb, agent, option, data, why):
    """Refused whether carto's handlers are there or not: the part of another shape is named."""
    path = tmp_path / "hooks.json"
    carto = {"type": "command", "command": f"/x/carto hook {agent} SessionEnd"}
    text = json.dumps({**data, "hooks": {"SessionEnd": [{"hooks": [carto]}], **data["hooks"]}
                       if isinstance(data["hooks"], dict) else data["hooks"]})
    path.write_text(text)
    done = CliRunner().invoke(cli, [verb, agent, option, str(path)])
    assert done.exit_code == 4, done.output
    [line] = done.output.strip().splitlines()
    assert line.startswith("carto: ") and why in line and line.endswith("; refusing to change it")
    assert path.read_text() == text and [p.name for p in tmp_path.iterdir()] == ["hooks.json"]


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=4),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
                           max_leaves=12)
carto_handler = st.fixed_dictionaries({"type": st.just("command"),
                                       "command": st.sampled_from(["/x/carto hook claude Stop", "my-linter"])})
near_groups = st.lists(st.one_of(json_values, st.fixed_dictionaries(
    {"hooks": st.one_of(json_values, st.lists(st.one_of(carto_handler, json_values), max_size=3))},
    optional={"matcher": st.one_of(st.text(max_size=3), json_values)})), max_size=3)
near_settings = st.one_of(json_values, st.fixed_dictionaries({"hooks": st.one_of(
    json_values, st.dictionaries(events, st.one_of(near_groups, json_values), max_size=3))}))


@settings(max_examples=300, deadline=None)
@given(value=near_settings)
def test_no_json_value_makes_install_or_uninstall_fail_otherwise_than_by_refusing(value):
    if not isinstance(value, dict):
        return  # load_settings refuses it before any of this (test_uninstall_refuses_a_broken_file)
    for change in (lambda d: merge_hooks(d, render(carto_hooks(), LAUNCHER)), lambda d: remove_hooks(d, "claude")):
        data = json.loads(json.dumps(value))
        try:
            change(data)
        except InstallError as exc:
            assert "refusing to change it" in str(exc)
            assert data == value  # refused before anything moved
        carto_handlers(data, "claude")  # doctor reads whatever is there


def test_install_writes_this_cartos_launcher(tmp_path):
    path = tmp_path / "settings.json"
    done = CliRunner().invoke(cli, ["install", "claude", "--settings", str(path), "--json"])
    argv = json.loads(done.output)["launcher"]
    assert os.path.isabs(argv[0])
    # Under pytest the running program is not carto: the script beside this interpreter, else -m.
    beside = Path(sys.executable).with_name("carto")
    assert argv == ([str(beside)] if beside.exists() else [sys.executable, "-m", "carto_core"])
    handlers = carto_handlers(json.loads(path.read_text()), "claude")
    assert handlers and all(shlex.split(h["handler"]["command"])[:-3] == argv for h in handlers)


@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_uninstall_is_listed_with_examples(agent):
    done = CliRunner().invoke(cli, ["uninstall", agent, "--help"])
    assert done.exit_code == 0 and "Examples" in done.output and "--print" in done.output


def _tree(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if ".cache" not in p.parts)


@pytest.mark.parametrize("recorded", [False, True])
def test_uninstall_leaves_the_folders_as_they_were_before_install(tmp_path, monkeypatch, recorded):
    """Install made the home for the hooks and `~/.local/state/carto` for its ledger; uninstall
    put every file back and left those folders (and `~/.local`) behind. They go now when they
    hold nothing; a home holding what was recorded stays, and says so."""
    user = tmp_path / "user"
    user.mkdir()
    for name in ("CARTO_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(user))
    before = _tree(user)
    runner = CliRunner()
    assert runner.invoke(cli, ["install", "claude"]).exit_code == 0
    home = user / ".local" / "share" / "carto"
    assert home.is_dir() and (user / ".local" / "state" / "carto").is_dir()
    if recorded:
        (home / "changelog.jsonl").write_text('{"event_id": "evt-x"}\n')
    done = runner.invoke(cli, ["uninstall", "claude"])
    assert done.exit_code == 0, done.output
    if recorded:
        assert f"{home}: kept (the home holds what was recorded)" in done.output
        assert _tree(user) == sorted([*before, ".local", ".local/share", ".local/share/carto",
                                      ".local/share/carto/changelog.jsonl"])
    else:
        assert f"{home}: removed (carto had made it, and it held nothing)" in done.output
        assert _tree(user) == before
