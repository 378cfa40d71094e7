"""Codex hook trust: the hash and key Codex computes, config.toml edits that change only carto's
trust entries, `carto install codex --trust` and `carto uninstall codex`.

The hash vectors were read from the genuine Codex CLI 0.169.0 (`codex app-server`, `hooks/list`,
tests/realclient/appserver.py) for the hooks in VECTOR_HOOKS; the realclient tier checks carto's
own installed handlers against the live client the same way.
"""

from __future__ import annotations

import json
import tomllib

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from carto_codex import install as installer
from carto_codex import trust
from carto_core.cli import cli

VECTORS = [
    # (event, matcher, handler, hash reported by Codex 0.169.0)
    ("PostToolUse", "Bash|apply_patch", {"type": "command", "command": "carto hook codex PostToolUse", "timeout": 10},
     "sha256:e856e90a04ba39f6f7b142b639f55ccfd7baac29b3ae4fdf2ad941ecbe7e8360"),
    ("PostToolUse", "Bash|apply_patch", {"type": "command", "command": "echo 'é \"q\"' ", "statusMessage": "checking",
                                         "async": True},
     "sha256:7908ac59d60597a8c10e0c90d6fdf387562e868b7753f2c40081f10a53209b23"),
    ("SessionStart", "startup", {"type": "command", "command": "/opt/my env/bin/carto hook codex SessionStart",
                                 "timeout": 0},
     "sha256:39c0f7ff99619bebab0a888ffad9a9dc5f003f976036c8413556e7bce2a57e22"),
    ("SessionEnd", None, {"type": "command", "command": "y", "timeout": 30},
     "sha256:788e077fe3d817ba610edbe0355249ded49bbaa5995a9139af080bab58bbf55c"),
    ("UserPromptSubmit", "ignored", {"type": "command", "command": "x"},
     "sha256:9f83d2c9d1b48d3700283cd1d70b9fc7ad739f3245049d933978e90187ee8a84"),
    ("SubagentStop", "general", {"type": "command", "command": "z", "timeout": 7},
     "sha256:54a770188bc58eb1f006a4d56cbb008a6daeda3c722a06b8bf86d6aa42cda5d4"),
    ("Stop", None, {"type": "command", "command": "carto hook codex Stop", "timeout": 5},
     "sha256:af4026dcc09fd425884ebf5d8e07e25452140444f0b836dccd54398b371d4f4c"),
]


@pytest.mark.parametrize("event, matcher, handler, expected", VECTORS)
def test_hash_is_the_clients(event, matcher, handler, expected):
    assert trust.handler_hash(event, matcher, handler) == expected


def test_key_is_path_label_and_positions(tmp_path):
    assert trust.event_label("PostToolUse") == "post_tool_use"
    assert trust.event_label("SubagentStop") == "subagent_stop"
    assert trust.hook_key(tmp_path / "hooks.json", "PreToolUse", 2, 1) == f"{tmp_path}/hooks.json:pre_tool_use:2:1"


def codex_home(tmp_path, monkeypatch, config: str = 'model = "gpt-5.5"\n# keep me\n') -> "Path":  # noqa: F821
    home = tmp_path / "codex"
    home.mkdir()
    (home / "config.toml").write_text(config)
    monkeypatch.setenv("CODEX_HOME", str(home))
    return home


def review_now(home):
    settings = json.loads((home / "hooks.json").read_text())
    return trust.review(home / "hooks.json", settings, tomllib.loads((home / "config.toml").read_text()))


