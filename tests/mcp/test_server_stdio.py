"""`carto mcp` over stdio, driven by the MCP SDK's own client, checked against the CLI's --json.

Each test starts `python -m carto_core mcp` as a subprocess (the way an agent does), talks to it
with `ClientSession` + `stdio_client`, and compares what a tool answers with what `carto ... --json`
prints for the same call on the same temporary home (the CLI runs in-process via CliRunner).
"""

from __future__ import annotations

import json
import os
import sys
import time
from datetime import datetime
from pathlib import Path

import anyio
import pytest
from click.testing import CliRunner

import mcp  # noqa: F401,E402  (carto-core[mcp] is in requirements-dev.txt: a missing SDK fails, never skips)

from mcp import ClientSession, StdioServerParameters, stdio_client  # noqa: E402
from mcp.shared.exceptions import MCPError  # noqa: E402

from carto_core.cli import cli  # noqa: E402
from carto_core.evaluation.sample import SESSIONS, build_sample_home  # noqa: E402
from carto_core.privacy.envelope import unwrap  # noqa: E402

TOOL_NAMES = {"search", "get", "thread", "orient", "facts", "standup", "digest", "wrapup", "collision",
              "session_tree", "related", "handoff"}
# Keys that differ between two runs of the same call by construction (timing, call names).
VOLATILE = {"stages_ms", "call_id", "ms", "generated", "generated_at", "index_generation", "age_ms", "idle_ms"}


@pytest.fixture
def home(tmp_path):
    root = Path(os.environ["CARTO_HOME"])
    build_sample_home(root)
    return root


def serve(env_extra: dict | None = None, *args: str):
    env = dict(os.environ)
    env.update(env_extra or {})
    params = StdioServerParameters(command=sys.executable, args=["-m", "carto_core", "mcp", *args],
                                   env=env)
    return stdio_client(params, errlog=open(os.devnull, "w"))


def conversation(body, env_extra: dict | None = None, *args: str):
    async def main():
        async with serve(env_extra, *args) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                return await body(session)

    return anyio.run(main)


def cli_json(*argv: str, env: dict | None = None) -> tuple[int, dict]:
    result = CliRunner().invoke(cli, [*argv, "--json"], env=env, catch_exceptions=False)
    return result.exit_code, json.loads(result.stdout)


