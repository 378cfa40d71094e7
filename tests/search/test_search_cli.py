"""`carto search` end to end: composition, scope, delta serving, telemetry, exit codes."""

from __future__ import annotations

import json
import os
import types

import pytest
from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.search import SearchRequest, run_search
from carto_core.search.engine import SearchEngine

from .conftest import NOW, padding


def carto(*args, env=None):
    result = CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)
    return result


@pytest.fixture
def home_env(writer, monkeypatch):
    monkeypatch.setenv("CARTO_HOME", str(writer.home.root))
    return writer


def _json(result):
    assert result.output.strip(), result.output
    return json.loads(result.output)


def test_window_bounded_target_past_depth_is_found(home_env):
    w = home_env
    # 600 short, recent documents outrank the long, old target for "needle".
    for i in range(600):
        w.tool(f"Ran: needle step{i}", age_hours=1 + i / 100, changelog_copy=False)
    target = w.tool("Ran: needle " + " ".join(f"word{i}" for i in range(40)), age_hours=24 * 40,
                    changelog_copy=False)
    padding(w, 700)
    engine = SearchEngine(w.home)
    unwindowed = run_search(SearchRequest(query="needle", limit=1000, decay="none", semantic=False),
                            engine=engine)
    ladder = {l.name: l for l in unwindowed.ladders}["tool-use"]
    assert ladder.candidates == 500  # cut to depth ...
    assert target not in [h.event_id for h in unwindowed.results]  # ... and the target fell off
    since = NOW.replace(year=2026, month=4, day=1)
    windowed = run_search(SearchRequest(query="needle", since=since, before=NOW.replace(month=5, day=1),
                                        decay="none", semantic=False, limit=5), engine=engine)
    assert [h.event_id for h in windowed.results] == [target]
    assert windowed.contributing == ["tool-use"]


def test_json_document_shape_and_composition(home_env):
    w = home_env
    tool = w.tool("Ran: deploy the frobnicator service")
    prompt = w.prompt("please deploy frobnicator to staging")
    padding(w, 6)
    out = _json(carto("search", "frobnicator deploy", "--json", "--no-semantic"))
    ids = [r["event_id"] for r in out["results"]]
    assert sorted(ids) == sorted([tool, prompt])
    by_id = {r["event_id"]: r for r in out["results"]}
    assert by_id[tool]["sources"] == ["tool-use"] and by_id[prompt]["sources"] == ["prompts"]
    assert sorted(out["contributing_ladders"]) == ["prompts", "tool-use"]
    for key in ("event_id", "timestamp", "sources", "type", "project", "summary", "score",
                "session_id", "transcript_path"):
        assert key in out["results"][0]
    assert by_id[tool]["session_id"] == "s1" and by_id[tool]["type"] == "tool_bash"
    assert set(out["stages_ms"]) >= {"load", "scope", "ladders", "fusion", "trim", "decay"}
    assert out["facets"]["projects"] == {"proj": 2}
    assert out["semantic_status"] == "disabled"  # --no-semantic
    assert out["semantic"]["state"] == "disabled" and "--no-semantic" in out["semantic"]["reason"]


def test_get_fetches_back_and_missing_is_reported(home_env):
    eid = home_env.tool("Ran: fetchable thing")
    out = _json(carto("search", "--get", f"{eid},evt-doesnotexist", "--json"))
    assert out["found"][eid]["event_id"] == eid and out["found"][eid]["summary"] == "Ran: fetchable thing"
    assert out["missing"] == ["evt-doesnotexist"]
    assert carto("search", "--get", "evt-doesnotexist").exit_code == 3


