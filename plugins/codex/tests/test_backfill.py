"""Codex backfill: samples against an independent scan, idempotence, resume, bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from carto_core.cli import cli
from carto_core.logio.home import Home
from carto_core.ingest.runner import run_ingest
from carto_core.logio.logs import SHAPES
from carto_core.logio.reader import iter_lines
from carto_core.util.timeparse import parse_when

from carto_codex.rollout import parse_rollout
from carto_codex.source import CodexRolloutSource

sys.path.insert(0, str(Path(__file__).parent))
from _codex_rollouts import (assistant_item, line, meta, turn_complete, user_event,  # noqa: E402
                             user_item, write_rollout)

# Written here independently of the parser: formats.md section 2.2 and 2.5.
DOCUMENTED_KINDS = {"session_meta", "turn_context", "response_item", "event_msg", "compacted",
                    "world_state", "inter_agent_communication", "inter_agent_communication_metadata"}
SCAFFOLDS = ("<environment_context>", "# AGENTS.md instructions for", "<INSTRUCTIONS>",
             "<permissions instructions>", "<user_instructions>")


def independent_scan(root: Path) -> tuple[dict[str, int], Counter, dict[str, str]]:
    """Prompts per session, unknown kinds, parent of each child: a plain reading of the files."""
    files = sorted(root.rglob("rollout-*.jsonl"))
    raw_lines = {f: [l for l in f.read_text("utf-8").splitlines() if l.strip()] for f in files}
    sid_of = {}
    parent_of = {}
    for f, lines in raw_lines.items():
        first = json.loads(lines[0])["payload"]
        sid_of[f] = first["id"]
        source = first.get("source")
        if isinstance(source, dict):
            parent_of[first["id"]] = source["subagent"]["thread_spawn"]["parent_thread_id"]
    file_of = {sid: f for f, sid in sid_of.items()}
    prompts: dict[str, int] = {}
    unknown: Counter = Counter()
    for f, lines in raw_lines.items():
        sid = sid_of[f]
        replayed = set(raw_lines[file_of[parent_of[sid]]]) if sid in parent_of else set()
        count = 0
        for text in lines[1:]:
            if text in replayed:
                continue
            row = json.loads(text)
            if row["type"] not in DOCUMENTED_KINDS:
                unknown[row["type"]] += 1
            payload = row.get("payload", {})
            if row["type"] == "event_msg" and payload.get("type") == "user_message":
                if not payload["message"].lstrip().startswith(SCAFFOLDS):
                    count += 1
        prompts[sid] = count
    return prompts, unknown, parent_of


def turns_of(home: Home) -> list[dict]:
    return [l.row for l in iter_lines(home.log("turns"))]


def ingest(home: Home, roots, **options):
    return run_ingest(CodexRolloutSource({"roots": [str(r) for r in roots], **options}), home)


def test_every_sample_ingests_with_counts_equal_to_an_independent_scan(codex_home, tmp_path):
    home = Home(tmp_path / "home")
    summary = ingest(home, [codex_home], settle_seconds=0)
    prompts, unknown, parent_of = independent_scan(codex_home)
    rows = turns_of(home)
    assert Counter(r["session"] for r in rows) == Counter({s: n for s, n in prompts.items() if n})
    assert sum(prompts.values()) == len(rows) == summary.written["turns"] == 4
    assert {k.removeprefix("unknown_type:"): v for k, v in summary.skipped.items()
            if k.startswith("unknown_type:")} == dict(unknown)
    assert summary.streams == len(list(codex_home.rglob("rollout-*.jsonl")))
    for row in rows:
        assert row["event_id"] == f"turn-codex-{row['session']}-{row['turn_idx']}"
        assert list(row)[:len(SHAPES["turns"])] == list(SHAPES["turns"])
        assert row["provider"] == "codex" and row["type"] == "transcript"
        assert row["project"] == "synthetic-project"
        assert Path(row["transcript_path"]).is_file()
        assert row.get("parent_session") == parent_of.get(row["session"])
        assert "SYNTHETIC_ENCRYPTED_CONTENT" not in row["summary"]
    first = next(r for r in rows if r["session"].startswith("1111"))
    # The prompt once (its response_item mirror is not a second turn), the answer, the tools.
    assert first["summary"].count("List the synthetic files.") == 1
    assert "apply_patch gamma.txt" in first["summary"] and "exec_command find" in first["summary"]
    child = next(r for r in rows if r["session"].startswith("3333"))
    assert "Spawn a synthetic researcher" not in child["summary"]  # the replayed parent prompt
    assert summary.skipped["replayed_parent_line"] == 2


def test_rerun_is_idempotent_even_without_checkpoints(codex_home, tmp_path):
    home = Home(tmp_path / "home")
    ingest(home, [codex_home], settle_seconds=0)
    before = home.log("turns").read_bytes()
    again = ingest(home, [codex_home], settle_seconds=0)
    assert (again.units, again.rows_written) == (0, 0)  # every rollout skipped by checkpoint
    (home.state / "checkpoints" / "codex.json").unlink()
    lost = ingest(home, [codex_home], settle_seconds=0)
    assert lost.rows_written == 0 and lost.already_present == 4
    assert home.log("turns").read_bytes() == before


def test_archiving_a_read_rollout_rereads_nothing(codex_home, tmp_path):
    home = Home(tmp_path / "home")
    ingest(home, [codex_home], settle_seconds=0)
    live = next((codex_home / "sessions").rglob("*11111111*.jsonl"))
    live.rename(codex_home / "archived_sessions" / live.name)  # rename keeps size and mtime
    again = ingest(home, [codex_home], settle_seconds=0)
    assert (again.units, again.rows_written, again.already_present) == (0, 0, 0)


def test_scaffolding_never_starts_a_turn_in_either_prompt_source(tmp_path):
    scaffolds = ["<environment_context>\n  <cwd>/x</cwd>\n</environment_context>",
                 "# AGENTS.md instructions for /x\n\nBe nice.", "<user_instructions>u</user_instructions>",
                 "<permissions instructions>p</permissions instructions>"]
    root = tmp_path / "codex"
    # Older writer: prompts only as response_item user messages.
    write_rollout(root, "aaaaaaaa-0000-4000-8000-000000000001", [
        meta("aaaaaaaa-0000-4000-8000-000000000001", str(tmp_path / "proj")),
        *[user_item(s) for s in scaffolds], user_item("fix the parser"), assistant_item("done"),
    ])
    # Current writer: response_item mirror and event_msg for the same prompt.
    write_rollout(root, "aaaaaaaa-0000-4000-8000-000000000002", [
        meta("aaaaaaaa-0000-4000-8000-000000000002", str(tmp_path / "proj")),
        *[user_item(s) for s in scaffolds], user_event("first"), user_item("first"),
        assistant_item("a1"), user_event(scaffolds[0]), user_event("second"), user_item("second"),
    ])
    home = Home(tmp_path / "home")
    summary = ingest(home, [root], settle_seconds=0)
    rows = {r["event_id"]: r["summary"] for r in turns_of(home)}
    assert rows == {
        "turn-codex-aaaaaaaa-0000-4000-8000-000000000001-1": "fix the parser done",
        "turn-codex-aaaaaaaa-0000-4000-8000-000000000002-1": "first a1",
        "turn-codex-aaaaaaaa-0000-4000-8000-000000000002-2": "second",
    }
    assert summary.skipped["scaffolding"] == 4 + 4 + 1


def test_a_live_rollout_writes_its_open_last_turn_and_rewrites_it_when_closed(tmp_path):
    sid = "bbbbbbbb-0000-4000-8000-000000000001"
    root = tmp_path / "codex"
    now = fresh_stamp()  # a live session: fresh file, fresh records
    lines = [meta(sid, str(tmp_path / "proj"), now), user_event("one", now), assistant_item("r1", now),
             user_event("two", now), assistant_item("r2 partial", now)]
    path = write_rollout(root, sid, lines, old=False)
    home = Home(tmp_path / "home")
    first = ingest(home, [root])  # default settle: a fresh file is still being written
    assert [(r["summary"], r.get("open")) for r in turns_of(home)] == [
        ("one r1", None), ("two r2 partial", True)]
    assert first.open_rows == 1 and first.open_until is not None
    assert ingest(home, [root]).rows_written == 0  # unchanged: the open turn is not repeated
    with open(path, "a") as handle:
        handle.write(assistant_item("r2 rest") + "\n" + turn_complete() + "\n")
        handle.write(user_event("three") + "\n" + assistant_item("r3") + "\n" + turn_complete() + "\n")
    second = ingest(home, [root])
    assert [(r["turn_idx"], r["summary"], r.get("open")) for r in turns_of(home)] == [
        (1, "one r1", None), (2, "two r2 partial", True), (2, "two r2 partial r2 rest", None),
        (3, "three r3", None)]
    # Resumed at turn two (nothing before it read twice); turn two written again, closed.
    assert second.already_present == 0 and second.revised == 1 and second.open_rows == 0
    from carto_core.model.corpus import load_corpus

    corpus = load_corpus(home)
    assert [(e.event_id, e.summary) for e in corpus.events] == [
        (f"turn-codex-{sid}-1", "one r1"), (f"turn-codex-{sid}-2", "two r2 partial r2 rest"),
        (f"turn-codex-{sid}-3", "three r3")]


def fresh_stamp() -> str:
    import time

    return time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())


def test_truncated_rollout_via_cli_writes_only_whole_turns(tmp_path):
    sid = "cccccccc-0000-4000-8000-000000000001"
    root = tmp_path / "codex"
    path = write_rollout(root, sid, [meta(sid, str(tmp_path / "proj")), user_event("whole"),
                                     assistant_item("fine"), user_event("cut")])
    full = path.read_bytes()
    path.write_bytes(full + assistant_item("never fin").encode()[:25])  # no newline: torn
    result = CliRunner().invoke(cli, ["ingest", "codex", "--root", str(root), "--settle", "0", "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    # The torn line is not read; its turn is written as it stands, open (a torn rollout is
    # not finished, whatever --settle says).
    assert document["skipped"]["torn_line"] == 1 and document["rows_written"] == 2
    assert document["open_turns"] == 1
    assert "cut short" in result.stderr
    home = Home(os.environ["CARTO_HOME"])
    assert [(r["summary"], r.get("open")) for r in turns_of(home)] == [("whole fine", None), ("cut", True)]
    # Once the writer finishes the line, that turn is written again (closed), and only it.
    path.write_bytes(full + assistant_item("never finished").encode() + b"\n")
    again = CliRunner().invoke(cli, ["ingest", "codex", "--root", str(root), "--settle", "0", "--json"])
    assert again.exit_code == 0
    assert (json.loads(again.stdout)["rows_written"], json.loads(again.stdout)["revised"]) == (1, 1)
    assert [r["summary"] for r in turns_of(home)] == ["whole fine", "cut", "cut never finished"]


def test_a_file_that_is_not_a_rollout_is_an_error_and_writes_nothing(tmp_path):
    root = tmp_path / "codex"
    root.mkdir()
    (root / "rollout-notes.jsonl").write_text("not json at all\n{\"a\": 1}\n")
    result = CliRunner().invoke(cli, ["ingest", "codex", "--root", str(root), "--settle", "0"])
    assert result.exit_code == 1
    assert "not a Codex rollout" in result.stderr
    assert not Home(os.environ["CARTO_HOME"]).log("turns").exists()


def test_no_rollouts_exits_3_and_bad_since_exits_2(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    assert CliRunner().invoke(cli, ["ingest", "codex", "--root", str(empty)]).exit_code == 3
    bad = CliRunner().invoke(cli, ["ingest", "codex", "--root", str(empty), "--since", "someday"])
    assert bad.exit_code == 2 and "--since" in bad.stderr


def test_since_skips_rollouts_not_modified_since(codex_home, tmp_path):
    for path in codex_home.rglob("rollout-*.jsonl"):
        os.utime(path, (946_684_800, 946_684_800))  # 2000-01-01
    fresh = next(codex_home.rglob("*55555555*.jsonl"))
    os.utime(fresh, None)
    summary = ingest(Home(tmp_path / "h"), [codex_home], settle_seconds=0, since=parse_when("1d"))
    assert summary.streams == 1 and summary.written["turns"] == 1


def _git(*args, cwd):
    env = {**os.environ, "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_SYSTEM": "/dev/null",
           "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@example.com"}
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)


def test_project_inference_cwd_then_workdir_then_unknown(tmp_path):
    repo = tmp_path / "shop"
    repo.mkdir()
    _git("init", "-q", cwd=repo)
    _git("commit", "-q", "--allow-empty", "-m", "init", cwd=repo)
    _git("worktree", "add", "-q", str(tmp_path / "wt" / "feature"), cwd=repo)
    root = tmp_path / "codex"
    home_dir = os.path.expanduser("~")

    def call(workdir):
        return line("response_item", {"type": "function_call", "name": "exec_command",
                                      "arguments": json.dumps({"cmd": "ls", "workdir": workdir}),
                                      "call_id": "c"})

    cases = {
        "dddddddd-0000-4000-8000-000000000001": ([meta("dddddddd-0000-4000-8000-000000000001", str(tmp_path / "wt" / "feature"))], "shop"),
        "dddddddd-0000-4000-8000-000000000002": ([meta("dddddddd-0000-4000-8000-000000000002", home_dir),
                                                  user_event("x"), call(str(repo)), call(str(repo)), call("/srv/other")], "shop"),
        "dddddddd-0000-4000-8000-000000000003": ([meta("dddddddd-0000-4000-8000-000000000003", "/")], "unknown"),
    }
    for sid, (lines, _) in cases.items():
        write_rollout(root, sid, [*lines, user_event("go")])
    home = Home(tmp_path / "home")
    ingest(home, [root], settle_seconds=0)
    projects = {r["session"]: r["project"] for r in turns_of(home)}
    assert projects == {sid: expected for sid, (_, expected) in cases.items()}


def test_child_replay_dropped_by_time_when_parent_rollout_is_gone(codex_home, tmp_path):
    parent = next(codex_home.rglob("*22222222*.jsonl"))
    parent.unlink()
    home = Home(tmp_path / "home")
    summary = ingest(home, [codex_home], settle_seconds=0)
    child = [r for r in turns_of(home) if r["session"].startswith("3333")]
    assert [r["summary"] for r in child] == ["Inspect fixtures. The fixtures are fully synthetic."]
    assert summary.skipped["replayed_parent_line"] == 2


texts = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=30)
prompt_kinds = st.lists(st.tuples(st.sampled_from(["prompt", "scaffold", "answer", "unknown"]), texts),
                        max_size=25)


@settings(max_examples=60, deadline=None)
@given(prompt_kinds)
def test_turns_equal_real_prompts_in_any_interleaving(items):
    sid = "eeeeeeee-0000-4000-8000-000000000001"
    lines = [meta(sid, "/nowhere/p")]
    expected = 0
    unknown = 0
    for kind, text in items:
        if kind == "prompt" and text.strip() and not text.lstrip().startswith(SCAFFOLDS):
            lines.append(user_event(text))
            expected += 1
        elif kind == "scaffold":
            lines.append(user_event("<environment_context>" + text))
            lines.append(user_item("# AGENTS.md instructions for " + text))
        elif kind == "answer":
            lines.append(assistant_item(text))
        elif kind == "unknown":
            lines.append(line("future_" + str(len(text)), {"x": text}))
            unknown += 1
    result = parse_rollout("".join(l + "\n" for l in lines).encode())
    assert len(result.turns) == expected
    assert sum(v for k, v in result.skipped.items() if k.startswith("unknown_type:")) == unknown
    assert result.state.session == sid


def test_package_root_stays_import_light():
    # The live hook imports carto_codex.capture on every tool call: the package root must not
    # pull in pluggy, click or orjson.
    code = ("import sys, carto_codex; heavy = {'pluggy', 'click', 'orjson', 'attrs'} & set(sys.modules);"
            " print(sorted(heavy))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_since_from_the_config_file_uses_the_when_grammar(codex_home, tmp_path, monkeypatch):
    config = tmp_path / "config.toml"
    config.write_text(f'[sources.codex]\nsince = "1d"\nsettle_seconds = 0\nroots = ["{codex_home}"]\n')
    monkeypatch.setenv("CARTO_CONFIG", str(config))
    for path in codex_home.rglob("rollout-*.jsonl"):
        os.utime(path, (946_684_800, 946_684_800))  # 2000-01-01
    os.utime(next(codex_home.rglob("*55555555*.jsonl")), None)
    result = CliRunner().invoke(cli, ["ingest", "codex", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["streams"] == 1


def test_bytes_that_are_not_utf8_cost_only_themselves(tmp_path):
    sid = "abababab-0000-4000-8000-000000000001"
    root = tmp_path / "codex"
    path = write_rollout(root, sid, [meta(sid, "/x/p")])
    with open(path, "ab") as handle:
        handle.write(b'{"timestamp":"2026-02-01T10:00:01Z","type":"event_msg","payload":'
                     b'{"type":"user_message","message":"caf\xe9 order"}}\n')
    os.utime(path, (946_684_800, 946_684_800))
    home = Home(tmp_path / "home")
    summary = ingest(home, [root])
    assert [r["summary"] for r in turns_of(home)] == ["caf\ufffd order"]
    assert summary.skipped["invalid_utf8_replaced"] == 1


def test_a_spawn_agent_call_is_a_subagent_as_a_claude_task_call_is(codex_home, tmp_path):
    """The sample parent thread's spawn_agent call, and one naming a role: each a
    `milestone_agent_<role>` in the session's facts (Codex's role `default` when the call names
    none), the event a Claude Task/Agent call stands for."""
    write_rollout(codex_home / "sessions" / "2026" / "02" / "01", "eeeeeeee-0000-4000-8000-000000000001", [
        meta("eeeeeeee-0000-4000-8000-000000000001", "/w/zoo"), user_event("ask two explorers"),
        line("response_item", {"type": "function_call", "name": "spawn_agent", "namespace": "collaboration",
                               "arguments": json.dumps({"message": "map the aviary", "agent_type": "explorer"}),
                               "call_id": "c1"}),
        line("response_item", {"type": "function_call", "name": "spawn_agent",
                               "arguments": json.dumps({"message": "map the reptile house", "agent_type": "explorer",
                                                        "task_name": "reptiles"}), "call_id": "c2"}),
        assistant_item("both mapped"), turn_complete()])
    home = Home(tmp_path / "home")
    ingest(home, [codex_home], settle_seconds=0)
    zoo = next(r for r in turns_of(home) if r["session"].startswith("eeeeeeee"))
    assert [(t["name"], t.get("agent_type")) for t in zoo["tools"]] == [("spawn_agent", "explorer")] * 2
    result = CliRunner().invoke(cli, ["standup", "--since", "3650d", "--no-git", "--json"],
                                env={"CARTO_HOME": str(home.root)})
    assert result.exit_code == 0, result.output
    sessions = {s["id"]: s for s in json.loads(result.stdout)["sessions"]}
    parent = sessions["22222222-2222-4222-8222-222222222222"]
    assert parent["evidence"] == "turns"
    assert {t: n for t, n in parent["types"].items() if t.startswith("milestone_agent_")} == {
        "milestone_agent_default": 1}
    assert {t: n for t, n in sessions["eeeeeeee-0000-4000-8000-000000000001"]["types"].items()
            if t.startswith("milestone_agent_")} == {"milestone_agent_explorer": 2}
    digest = CliRunner().invoke(cli, ["digest", "session", "--session", "22222222", "--json"],
                                env={"CARTO_HOME": str(home.root)})
    assert json.loads(digest.stdout)["counts"]["subagents"] == 1


KILN_PARENT, KILN_CHILD = "01a24461-b764-7ce1-8d16-10f232b0c78a", "01a24461-b87f-7320-bdc0-899631153aab"


def activity_0_169(kind: str, item_id: str, ts: str) -> str:
    """An `item_completed` event's SubAgentActivity, as the genuine 0.169 parent rollout holds it."""
    return line("event_msg", {"type": "item_completed", "thread_id": KILN_PARENT, "item": {
        "type": "SubAgentActivity", "model": None, "reasoning_effort": None, "id": item_id, "kind": kind,
        "agent_thread_id": KILN_CHILD, "agent_path": "/root/kiln"}}, ts)