def test_install_trust_records_carto_handlers_only_and_says_so_first(tmp_path, monkeypatch):
    home = codex_home(tmp_path, monkeypatch)
    mine = {"matcher": "Bash", "hooks": [{"type": "command", "command": "my-linter", "timeout": 5}]}
    (home / "hooks.json").write_text(json.dumps({"hooks": {"PostToolUse": [mine]}}))
    done = CliRunner().invoke(cli, ["install", "codex", "--trust"])
    assert done.exit_code == 0, done.output
    # The list of what will be trusted comes before the report of the write.
    assert done.output.index("carto will trust these handlers") < done.output.index("updated")
    text = (home / "config.toml").read_text()
    assert text.startswith('model = "gpt-5.5"\n# keep me\n')
    entries = review_now(home)
    assert entries and {e["status"] for e in entries} == {"trusted"}
    state = trust.trust_states(tomllib.loads(text))
    assert set(state) == {e["key"] for e in entries}
    assert f"{home}/hooks.json:post_tool_use:0:0" not in state  # the user's own hook
    again = CliRunner().invoke(cli, ["install", "codex", "--trust"])
    assert "already trusted" in again.output and (home / "config.toml").read_text() == text


def test_install_trust_does_not_ask_for_the_trust_it_just_recorded(tmp_path, monkeypatch):
    """`carto install codex --trust` ended with the note for an untrusted install: "Trust carto's
    hooks once: run `codex` ... and approve them under /hooks, or run `carto install codex
    --trust`", the command just run. Trusted, it says what the trust is good for and what
    resets it; --print --trust, which records nothing, still says how to trust."""
    codex_home(tmp_path, monkeypatch)
    done = CliRunner().invoke(cli, ["install", "codex", "--trust"])
    assert done.exit_code == 0, done.output
    assert "approve them under /hooks" not in done.output and "or run `carto install codex --trust`" not in done.output
    assert "resets that trust" in done.output and "carto doctor" in done.output
    dry = CliRunner().invoke(cli, ["install", "codex", "--trust", "--print", "--hooks-file", str(tmp_path / "other.json")])
    assert dry.exit_code == 0 and "approve them under /hooks" in dry.output, dry.output


def test_trust_is_never_recorded_without_the_flag(tmp_path, monkeypatch):
    home = codex_home(tmp_path, monkeypatch)
    before = (home / "config.toml").read_text()
    done = CliRunner().invoke(cli, ["install", "codex"])
    assert done.exit_code == 0 and "--trust" in done.output and "codex exec" in done.output
    assert (home / "config.toml").read_text() == before
    assert {e["status"] for e in review_now(home)} == {"untrusted"}


def test_a_changed_handler_is_modified_until_trusted_again(tmp_path, monkeypatch):
    home = codex_home(tmp_path, monkeypatch)
    CliRunner().invoke(cli, ["install", "codex", "--trust"])
    data = json.loads((home / "hooks.json").read_text())
    data["hooks"]["Stop"][0]["hooks"][0]["timeout"] = 9
    (home / "hooks.json").write_text(json.dumps(data))
    statuses = {e["event"]: e["status"] for e in review_now(home)}
    assert statuses["Stop"] == "modified" and statuses["SessionStart"] == "trusted"


def test_uninstall_forgets_carto_trust_and_moves_the_users(tmp_path, monkeypatch):
    home = codex_home(tmp_path, monkeypatch)
    original_config = (home / "config.toml").read_text()
    CliRunner().invoke(cli, ["install", "codex", "--trust"])
    # The user adds a hook after carto's groups and trusts it (as /hooks would).
    data = json.loads((home / "hooks.json").read_text())
    mine = {"matcher": "Bash", "hooks": [{"type": "command", "command": "my-linter", "timeout": 5}]}
    data["hooks"]["PostToolUse"].append(mine)
    (home / "hooks.json").write_text(json.dumps(data))
    position = len(data["hooks"]["PostToolUse"]) - 1
    old_key = trust.hook_key(home / "hooks.json", "PostToolUse", position, 0)
    user_hash = trust.handler_hash("PostToolUse", "Bash", mine["hooks"][0])
    with (home / "config.toml").open("a") as handle:
        handle.write(f'\n[hooks.state."{old_key}"]\ntrusted_hash = "{user_hash}"\n')
    done = CliRunner().invoke(cli, ["uninstall", "codex"])
    assert done.exit_code == 0, done.output
    assert json.loads((home / "hooks.json").read_text()) == {"hooks": {"PostToolUse": [mine]}}
    state = trust.trust_states(tomllib.loads((home / "config.toml").read_text()))
    assert state == {trust.hook_key(home / "hooks.json", "PostToolUse", 0, 0): {"trusted_hash": user_hash}}
    again = CliRunner().invoke(cli, ["uninstall", "codex"])
    assert again.exit_code == 0 and "nothing to change" in again.output
    # Without the user's hook, install then uninstall gives the config back byte for byte.
    (home / "hooks.json").unlink()
    (home / "config.toml").write_text(original_config)
    CliRunner().invoke(cli, ["install", "codex", "--trust"])
    CliRunner().invoke(cli, ["uninstall", "codex"])
    assert (home / "config.toml").read_text() == original_config
    assert not (home / "hooks.json").exists() or json.loads((home / "hooks.json").read_text()) == {}