def test_delta_serving_hides_and_all_shows(home_env, monkeypatch):
    w = home_env
    ids = {w.tool(f"Ran: widget number{i}", age_hours=i + 1) for i in range(4)}
    padding(w, 8)
    monkeypatch.setenv("CLAUDE_CODE_SESSION_ID", "sess-delta-1")
    first = _json(carto("search", "widget", "--limit", "2", "--json", "--no-semantic"))
    shown = {r["event_id"] for r in first["results"]}
    assert len(shown) == 2
    second = _json(carto("search", "widget", "--json", "--no-semantic"))
    assert {r["event_id"] for r in second["results"]} == ids - shown
    assert second["delta_serving"]["suppressed"] == 2
    everything = _json(carto("search", "widget", "--all", "--json", "--no-semantic"))
    assert {r["event_id"] for r in everything["results"]} == ids
    served_file = w.home.state / "served" / "sess-delta-1.txt"
    assert set(served_file.read_text().split()) == ids  # first call's two + second call's two
    third = carto("search", "widget", "--no-semantic")
    assert third.exit_code == 3
    assert third.output.startswith('no results for "widget"\n')
    assert "(4 already shown in this session are hidden; --all shows them)" in third.output
    carto("search", "--reset-served")
    assert not served_file.exists()


def test_the_help_states_what_an_old_memory_keeps_under_the_default_decay(home_env):
    """gated-prior's bounded prior `(1 + beta * r) / (1 + beta)` keeps 1 / (1 + beta) of an old
    memory's score, 1 / (1 + `LATEST_BETA` beta) when the query asks for the latest state."""
    from fractions import Fraction

    from carto_core.search.decay_knobs import decay_parameters
    from carto_rankers.decay import LATEST_BETA

    beta = decay_parameters()["prior_beta"]
    text = " ".join(carto("search", "--help").output.split())
    for kept in (1 / (1 + beta), 1 / (1 + LATEST_BETA * beta)):
        share = Fraction(kept).limit_denominator(10)
        assert f"{share.numerator}/{share.denominator}" in text


def test_each_call_of_one_process_has_an_id_of_its_own(home_env):
    """A server answers several searches a second: their ids must differ (`--touch` credits the
    rows of the call named, `carto forget` takes every row of a call that served what it
    forgets)."""
    import re

    from carto_core.search.telemetry import Telemetry

    ids = [Telemetry(home_env.home).call_id for _ in range(3)]
    assert len(set(ids)) == 3
    pid = os.getpid()
    assert all(re.fullmatch(rf"call-\d{{8}}T\d{{6}}-{pid}(-\d+)?", i) for i in ids)


def test_telemetry_rows_come_from_the_command_only(home_env, monkeypatch):
    w = home_env
    eid = w.tool("Ran: telemetry probe")
    padding(w, 4)
    run_search(SearchRequest(query="telemetry probe", semantic=False), home=w.home)
    assert not w.home.log("served").exists()  # the engine alone writes nothing
    assert not (w.home.state / "search-calls.jsonl").exists()
    monkeypatch.setenv("CARTO_SESSION_ID", "sess-tel")
    out = _json(carto("search", "telemetry probe", "--json", "--no-semantic", "--purpose", "eval"))
    served = [json.loads(l) for l in w.home.log("served").read_text().splitlines()]
    assert [r["event_id"] for r in served] == [r["event_id"] for r in out["results"]] == [eid]
    assert served[0]["session_id"] == "sess-tel" and served[0]["purpose"] == "eval"
    assert served[0]["call_id"] == out["call_id"]
    calls = [json.loads(l) for l in (w.home.state / "search-calls.jsonl").read_text().splitlines()]
    assert len(calls) == 1 and calls[0]["result_count"] == 1 and calls[0]["call_id"] == out["call_id"]
    carto("search", "--get", f"{eid},evt-neverserved")
    carto("search", "--touch", eid)
    ledger = [json.loads(l) for l in w.home.log("access").read_text().splitlines()]
    assert [(r["event_id"], r["source"]) for r in ledger] == [(eid, "result_fetched"), (eid, "result_used")]
    assert ledger[0]["call_id"] == out["call_id"]  # carried from the served row
    # Only result_used counts for the reuse boost.
    again = _json(carto("search", "telemetry probe", "--all", "--json", "--no-semantic"))
    assert again["results"][0]["reuse_count"] == 1