def write_kiln_parent(folder: Path, *extra: str) -> Path:
    """A 0.169 parent rollout: one spawn_agent call, linked to KILN_CHILD, then `extra`."""
    return write_rollout(folder, KILN_PARENT, [
        meta(KILN_PARENT, "/w/kiln", "2026-12-05T04:06:24.000Z"),
        user_event("fire the kiln in a sub-agent", "2026-12-05T04:06:24.100Z"),
        line("response_item", {"type": "function_call", "name": "spawn_agent", "namespace": "collaboration",
                               "arguments": json.dumps({"message": "fire the kiln", "task_name": "kiln"}),
                               "call_id": "call_0_1"}, "2026-12-05T04:06:24.600Z"),
        activity_0_169("started", "call_0_1", "2026-12-05T04:06:24.650Z"),
        *extra,
        assistant_item("the kiln is fired", "2026-12-05T04:06:25.400Z"), turn_complete("2026-12-05T04:06:25.500Z"),
    ], date="2026-12-05T04-06-24")


def test_a_0_169_sub_agent_thread_hangs_under_the_spawn_agent_call_that_started_it(tmp_path):
    """Codex 0.169 links a spawn_agent call to the thread it started with an `item_completed`
    event (`SubAgentActivity`, `kind: "started"`, `agent_thread_id`; shape of the genuine
    client's parent rollout, docs/providers/codex.md), no `collab_tool_call`: `carto session
    --tree` hangs the child under that call. The `completed` activity (an id of its own) links
    nothing."""
    parent, child = KILN_PARENT, KILN_CHILD
    folder = tmp_path / "codex" / "sessions" / "2026" / "12" / "05"
    write_kiln_parent(folder, activity_0_169("completed", "subagent-completed-01a24461-b88e", "2026-12-05T04:06:25.300Z"))
    write_rollout(folder, child, [
        meta(child, "/w/kiln", "2026-12-05T04:06:24.649Z", parent_thread_id=parent,
             source={"subagent": {"thread_spawn": {"parent_thread_id": parent, "depth": 1,
                                                   "agent_path": "/root/kiln"}}}),
        user_event("fire the kiln", "2026-12-05T04:06:24.700Z"),
        assistant_item("kiln at 1200 degrees", "2026-12-05T04:06:25.000Z"), turn_complete("2026-12-05T04:06:25.100Z"),
    ], date="2026-12-05T04-06-24")
    home = Home(tmp_path / "home")
    ingest(home, [tmp_path / "codex"], settle_seconds=0)
    env = {"CARTO_HOME": str(home.root)}
    result = CliRunner().invoke(cli, ["session", parent, "--tree", "--json"], env=env)
    assert result.exit_code == 0, result.output
    tree = json.loads(result.stdout)["tree"]
    (call,) = tree["turns"][0]["tools"]
    assert (call["name"], call["spawned"]) == ("spawn_agent", f"turn-codex-{child}-1")
    assert call["agent"]["session_id"] == child and call["agent"]["kind"] == "thread"
    assert call["agent"]["spawned_by"] == call["event_id"] and tree["agents"] == []
    assert call["agent"]["transcript_path"].endswith(f"{child}.jsonl")