def scrub(value):
    if isinstance(value, dict):
        return {k: _reason(k, scrub(v)) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [scrub(v) for v in value]
    return value


def _reason(key, value):
    # The semantic ladder words its "not fitted" reason with an extra "unavailable: " prefix on
    # a cold engine's first call (the CLI) than on a warm one's later calls: same status.
    if key in ("reason", "semantic_status") and isinstance(value, str):
        return value.removeprefix("unavailable: ")
    return value


def stamps_within(document, window: tuple[float, float]) -> int:
    """Every call-time stamp in `document` (`generated_at`, and a wrapup row's `timestamp`)
    names a second between the start and the end of its call; returns how many there were."""
    found = 0

    def visit(value, key=None):
        nonlocal found
        if isinstance(value, dict):
            for name, item in value.items():
                visit(item, name)
            if key == "row" and isinstance(value.get("timestamp"), str):
                check(value["timestamp"])
        elif isinstance(value, list):
            for item in value:
                visit(item)
        elif key == "generated_at":
            check(value)

    def check(stamp: str):
        nonlocal found
        moment = datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()
        assert int(window[0]) <= moment <= window[1], (stamp, window)
        found += 1

    visit(document)
    return found


def without_page(document: dict) -> dict:
    return {k: v for k, v in document.items() if k != "page"}


def same_search(mcp_doc: dict, cli_doc: dict, seconds: float) -> None:
    """Same results, same order, same fields; scores equal up to the decay of the `seconds`
    measured between the two runs (at the fastest rate a default policy decays: a vague
    query's 0.2 per hour moves a score by 1e-4 in under 2 s, which a loaded machine spends
    between the MCP call and the CLI call)."""
    from carto_core.search.decay_knobs import decay_parameters

    rates = decay_parameters()
    fastest = max(rates["lambda_per_hour"], rates["vague_lambda"])
    a, b = scrub(without_page(mcp_doc)), scrub(cli_doc)
    assert [r["event_id"] for r in a["results"]] == [r["event_id"] for r in b["results"]]
    for left, right in zip(a.pop("results"), b.pop("results")):
        assert left.pop("score") == pytest.approx(right.pop("score"), rel=1e-4 + fastest * seconds / 3600)
        assert left == right
    assert a == b


def test_lists_tools_with_schemas_and_answers_like_the_cli(home):
    commit_row = next(json.loads(line) for line in (home / "changelog.jsonl").read_text().splitlines()
                      if json.loads(line).get("type") == "git_commit")

    async def body(session):
        listed = await session.list_tools()
        out = {"tools": {t.name: t for t in listed.tools}}
        calls = {
            "search": {"query": "rounding decimal"},
            "orient": {"project": "webshop"},
            "facts_census": {"verb": "census", "call_id": "same", "top": 5},
            "facts_tempo": {"verb": "tempo", "call_id": "same"},
            "thread": {"event_id": commit_row["event_id"]},
            "standup": {"no_git": True},
            "standup_commit": {"commit": "a41c2d9"},
            "collision": {"path": "/work/webshop/tests/test_cart.py", "session_id": SESSIONS["a"]},
            "collision_wide": {"path": "/work/webshop/src/cart.py", "session_id": SESSIONS["c"],
                               "window_minutes": 600},
        }
        for key, arguments in calls.items():
            called[key] = time.time()
            result = await session.call_tool(key.split("_")[0], arguments)
            assert not result.is_error, result.content[0].text
            # The text is the structured document, serialised inside the record envelope:
            # agents may read either.
            assert json.loads(unwrap(result.content[0].text)) == result.structured_content
            out[key] = result.structured_content
        ids = [r["event_id"] for r in out["search"]["results"]]
        got = await session.call_tool("get", {"ids": ids[:3]})
        out["get"] = got.structured_content
        return out

    called: dict[str, float] = {}
    out = conversation(body)
    tools = out["tools"]
    assert TOOL_NAMES <= set(tools)
    for tool in tools.values():
        assert tool.input_schema["type"] == "object" and tool.description
        assert {"max_chars", "cursor"} <= set(tool.input_schema["properties"])
    assert tools["search"].input_schema["required"] == ["query"]
    assert [n for n, t in tools.items() if not t.annotations.read_only_hint] == ["search", "wrapup", "decide"]

    code, cli_search = cli_json("search", "rounding decimal")
    assert code == 0 and cli_search["results"]
    same_search(out["search"], cli_search, time.time() - called["search"])

    assert scrub(without_page(out["orient"])) == scrub(cli_json("search", "--project", "webshop")[1])
    for verb in ("census", "tempo"):
        mcp_doc = without_page(out[f"facts_{verb}"])
        argv = ["facts", verb, "--call-id", "same"] + (["--top", "5"] if verb == "census" else [])
        code, cli_doc = cli_json(*argv)
        assert code == 0
        assert scrub(mcp_doc) == scrub(cli_doc)
    assert out["facts_census"]["facts"]["events"] == 22  # every sample event, counted once

    code, cli_thread = cli_json("search", "--thread", commit_row["event_id"])
    assert scrub(without_page(out["thread"])) == scrub(cli_thread)
    assert out["thread"]["thread"][0]["event_id"] == commit_row["event_id"]

    code, cli_standup = cli_json("standup", "--no-git")
    mine = without_page(out["standup"])
    assert [s["id"] for s in mine["sessions"]] == [s["id"] for s in cli_standup["sessions"]]
    assert scrub(mine["contention"]) == scrub(cli_standup["contention"])
    assert scrub(without_page(out["standup_commit"])) == scrub(cli_json("standup", "--commit", "a41c2d9")[1])
    assert out["standup_commit"]["commit"]["session_id"] == SESSIONS["a"]

    ids = [r["event_id"] for r in out["search"]["results"]][:3]
    code, cli_get = cli_json("search", "--get", ",".join(ids))
    assert without_page(out["get"]) == cli_get and list(cli_get["found"]) == ids

    # collision: session b edited tests/test_cart.py from a worktree 20 minutes ago; asked by
    # session a about the main checkout's path, that is one touch (an independent scan below).
    rows = [json.loads(line) for line in (home / "changelog.jsonl").read_text().splitlines()]
    expected = [r["event_id"] for r in rows if r.get("type") == "tool_file_edit"
                and r["summary"].endswith("/tests/test_cart.py") and r["session_id"] == SESSIONS["b"]]
    assert [t["event_id"] for t in out["collision"]["touches"]] == expected and len(expected) == 1
    assert "test_cart.py" in out["collision"]["note"] and "another checkout" in out["collision"]["note"]
    # Over ten hours, src/cart.py was edited by a (main checkout) and b (worktree): both count.
    wide = {t["session_id"] for t in out["collision_wide"]["touches"]}
    assert wide == {SESSIONS["a"], SESSIONS["b"]}


BROAD = "rounding decimal cart discount terraform tax coupon"


def error_of(result) -> dict:
    assert result.is_error
    document = result.structured_content
    assert json.loads(result.content[0].text) == document  # errors are carto's own words: bare
    return document["error"]


def test_bad_input_is_a_structured_error_and_the_server_keeps_running(home):
    async def body(session):
        out = {}
        with pytest.raises(MCPError) as unknown:
            await session.call_tool("searchh", {"query": "x"})
        out["unknown"] = unknown.value
        bad = {
            "wrong_type": ("search", {"query": 5}),
            "wrong_limit": ("search", {"query": "x", "limit": "ten"}),
            "missing": ("thread", {}),
            "extra": ("search", {"query": "x", "bogus": 1}),
            "bad_verb": ("facts", {"verb": "nope"}),
            "bad_id": ("get", {"ids": ["evt-../../etc"]}),
            "no_id": ("get", {"ids": ["evt-000000000000"]}),
            "no_thread": ("thread", {"event_id": "evt-000000000000"}),
            "bad_when": ("search", {"query": "x", "since": "the day before never"}),
            "delta_window": ("facts", {"verb": "delta", "since": "1d"}),
            "bad_facts_cursor": ("facts", {"verb": "delta", "facts_cursor": "eyJ2IjoxfQ"}),
            "unknown_decay": ("search", {"query": "x", "decay": "sometimes"}),
        }
        for key, (name, arguments) in bad.items():
            out[key] = error_of(await session.call_tool(name, arguments))
        # A budget that holds one result and the envelope (which grows with the document: 2000
        # left no room once semantic.not_embedded joined it, 2400 none once the floor did), not all
        # fifteen: a next page.
        first = await session.call_tool("search", {"query": BROAD, "max_chars": 2800, "all": True})
        cursor = first.structured_content["page"]["next_cursor"]
        body_part, tag = cursor.split(".")
        flipped = tag[:-1] + ("A" if tag[-1] != "A" else "B")
        out["tampered"] = error_of(await session.call_tool("search", {"cursor": f"{body_part}.{flipped}"}))
        out["other_tool"] = error_of(await session.call_tool("get", {"cursor": cursor}))
        out["garbage"] = error_of(await session.call_tool("search", {"cursor": "not-a-cursor"}))
        # Still serving, and still right.
        called["after"] = time.time()
        out["after"] = (await session.call_tool("search", {"query": "rounding decimal"})).structured_content
        return out

    called: dict[str, float] = {}
    out = conversation(body)
    assert out["unknown"].code == -32602 and out["unknown"].data["code"] == "unknown_tool"
    assert "search" in out["unknown"].data["tools"]
    for key in ("wrong_type", "wrong_limit", "missing", "extra", "bad_verb", "bad_id", "bad_when",
                "unknown_decay", "delta_window", "bad_facts_cursor"):
        assert out[key]["code"] == "invalid_arguments" and out[key]["status"] == 400, (key, out[key])
    assert "query" in out["wrong_type"]["message"] and "limit" in out["wrong_limit"]["message"]
    assert "event_id" in out["missing"]["message"] and "bogus" in out["extra"]["message"]
    assert "omit the time window" in out["delta_window"]["message"]  # upstream's wording
    assert "sometimes" in out["unknown_decay"]["message"] and "gated-exp" in out["unknown_decay"]["message"]
    assert out["no_id"]["code"] == "not_found" and out["no_id"]["status"] == 404
    assert out["no_id"]["missing"] == ["evt-000000000000"]
    assert out["no_thread"]["code"] == "not_found"
    for key in ("tampered", "other_tool", "garbage"):
        assert out[key]["code"] == "bad_cursor" and out[key]["status"] == 400, key
    assert "altered" in out["tampered"]["message"] and "belongs to tool 'search'" in out["other_tool"]["message"]
    same_search(out["after"], cli_json("search", "rounding decimal")[1], time.time() - called["after"])


def test_paging_walks_the_whole_answer_within_the_budget(home):
    async def walk(session, arguments):
        pages, result = [], await session.call_tool("search", arguments)
        while True:
            assert not result.is_error, result.content[0].text
            pages.append((len(result.content[0].text), result.structured_content))
            cursor = result.structured_content["page"]["next_cursor"]
            if not cursor:
                return pages
            result = await session.call_tool("search", {"cursor": cursor})

    async def body(session):
        return await walk(session, {"query": BROAD, "limit": 15, "max_chars": 2500, "all": True})

    pages = conversation(body)
    code, cli_doc = cli_json("search", BROAD, "--limit", "15", "--all")
    cli_ids = [r["event_id"] for r in cli_doc["results"]]
    assert len(cli_ids) == 15 and len(pages) > 2
    assert all(size <= 2500 for size, _ in pages)
    assert [r["event_id"] for _, doc in pages for r in doc["results"]] == cli_ids
    assert all(doc["page"]["cut"] for _, doc in pages)  # no page is the whole answer
    assert [doc["page"]["offset"] for _, doc in pages][0] == 0
    assert {doc["page"]["total"] for _, doc in pages} == {15}

    # A cursor outlives its server: the key is in the home, the answer is recomputed.
    async def first_page(session):
        result = await session.call_tool("search", {"query": BROAD, "limit": 15, "max_chars": 2500})
        return result.structured_content

    page1 = conversation(first_page)

    async def second_page(session):
        result = await session.call_tool("search", {"cursor": page1["page"]["next_cursor"]})
        return result.structured_content

    page2 = conversation(second_page)
    assert page2["page"]["offset"] == page1["page"]["returned"]
    assert [r["event_id"] for r in page1["results"] + page2["results"]] == cli_ids[: page2["page"]["offset"] + page2["page"]["returned"]]
    assert "changed" not in page2["page"]


#: Derived caches a read may build or refresh (rebuildable from the logs at any time); writing
#: them is not "writing" in the sense of the rule (no log row, no telemetry).
CACHE_DIRS = (".carto/facts/", ".carto/search/", ".carto/vectors/")


def snapshot(root: Path) -> dict:
    return {rel: (p.stat().st_size, p.stat().st_mtime_ns)
            for p in root.rglob("*") if p.is_file()
            and not (rel := str(p.relative_to(root))).startswith(CACHE_DIRS)}


def test_search_telemetry_carries_the_callers_session_and_facts_write_nothing(home):
    async def body(session):
        out = {"before_facts": snapshot(home)}
        for arguments in ({"verb": "census"}, {"verb": "tempo"}, {"verb": "delta"}):
            result = await session.call_tool("facts", arguments)
            assert not result.is_error
        out["after_facts"] = snapshot(home)
        out["first"] = (await session.call_tool("search", {"query": "rounding decimal", "session_id": "sess-mcp-1"})).structured_content
        out["again"] = (await session.call_tool("search", {"query": "rounding decimal", "session_id": "sess-mcp-1"})).structured_content
        out["all"] = (await session.call_tool("search", {"query": "rounding decimal", "session_id": "sess-mcp-1", "all": True})).structured_content
        out["env"] = (await session.call_tool("search", {"query": "terraform"})).structured_content
        return out

    out = conversation(body, {"CLAUDE_CODE_SESSION_ID": "sess-from-env"}, "--no-warm")
    assert out["after_facts"] == out["before_facts"]  # facts wrote nothing at all

    first = [r["event_id"] for r in out["first"]["results"]]
    assert first
    served = [json.loads(line) for line in (home / "served-log.jsonl").read_text().splitlines()]
    mine = [row for row in served if row["session_id"] == "sess-mcp-1"]
    # One served row per shown result of the first and the --all call (the second showed none new).
    assert [row["event_id"] for row in mine] == first + [r["event_id"] for r in out["again"]["results"]] + \
        [r["event_id"] for r in out["all"]["results"]]
    assert all(row["query"] == "rounding decimal" for row in mine)
    # Delta serving under that session: what was shown is hidden, --all shows it again.
    assert not set(first) & {r["event_id"] for r in out["again"]["results"]}
    assert out["again"]["delta_serving"]["suppressed"] == len(first)
    assert [r["event_id"] for r in out["all"]["results"]] == first
    # No session argument: the server's own environment names the session.
    env_rows = [row for row in served if row["session_id"] == "sess-from-env"]
    assert [row["event_id"] for row in env_rows] == [r["event_id"] for r in out["env"]["results"]] != []
    calls = [json.loads(line) for line in (home / ".carto" / "search-calls.jsonl").read_text().splitlines()]
    assert {c["selected_backend"] for c in calls} == {"mcp"} and len(calls) == 4


def test_facts_delta_through_mcp_matches_the_cli(home):
    from carto_core.logio.appendlog import append_rows

    async def baseline(session):
        return (await session.call_tool("facts", {"verb": "delta"})).structured_content

    base = conversation(baseline)
    assert base["facts"]["baseline"] is True and base["facts"]["events"] == []
    new_ids = [f"evt-new{i:08d}" for i in range(3)]
    append_rows(home / "changelog.jsonl", [
        {"event_id": eid, "timestamp": "2026-11-01T00:00:00Z", "type": "tool_bash", "provider": "claude",
         "session_id": "s-new", "project": "webshop", "summary": f"Ran: echo {eid}"} for eid in new_ids])
    cursor = base["facts"]["cursor"]

    async def resumed(session):
        return (await session.call_tool("facts", {"verb": "delta", "facts_cursor": cursor, "call_id": "same"})).structured_content

    mcp_doc = conversation(resumed)
    code, cli_doc = cli_json("facts", "delta", "--cursor", cursor, "--call-id", "same")
    assert [e["event_id"] for e in mcp_doc["facts"]["events"]] == new_ids
    assert scrub(without_page(mcp_doc)) == scrub(cli_doc)


def test_digests_and_wrapup_match_the_cli_and_only_wrapup_writes(home):
    session_a = SESSIONS["a"]

    async def body(session):
        out = {"before": snapshot(home)}
        for key, name, arguments in (
            ("session", "digest", {"kind": "session", "session_id": session_a}),
            ("day", "digest", {"kind": "day", "day": "today", "no_git": True}),
            ("dry", "wrapup", {"session_id": session_a, "dry_run": True,
                               "decisions": ["apply discounts before tax"]}),
        ):
            started = time.time()
            result = await session.call_tool(name, arguments)
            windows[key] = (started, time.time())
            assert not result.is_error, result.content[0].text
            out[key] = result.structured_content
        out["after_reads"] = snapshot(home)
        # The CLI's answers for the same calls, before anything is written.
        for key, argv in (("cli_session", ("digest", "session", "--session", session_a)),
                          ("cli_day", ("digest", "day", "today", "--no-git")),
                          ("cli_dry", ("wrapup", "--session", session_a, "--dry-run", "--decision",
                                       "apply discounts before tax"))):
            started = time.time()
            out[key] = cli_json(*argv)
            windows[key] = (started, time.time())
        written = await session.call_tool("wrapup", {"session_id": session_a, "unresolved": ["coupon stacking"]})
        out["written"] = written.structured_content
        out["no_session"] = error_of(await session.call_tool("digest", {"kind": "session"}))
        out["empty_session"] = error_of(await session.call_tool("digest", {"kind": "session", "session_id": "nobody"}))
        out["bad_day"] = error_of(await session.call_tool("digest", {"kind": "day", "day": "someday"}))
        return out

    windows: dict[str, tuple[float, float]] = {}
    out = conversation(body, None, "--no-warm")
    assert out["after_reads"] == out["before"]  # digests and a dry-run wrapup wrote nothing
    # Each answer is stamped with the time of its own call (the MCP call and the CLI call may
    # straddle a second): each stamp lies within its call, and the rest is equal.
    for key, stamped in (("session", 0), ("day", 1), ("dry", 1)):  # the day's generated_at, the row's time
        assert stamps_within(out[key], windows[key]) == stamped, key
        assert stamps_within(out[f"cli_{key}"][1], windows[f"cli_{key}"]) == stamped, key
    code, cli_session = out["cli_session"]
    assert code == 0 and scrub(without_page(out["session"])) == scrub(cli_session)
    assert out["session"]["event_count"] == cli_session["event_count"] > 0
    code, cli_day = out["cli_day"]
    assert code == 0 and scrub(without_page(out["day"])) == scrub(cli_day)
    code, cli_dry = out["cli_dry"]
    for document in (out["dry"], cli_dry):
        document["row"].pop("timestamp")  # checked against its call above
    assert code == 0 and scrub(without_page(out["dry"])) == scrub(cli_dry)
    receipt = out["written"]["receipt"]
    assert receipt["log_outcome"] == "written"
    milestones = [json.loads(line) for line in (home / "session-milestones.jsonl").read_text().splitlines()]
    mine = [m for m in milestones if m["event_id"] == receipt["event_id"]]
    assert len(mine) == 1 and mine[0]["milestone"] == "session_wrapup" and mine[0]["unresolved"] == ["coupon stacking"]
    # The CLI, asked for the same wrapup, finds it already written (same id, nothing appended).
    code, again = cli_json("wrapup", "--session", session_a, "--unresolved", "coupon stacking")
    assert again["receipt"] == {"log_outcome": "already_present", "event_id": receipt["event_id"]}

    assert out["no_session"]["code"] == "invalid_arguments"
    assert out["empty_session"]["code"] == "not_found" and out["empty_session"]["status"] == 404
    assert out["bad_day"]["code"] == "invalid_arguments" and "someday" in out["bad_day"]["message"]