@pytest.mark.parametrize("args, needle", [
    ((), "QUERY"),
    (("x", "--since", "someday"), "today"),
    (("x", "--ranker", "nope"), "bm25"),
    (("x", "--decay", "nope"), "gated-exp"),
    (("x", "--limit", "0"), "at least 1"),
    # a window that ends before it starts found nothing and advised 'a wider --since'
    (("x", "--since", "today", "--before", "yesterday"), "--since today is after --before yesterday"),
    (("--project", "x", "--since", "2026-03-02", "--before", "2026-03-01"), "is after --before"),
])
def test_bad_input_exits_2_naming_accepted_values(home_env, args, needle):
    home_env.tool("Ran: x")
    result = CliRunner().invoke(cli, ["search", *args])
    assert result.exit_code == 2
    assert needle in result.output


def test_empty_home_exits_3_with_how_to_ingest(tmp_path, monkeypatch):
    monkeypatch.setenv("CARTO_HOME", str(tmp_path / "nothing"))
    result = CliRunner().invoke(cli, ["search", "anything"])
    assert result.exit_code == 3 and "carto ingest" in result.output


def test_unknown_entities_become_knowledge_gaps(home_env):
    home_env.tool("Ran: something")
    padding(home_env, 3)
    result = carto("search", "where is evt-abcdef123456 in zorkmid.py", "--no-semantic")
    assert result.exit_code == 3
    gaps = [json.loads(l) for l in home_env.home.log("knowledge-gaps").read_text().splitlines()]
    assert gaps[0]["unknown_entities"] == ["evt-abcdef123456", "zorkmid.py"]
    assert ("(2 unknown names recorded as a knowledge gap, for the next session to capture: "
            "evt-abcdef123456, zorkmid.py)") in result.output


def test_words_unquoted_are_one_query(home_env):
    """`carto search deploy staging`, as an agent's shell call writes it without quotes, was
    refused ("Got unexpected extra argument (staging)", exit 2)."""
    home_env.tool("Ran: kubectl rollout restart deploy/staging-api")
    home_env.tool("Ran: pytest tests/unit")
    padding(home_env, 3)
    quoted = carto("search", "deploy staging", "--no-semantic", "--json")
    unquoted = carto("search", "deploy", "staging", "--no-semantic", "--json")
    assert unquoted.exit_code == quoted.exit_code == 0, unquoted.output
    first = json.loads(unquoted.stdout)
    assert first["query"] == "deploy staging"
    assert [h["event_id"] for h in first["results"]] == [
        h["event_id"] for h in json.loads(quoted.stdout)["results"]]


@pytest.mark.parametrize("query", ["evt-abcdef123456", "where is zorkmid.py"])
def test_a_knowledge_gap_does_not_answer_the_search_that_wrote_it(home_env, query):
    """A search that found nothing for an unknown id wrote its gap to the changelog, and the
    same search run again exited 0 with that gap ("Knowledge gap: 'evt-...' returned no
    results") as its only result: asked again, it still finds nothing. The gap stays
    findable by its other words."""
    home_env.tool("Ran: something")
    padding(home_env, 3)
    assert carto("search", query, "--no-semantic").exit_code == 3
    again = carto("search", query, "--no-semantic", "--json")
    assert again.exit_code == 3, again.output
    assert json.loads(again.stdout)["results"] == []
    found = carto("search", "knowledge gap", "--no-semantic", "--json")
    assert found.exit_code == 0
    summaries = [hit["summary"] for hit in json.loads(found.stdout)["results"]]
    assert any(summary.startswith(f"Knowledge gap: '{query}'") for summary in summaries), summaries