def test_a_0_169_sub_agent_thread_has_turns_from_the_messages_its_parent_sends(tmp_path):
    """A 0.169 sub-agent's rollout holds no user_message: its task is a `response_item/
    agent_message` to its own path after `inter_agent_communication_metadata {trigger_turn:
    true}` (the genuine client's shape, docs/providers/codex.md). That message starts its turn,
    whose prompt is the message's text blocks (never its `encrypted_content`); a message that
    triggers no turn (a grandchild's answer) or is sent to another agent starts none; a read
    resumed mid-turn numbers it the same. The thread then hangs under its spawn_agent call."""
    from carto_codex.rollout import read_rollout

    parent, child = KILN_PARENT, KILN_CHILD
    folder = tmp_path / "codex" / "sessions" / "2026" / "12" / "05"

    def message(author: str, recipient: str, header: str, secret: str, trigger: bool, ts: str) -> list[str]:
        return [line("inter_agent_communication_metadata", {"trigger_turn": trigger}, ts),
                line("response_item", {"type": "agent_message", "author": author, "recipient": recipient,
                                       "content": [{"type": "input_text", "text": header},
                                                   {"type": "encrypted_content", "encrypted_content": secret}]}, ts)]

    write_kiln_parent(folder, *message("/root/kiln", "/root", "Message Type: FINAL_ANSWER Payload: kiln fired", "x",
                                       False, "2026-12-05T04:06:25.300Z"))
    head = [
        meta(child, "/w/kiln", "2026-12-05T04:06:24.649Z", parent_thread_id=parent, agent_path="/root/kiln",
             source={"subagent": {"thread_spawn": {"parent_thread_id": parent, "depth": 1, "agent_path": "/root/kiln"}}}),
        user_item("<environment_context>\n  <cwd>/w/kiln</cwd>\n</environment_context>", "2026-12-05T04:06:24.660Z"),
        *message("/root", "/root/kiln", "Message Type: NEW_TASK\nTask name: /root/kiln\nSender: /root\nPayload:\n",
                 "ZW5jcnlwdGVkIGtpbG4=", True, "2026-12-05T04:06:24.698Z"),
        assistant_item("kiln at 1200 degrees", "2026-12-05T04:06:25.000Z"),
    ]
    tail = [*message("/root/kiln/glaze", "/root/kiln", "Message Type: FINAL_ANSWER Payload: glazed", "y", False,
                     "2026-12-05T04:06:25.050Z"),
            *message("/root", "/root/other", "Message Type: NEW_TASK Task name: /root/other", "z", True,
                     "2026-12-05T04:06:25.060Z"),
            turn_complete("2026-12-05T04:06:25.100Z")]
    rollout = write_rollout(folder, child, head, date="2026-12-05T04-06-24", old=False)
    first = read_rollout(rollout, None, settle_seconds=3600)  # the turn is open: read again from its start
    with open(rollout, "a", encoding="utf-8") as handle:
        handle.write("".join(l + "\n" for l in tail))
    again = read_rollout(rollout, first.checkpoint, settle_seconds=3600)
    assert [r["event_id"] for r in first.rows + again.rows] == [f"turn-codex-{child}-1"] * 2
    row = again.rows[0]
    assert row["summary"].startswith(
        "Message Type: NEW_TASK Task name: /root/kiln Sender: /root Payload: kiln at 1200 degrees")
    assert "ZW5jcnlwdGVk" not in row["summary"] and row["parent_session"] == parent

    home = Home(tmp_path / "home")
    ingest(home, [tmp_path / "codex"], settle_seconds=0)
    assert [r["event_id"] for r in turns_of(home)] == [f"turn-codex-{parent}-1", f"turn-codex-{child}-1"]
    result = CliRunner().invoke(cli, ["session", parent, "--tree", "--json"], env={"CARTO_HOME": str(home.root)})
    assert result.exit_code == 0, result.output
    (call,) = json.loads(result.stdout)["tree"]["turns"][0]["tools"]
    assert call["agent"]["session_id"] == child and call["agent"]["spawned_by"] == call["event_id"]
    assert [t["event_id"] for t in call["agent"]["turns"]] == [f"turn-codex-{child}-1"]