def test_trust_refuses_a_config_it_cannot_edit_safely(tmp_path, monkeypatch):
    home = codex_home(tmp_path, monkeypatch, config="model = [unclosed\n")
    done = CliRunner().invoke(cli, ["install", "codex", "--trust"])
    assert done.exit_code == 4 and "not valid TOML" in done.output
    assert (home / "config.toml").read_text() == "model = [unclosed\n"
    # A carto key already written inline is not rewritten (the user's form wins).
    CliRunner().invoke(cli, ["uninstall", "codex"])
    hooks = home / "hooks.json"
    CliRunner().invoke(cli, ["install", "codex"])
    key = trust.review(hooks, json.loads(hooks.read_text()), {})[0]["key"]
    inline = f'hooks = {{ state = {{ "{key}" = {{ enabled = true }} }} }}\n'
    (home / "config.toml").write_text(inline)
    done = CliRunner().invoke(cli, ["install", "codex", "--trust"])
    assert done.exit_code == 4 and "inline" in done.output
    assert (home / "config.toml").read_text() == inline


keys = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=30)
others = st.dictionaries(st.from_regex(r"[a-z]{1,8}", fullmatch=True),
                         st.one_of(st.integers(), st.text(max_size=10), st.booleans()), max_size=4)


@settings(max_examples=60, deadline=None)
@given(existing=st.dictionaries(keys, st.text(min_size=1, max_size=12), max_size=3), new=st.lists(keys, max_size=4),
       top=others)
def test_trust_edits_change_only_the_named_entries(tmp_path_factory, existing, new, top):
    """Whatever else config.toml holds (top-level keys, other keys' trust), setting trust for
    some keys and then forgetting them leaves the rest of the parsed document as it was."""
    from carto_core.util.tomltext import toml_string

    path = tmp_path_factory.mktemp("cfg") / "config.toml"
    def literal(value):
        return str(value).lower() if isinstance(value, bool) else (
            toml_string(value) if isinstance(value, str) else str(value))

    text = "".join(f"{k} = {literal(v)}\n" for k, v in top.items())
    for key, value in existing.items():
        text += f"\n[hooks.state.{toml_string(key)}]\ntrusted_hash = {toml_string(value)}\n"
    path.write_text(text)
    before = tomllib.loads(text)
    entries = [{"key": k, "hash": f"sha256:{i}", "status": "untrusted", "command": "c"}
               for i, k in enumerate(dict.fromkeys(new))]
    trust.trust(path, entries)
    after = tomllib.loads(path.read_text())
    expected = json.loads(json.dumps(before))
    for entry in entries:
        expected.setdefault("hooks", {}).setdefault("state", {}).setdefault(entry["key"], {})["trusted_hash"] = entry["hash"]
    assert after == expected


@pytest.mark.parametrize("text", ['{"hooks": [', "[1]", '{"hooks": {"Stop": "x"}}'])
def test_install_trust_refuses_a_hooks_file_it_cannot_merge_into_in_one_line(tmp_path, monkeypatch, text):
    home = codex_home(tmp_path, monkeypatch)
    (home / "hooks.json").write_text(text)
    done = CliRunner().invoke(cli, ["install", "codex", "--trust"])
    assert done.exit_code == 4, done.output
    assert "Traceback" not in done.output and len(done.output.strip().splitlines()) == 1
    assert (home / "hooks.json").read_text() == text