def test_sample_home_demo_query(tmp_path, monkeypatch):
    from carto_core.evaluation.sample import build_sample_home

    build_sample_home(tmp_path / "demo")
    monkeypatch.setenv("CARTO_HOME", str(tmp_path / "demo"))
    result = carto("search", "discount codes cart", "--all", "--limit", "5", "--json")
    assert result.exit_code == 0
    out = json.loads(result.output)
    assert 1 <= len(out["results"]) <= 5
    top = out["results"][0]["summary"].lower()
    assert all(word in top for word in ("discount", "codes", "cart"))


def _registries_with(*plugins):
    import carto_rankers

    from carto_core.plugin.registry import Registries, build_plugin_manager

    extra = {"rankers": carto_rankers}
    extra.update({f"fake{i}": p for i, p in enumerate(plugins)})
    pm, infos = build_plugin_manager(entry_points=False, extra=extra)
    return Registries(pm, infos)


def answer_of(result):
    return [(h.event_id, h.sources) for h in result.results]  # (scores decay with the clock)


def test_a_registered_ladder_joins_fusion_and_an_unavailable_semantic_does_not_break(home_env):
    from carto_core import hookimpl
    from carto_core.search.api import Ladder, Ranker

    w = home_env
    pinned = w.tool("Ran: nothing in common with the query")
    match = w.tool("Ran: gizmo alignment")
    padding(w, 5)

    class Pinned(Ranker):
        name = "pinned"

        def rank(self, query, scope, engine, *, depth=500):
            return [Ladder.from_event_ids("pinned", [pinned], [1.0], engine, scope=scope)]

    class BrokenSemantic(Ranker):
        name = "semantic"

        def status(self, engine):
            return False, "no vectors for this home"

    plugin = types.SimpleNamespace(carto_register_rankers=hookimpl(
        lambda register: (register(Pinned), register(BrokenSemantic))))
    registries = _registries_with(plugin)
    engine = SearchEngine(w.home, registries=registries)
    # "gizmo" is a lookup, whose semantic ladder rrf-prior gates out: --semantic asks anyway
    result = run_search(SearchRequest(query="gizmo", rankers=["bm25", "pinned"], semantic=True),
                        engine=engine)
    assert {h.event_id: h.sources for h in result.results} == {match: ["tool-use"], pinned: ["pinned"]}
    assert sorted(result.contributing) == ["pinned", "tool-use"]
    assert result.semantic_status == "unavailable"
    assert result.semantic.to_dict() == {"state": "unavailable", "reason": "no vectors for this home",
                                         "fix": "", "not_embedded": None,
                                         "embedder": None, "note": None}
    # without it the gated ladder's ranker is not asked: the same results, its state unchecked
    unasked = run_search(SearchRequest(query="gizmo", rankers=["bm25", "pinned"]), engine=engine)
    assert answer_of(unasked) == answer_of(result) and unasked.semantic_status == "unchecked"
    off = run_search(SearchRequest(query="gizmo", semantic=False), engine=engine)
    assert [l.name for l in off.ladders] == ["tool-use"]
    assert off.semantic_status == "disabled"


def test_gated_decay_finds_old_lookups_and_keeps_vague_queries_recent(home_env):
    w = home_env
    old = w.tool("Ran: migrate quokka ledger schema", age_hours=24 * 300)
    for i in range(30):
        w.tool(f"Ran: ledger update batch{i}", age_hours=1 + i)
    padding(w, 40)
    engine = SearchEngine(w.home)
    lookup = dict(query="quokka ledger schema", now=NOW, semantic=False, limit=5)
    gated = run_search(SearchRequest(decay="gated-exp", **lookup), engine=engine)
    assert gated.results[0].event_id == old and gated.results[0].gated
    # upstream's decay and fusion bury it (rrf-prior weighs the newer rows, which hold only
    # "ledger", by their share of the query and trims them before any decay)
    plain = run_search(SearchRequest(decay="exp", fusion="rrf", **lookup), engine=engine)
    assert old not in [h.event_id for h in plain.results[:1]]
    vague = run_search(SearchRequest(query="ledger", decay="gated-exp", now=NOW, semantic=False,
                                     limit=3), engine=engine)
    assert not any(h.gated for h in vague.results)
    assert old not in [h.event_id for h in vague.results]


def test_project_orientation(home_env):
    w = home_env
    w.tool("[feature] Commit abc: feat: one", etype="git_commit", project="webshop")
    w.tool("[fix] Commit def: fix: two", etype="git_commit", project="webshop")
    w.tool("Modified: /work/webshop/src/cart.py", etype="tool_file_edit", project="webshop")
    w.tool("Modified: /work/webshop/src/cart.py", etype="tool_file_edit", project="webshop")
    w.tool("[fix] Commit 999: other project", etype="git_commit", project="infra")
    out = _json(carto("search", "--project", "webshop", "--json"))
    assert out["matched_projects"] == ["webshop"] and out["events"] == 4
    assert len(out["commits"]) == 2
    assert out["busiest_files"] == [{"path": "/work/webshop/src/cart.py", "relative": "src/cart.py",
                                     "edits": 2, "last": out["busiest_files"][0]["last"]}]


def test_project_orientation_names_a_file_one_way_whether_the_row_gave_it_relative_or_absolute(home_env):
    w = home_env
    # Codex's apply_patch rows name files relative to the row's cwd, Claude's rows absolute ones.
    w.tool("Modified: src/shipping.py", etype="tool_file_edit", project="webshop", age_hours=3)
    w.tool("Modified: /work/webshop/src/shipping.py", etype="tool_file_edit", project="webshop", age_hours=2)
    w.tool("Modified: /work/webshop/.claude/worktrees/fee/src/shipping.py", etype="tool_file_edit",
           project="webshop")
    out = _json(carto("search", "--project", "webshop", "--json"))
    assert [(f["path"], f["relative"], f["edits"]) for f in out["busiest_files"]] == [
        ("/work/webshop/src/shipping.py", "src/shipping.py", 2),
        ("/work/webshop/.claude/worktrees/fee/src/shipping.py", ".claude/worktrees/fee/src/shipping.py", 1)]
    text = carto("search", "--project", "webshop").output
    files = text.split("--- Busiest files ---\n", 1)[1].splitlines()
    assert [line.split()[2] for line in files] == ["src/shipping.py", ".claude/worktrees/fee/src/shipping.py"], text
    # the handoff cites each file's newest edit, found by the same name
    handoff = _json(carto("handoff", "--project", "webshop", "--json"))
    assert all(f["event_id"] for f in handoff["files"]), handoff["files"]


def test_index_command_builds_and_refreshes(home_env):
    w = home_env
    w.tool("Ran: indexed once")
    first = _json(carto("index", "--step", "keyword", "--json"))
    step = first["steps"][0]
    assert step["step"] == "keyword" and step["documents"] == 1
    assert step["outcome"] == "built"  # opening it built it: not "opened"
    w.tool("Ran: appended later")
    second = _json(carto("index", "--step", "keyword", "--json"))["steps"][0]
    assert second["outcome"] == "updated" and second["documents"] == 2
    log = w.home.log("tool-use")
    rewritten = log.with_name("rewritten.tmp")  # a rewrite as carto's own: a new file
    rewritten.write_bytes(log.read_bytes().replace(b"appended later", b"appended LATER"))
    os.replace(rewritten, log)
    patched = _json(carto("index", "--step", "keyword", "--json"))["steps"][0]
    assert patched["outcome"] == "patched" and patched["documents"] == 2  # not "opened"
    rebuilt = _json(carto("index", "--rebuild", "--step", "keyword", "--json"))["steps"][0]
    assert rebuilt["outcome"] == "rebuilt" and rebuilt["documents"] == 2
    bad = CliRunner().invoke(cli, ["index", "--step", "nope"])
    assert bad.exit_code == 2 and "keyword" in bad.output


def test_mcp_search_records_knowledge_gaps_under_the_callers_session(home_env):
    """The MCP search tool and `carto search` share one gap writer (the telemetry): same rows,
    the caller's session; a replayed page records nothing again."""
    from carto_core.mcp.server import CartoMcp

    home_env.tool("Ran: something")
    padding(home_env, 3)
    state = CartoMcp(home_env.home)
    query = "where is evt-abcdef123456 in zorkmid.py"
    document = state.call("search", {"query": query, "session_id": "s-mcp", "all": True})
    assert document["results"] == [] and document["unknown_entities"] == ["evt-abcdef123456",
                                                                          "zorkmid.py"]
    gaps = [json.loads(l) for l in home_env.home.log("knowledge-gaps").read_text().splitlines()]
    assert [(g["query"], g["unknown_entities"], g["session"]) for g in gaps] == [
        (query, ["evt-abcdef123456", "zorkmid.py"], "s-mcp")]
    copies = [json.loads(l) for l in home_env.home.log("changelog").read_text().splitlines()
              if '"knowledge_gap"' in l]
    assert [(c["event_id"], c["session_id"]) for c in copies] == [(gaps[0]["event_id"], "s-mcp")]
    # The same search found something: no gap.
    state.call("search", {"query": "something", "session_id": "s-mcp", "all": True})
    assert len(home_env.home.log("knowledge-gaps").read_text().splitlines()) == 1


def test_touch_of_an_id_no_log_holds_records_nothing_and_says_so(home_env):
    """--touch evt-typo said '(recorded 1 reuse access)' and exit 0: a boost for an event that
    does not exist, the mistyped one never credited."""
    eid = home_env.tool("Ran: touch probe")
    ledger = home_env.home.root / "access-ledger.jsonl"
    bad = carto("search", "--touch", "evt-000000000bad")
    assert bad.exit_code == 3
    assert "no event evt-000000000bad in" in bad.output and "recorded" not in bad.output
    assert not ledger.exists() or "evt-000000000bad" not in ledger.read_text()
    mixed = carto("search", "--touch", f"{eid},evt-000000000bad", "--json")
    assert mixed.exit_code == 0
    assert _json(mixed) == {"touched": [eid], "recorded": 1, "unknown": ["evt-000000000bad"]}
    assert "evt-000000000bad" not in ledger.read_text() and eid in ledger.read_text()


def test_get_of_a_forgotten_id_says_it_was_forgotten(home_env):
    """--get of an event `carto forget` took out said it 'may have aged out, live only in a
    vector index as a transcript turn, or not exist', though the home's tombstones know."""
    from carto_core.logio.tombstone import bury

    kept = home_env.tool("Ran: kept row")
    gone = "evt-0000000f0a77"
    bury(home_env.home, [gone])
    text = carto("search", "--get", f"{gone},evt-00000000dead")
    assert text.exit_code == 3
    assert (f"(no event with that id in {home_env.home.root}: `carto forget` took it out)"
            in text.output.splitlines())
    assert text.output.count("may have aged out") == 1  # the other missing id, as before
    document = _json(carto("search", "--get", f"{kept},{gone}", "--json"))
    assert document["missing"] == [gone] and document["forgotten"] == [gone]


def test_reset_served_says_which_of_its_two_reasons_left_nothing_to_reset(home_env, monkeypatch):
    """'(nothing to reset: no session id or nothing served yet)': carto knows which."""
    home_env.tool("Ran: reset probe")
    monkeypatch.delenv("CARTO_SESSION_ID", raising=False)
    for var in ("CARTOGRAPHER_SESSION_ID", "CLAUDE_SESSION_ID", "CLAUDE_CODE_SESSION_ID", "CODEX_SESSION_ID"):
        monkeypatch.delenv(var, raising=False)
    none = carto("search", "--reset-served")
    assert none.output.strip() == ("(nothing to reset: no session id, and delta serving hides "
                                   "only within an agent's session; CARTO_SESSION_ID names one)")
    monkeypatch.setenv("CARTO_SESSION_ID", "sess-reset-1")
    fresh = carto("search", "--reset-served")
    assert fresh.output.strip() == "(nothing to reset: session sess-reset-1 was served nothing yet)"
    carto("search", "reset probe", "--no-semantic")
    assert carto("search", "--reset-served").output.strip() == "(served list reset for this session)"


def test_get_takes_a_unique_prefix_of_an_event_id(home_env):
    """`carto search --get evt-8ecb30` said "no event with that id" where `carto session` and
    `handoff` take a unique prefix of a session id."""
    full = home_env.tool("Ran: make release", event_id="evt-8ecb303a7808")
    home_env.tool("Ran: make docs", event_id="evt-8ecb30ffffff")
    padding(home_env, 3)
    done = carto("search", "--get", "evt-8ecb303", "--json")
    assert done.exit_code == 0, done.output
    document = json.loads(done.stdout)
    assert document["resolved"] == {"evt-8ecb303": full} and list(document["found"]) == [full]
    assert document["found"][full]["summary"] == "Ran: make release"
    text = carto("search", "--get", "evt-8ecb303").output
    assert text.startswith(f"=== {full} ===") and "(1 fetched, 0 missing)" in text
    # a prefix several ids share is asked too little (exit 2, the ids listed), as `carto
    # session` answers one; it exited 3, "not found"
    many = carto("search", "--get", "evt-8ecb30", "--json")
    assert many.exit_code == 2 and json.loads(many.stdout)["ambiguous"] == ["evt-8ecb30"]
    assert json.loads(many.stdout)["candidates"] == {"evt-8ecb30": sorted([full, "evt-8ecb30ffffff"])}
    said = carto("search", "--get", "evt-8ecb30")
    assert said.exit_code == 2 and "more than one event id starts with evt-8ecb30" in said.stdout
    assert said.stderr.splitlines() == ["carto: 2 event ids start with 'evt-8ecb30'; give more of the id:",
                                        f"  {full}", "  evt-8ecb30ffffff"]
    other = home_env.tool("Ran: make lint", event_id="evt-1234abcd0000")
    assert carto("search", "--get", "evt-123", "--json").exit_code == 3  # too short to be sure
    assert list(json.loads(carto("search", "--get", "evt-1234", "--json").stdout)["found"]) == [other]
    # a prefix is not enough to record a reuse: --touch names the event whole
    assert carto("search", "--touch", "evt-8ecb303").exit_code != 0


def test_get_takes_a_turns_tool_call_as_the_lenses_cite_it(home_env):
    """`carto handoff` cites an edit of a session read from its turns as `turn-...-1#12` (the
    turn's twelfth tool call); `--get` refused the `#` ("ids of [A-Za-z0-9_.:-]")."""
    from carto_core.logio.appendlog import append_rows
    from carto_core.logio.logs import order_row

    turn = "turn-5c0375b4-57a5-4f26-b12d-d022ee4e51b7-1"
    append_rows(home_env.home.log("turns"), [order_row("turns", {
        "event_id": turn, "timestamp": "2026-04-10T10:00:00Z", "type": "transcript",
        "provider": "claude", "summary": "edit the CLAUDE.md", "project": "proj",
        "session": "5c0375b4-57a5-4f26-b12d-d022ee4e51b7", "transcript_path": "/t/x.jsonl"})])
    padding(home_env, 3)
    done = carto("search", "--get", f"{turn}#12", "--json")
    assert done.exit_code == 0, done.output
    document = json.loads(done.stdout)
    assert document["resolved"] == {f"{turn}#12": turn} and list(document["found"]) == [turn]
    assert carto("search", "--get", f"{turn}#x", "--json").exit_code == 2  # not a call's number
    assert carto("search", "--call-id", "a#1", "deploy").exit_code == 2
