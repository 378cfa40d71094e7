"""The decision lifecycle: records with a state, changed only by appended rows, through
`carto decision`, the MCP tools and wrapup's reversal proposals; `carto memory` and orient
show current records only."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from carto_core.cli import cli
from carto_core.evaluation.sample import SESSIONS, build_sample_home
from carto_core.lenses.decisions import change, proposals
from carto_core.lenses.memory import build_memory, render
from carto_core.lenses.wrapup import build_wrapup, write_wrapup
from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home
from carto_core.model import decisions as model


def _run(home: Home, *args):
    result = CliRunner().invoke(cli, list(args), env={"CARTO_HOME": str(home.root), "CARTO_SESSION_ID": "",
                                                      "CLAUDE_CODE_SESSION_ID": ""})
    return result


def _wrapup(n: int, project: str = "shop", decisions=(), unresolved=(), insight="", day: int = 1) -> dict:
    return {"event_id": f"evt-wrap{n:08d}", "timestamp": f"2026-03-{day:02d}T10:00:00Z",
            "milestone": "session_wrapup", "provider": "claude", "description": "d",
            "session_id": f"s{n}", "project": project, "cwd": "/work/shop",
            "decisions": list(decisions), "unresolved": list(unresolved), "key_insight": insight}


def _home(tmp_path, rows) -> Home:
    home = Home(tmp_path / "h")
    home.root.mkdir(parents=True)
    append_rows(home.log("milestones"), rows)
    return home


def _lines(home: Home) -> list[str]:
    return home.log("milestones").read_text().splitlines()


def test_ids_are_stable_for_the_words_and_empty_statements_are_not_records():
    a = model.record_id("decision", "Shop", "Apply discounts before tax.")
    assert a == model.record_id("decision", "shop", "apply  discounts before TAX") and a.startswith("dec-")
    assert a != model.record_id("thread", "shop", "apply discounts before tax")
    assert a != model.record_id("decision", "other", "apply discounts before tax")
    for empty in ("none", "None.", "n/a", "N/A", "-", "  ", "nothing", "none yet", "TBD", None, 3):
        assert model.is_empty(empty), empty
    for real in ("no tests for refunds", "none of the coupons stack", "n/a handling in csv import"):
        assert not model.is_empty(real), real
    row = _wrapup(1, decisions=["use Decimal", "n/a"], unresolved=["none", "refund rounding"], insight="")
    assert model.statements(row) == [("decision", "use Decimal"), ("thread", "refund rounding")]


def test_wrapup_stores_no_none_thread(tmp_path):
    home = build_sample_home(tmp_path / "h")
    row = build_wrapup(home, SESSIONS["b"], decisions=["keep Decimal", "n/a"], unresolved=["none"])
    assert row["decisions"] == ["keep Decimal"] and row["unresolved"] == []
    write_wrapup(home, row)
    threads = [r for r in model.load(home).records.values() if r.kind == "thread"]
    assert [t.text for t in threads] == ["bundles and coupons stacking"]  # the sample's own


def test_a_reversal_is_proposed_superseded_and_memory_shows_only_the_new_decision(tmp_path):
    home = build_sample_home(tmp_path / "h")
    old = model.record_id("decision", "webshop", "apply discounts before tax")
    assert old in model.load(home).records
    row = build_wrapup(home, SESSIONS["b"], decisions=[
        "apply discounts AFTER tax (reverses earlier rule)", "keep Decimal for money"])
    proposed = proposals(home, row)
    new = model.record_id("decision", "webshop", "apply discounts AFTER tax (reverses earlier rule)")
    assert [(p["supersede"], p["by"]) for p in proposed] == [(old, new)]
    assert proposed[0]["command"] == f"carto decision supersede {old} --by {new}"
    write_wrapup(home, row)
    # before the supersession both are current (the complaint); after it only the new one
    assert "apply discounts before tax" in render(build_memory(home, "webshop"))
    result = _run(home, "decision", "supersede", old[:8], "--by", new, "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["record"]["state"] == "superseded" and out["record"]["superseded_by"] == new
    text = render(build_memory(home, "webshop"))
    assert "apply discounts AFTER tax" in text and "apply discounts before tax" not in text
    assert "keep Decimal for money" in text
    listed = json.loads(_run(home, "decision", "list", "--project", "webshop", "--all", "--json").output)
    order = [r["id"] for r in listed["records"]]
    assert order.index(new) < order.index(old)  # the successor ranks above what it replaced
    assert {r["id"]: r["state"] for r in listed["records"]}[old] == "superseded"
    current = json.loads(_run(home, "decision", "list", "--json").output)
    assert old not in [r["id"] for r in current["records"]]


def test_no_proposal_without_an_explicit_reversal_or_a_match(tmp_path):
    home = _home(tmp_path, [_wrapup(1, decisions=["apply discounts before tax", "ship on Fridays",
                                                  "cache product images in the CDN with a one day expiry"])])
    ledger = model.load(home)
    assert model.reversals(ledger, "shop", ["apply discounts after tax"]) == []       # no marker
    assert model.reversals(ledger, "shop", ["use Redis instead of memcached"]) == []  # no match
    assert model.reversals(ledger, "shop", ["compute tax in the browser instead of the server"]) == []  # one word is no match
    assert model.reversals(ledger, "shop", ["deploy on Fridays instead of Mondays"]) == []       # not even half of 2 words
    assert model.reversals(ledger, "shop", ["cache the cart instead of day old prices"]) == []  # 2 of 7 words
    assert model.reversals(ledger, "other", ["discounts after tax instead of before"]) == []  # other project
    found = model.reversals(ledger, "shop", ["we no longer ship on Fridays"])
    assert [p["old_text"] for p in found] == ["ship on Fridays"]


def test_changes_are_appended_never_edited_and_their_exit_codes(tmp_path):
    home = _home(tmp_path, [_wrapup(1, decisions=["use floats for money"], unresolved=["refund rounding"]),
                            _wrapup(2, decisions=["use Decimal for money"], day=2)])
    floats = model.record_id("decision", "shop", "use floats for money")
    thread = model.record_id("thread", "shop", "refund rounding")
    before = _lines(home)
    assert _run(home, "decision", "retire", "dec-zzzz").exit_code == 3             # no such record
    assert _run(home, "decision", "retire", "dec-").exit_code == 2                 # too short to be a prefix
    assert _run(home, "decision", "supersede", floats).exit_code == 2              # --by or --text
    assert _run(home, "decision", "supersede", floats, "--by", floats).exit_code == 2  # itself
    assert _run(home, "decision", "retire", floats, "--by", thread).exit_code == 2  # --by only with supersede
    assert _lines(home) == before                                                   # nothing written
    assert _run(home, "decision", "reject", thread, "--reason", "never an issue").exit_code == 0
    after = _lines(home)
    assert after[:len(before)] == before and len(after) == len(before) + 1          # appended
    assert json.loads(after[-1])["milestone"] == "decision_update"
    again = _run(home, "decision", "reject", thread, "--json")
    assert again.exit_code == 0 and json.loads(again.output)["log_outcome"] == "already_present"
    assert _lines(home) == after
    assert _run(home, "decision", "retire", thread).exit_code == 2                  # not current any more
    assert _run(home, "decision", "supersede", floats, "--by", thread).exit_code == 2  # by a rejected one
    assert _run(home, "decision", "list", "--project", "nope").exit_code == 3
    out = _run(home, "decision", "supersede", floats, "--text", "use Decimal for money", "--json")
    assert out.exit_code == 0, out.output
    document = json.loads(out.output)
    assert document["successor"]["id"] == model.record_id("decision", "shop", "use Decimal for money")
    changelog = [json.loads(line) for line in home.log("changelog").read_text().splitlines()]
    assert [c["type"] for c in changelog] == ["milestone_decision_update"] * 2


def test_ambiguous_prefix_is_a_usage_error(tmp_path):
    rows = [_wrapup(n, decisions=[f"decision {n}"]) for n in range(60)]
    home = _home(tmp_path, rows)
    ids = sorted(model.load(home).records)
    shared = next(a[:6] for a, b in zip(ids, ids[1:]) if a[:6] == b[:6])
    result = _run(home, "decision", "retire", shared)
    assert result.exit_code == 2 and "give more of the id" in result.output


def test_a_later_wrapup_that_states_it_again_makes_it_current(tmp_path):
    home = _home(tmp_path, [_wrapup(1, decisions=["pin numpy below 2"])])
    rid = model.record_id("decision", "shop", "pin numpy below 2")
    change(home, rid, "retired", reason="numpy 2 works now")
    assert model.load(home).records[rid].state == "retired"
    assert "pin numpy" not in render(build_memory(home, "shop"))
    append_rows(home.log("milestones"), [_wrapup(2, decisions=["pin numpy below 2"], day=5)])
    record = model.load(home).records[rid]
    assert record.state == "current" and record.sources == ["evt-wrap00000001", "evt-wrap00000002"]


def test_a_chain_of_supersessions_leads_to_the_current_record(tmp_path):
    home = _home(tmp_path, [_wrapup(1, decisions=["tax rate from config"])])
    first = model.record_id("decision", "shop", "tax rate from config")
    second = change(home, first, "superseded", text="tax rate from the database")["successor"]["id"]
    third = change(home, second, "superseded", text="tax rate from the tax service")["successor"]["id"]
    ledger = model.load(home)
    assert ledger.successor(ledger.records[first]).id == third
    assert [r.id for r in ledger.records.values() if r.current] == [third]


def test_mcp_decisions_and_decide(tmp_path):
    from carto_core.mcp.server import CartoMcp
    from carto_core.mcp.tools import ToolError

    home = build_sample_home(tmp_path / "h")
    state = CartoMcp(home, env={})
    listed = state.call("decisions", {"project": "webshop"})
    ids = {r["text"]: r["id"] for r in listed["records"]}
    old = ids["apply discounts before tax"]
    done = state.call("decide", {"action": "supersede", "id": old, "text": "apply discounts after tax"})
    assert done["record"]["state"] == "superseded"
    texts = [r["text"] for r in state.call("decisions", {"project": "webshop"})["records"]]
    assert "apply discounts after tax" in texts and "apply discounts before tax" not in texts
    every = state.call("decisions", {"project": "webshop", "all": True})["records"]
    assert [r["text"] for r in every].index("apply discounts after tax") < \
        [r["text"] for r in every].index("apply discounts before tax")
    with pytest.raises(ToolError) as missing:
        state.call("decide", {"action": "retire", "id": "dec-00000000"})
    assert missing.value.code == "not_found"
    with pytest.raises(ToolError) as refused:
        state.call("decide", {"action": "retire", "id": old})
    assert refused.value.code == "invalid_arguments"


def test_orient_leaves_out_closed_and_empty_threads(tmp_path):
    from carto_core.search.orient import orient
    from carto_core.search.engine import SearchEngine
    from carto_core.model.project import ProjectScope

    home = build_sample_home(tmp_path / "h")
    append_rows(home.log("milestones"), [{**_wrapup(9, project="webshop", unresolved=["none", "refund rounding"]),
                                          "timestamp": "2026-12-01T10:00:00Z"}])
    threads = [t["text"] for t in orient(SearchEngine(home, persist=False), ProjectScope.parse("webshop"))["open_threads"]]
    assert "refund rounding" in threads and "none" not in threads
    change(home, model.record_id("thread", "webshop", "refund rounding"), "retired")
    threads = [t["text"] for t in orient(SearchEngine(home, persist=False), ProjectScope.parse("webshop"))["open_threads"]]
    assert "refund rounding" not in threads and "bundles and coupons stacking" in threads


_texts = st.one_of(st.none(), st.integers(), st.text(max_size=30), st.sampled_from(["none", "n/a", "use X", "use Y"]))
_rows = st.lists(st.one_of(
    st.fixed_dictionaries({"milestone": st.just("session_wrapup"), "project": st.sampled_from(["p", "P", "", None]),
                           "event_id": st.text(max_size=8), "decisions": st.one_of(st.lists(_texts, max_size=3), _texts),
                           "unresolved": st.one_of(st.lists(_texts, max_size=3), _texts), "key_insight": _texts}),
    st.fixed_dictionaries({"milestone": st.just("decision_update"), "target": st.one_of(st.none(), st.text(max_size=14)),
                           "state": st.sampled_from(["retired", "rejected", "superseded", "current", "bogus"]),
                           "superseded_by": st.one_of(st.none(), st.text(max_size=14)), "text": _texts}),
    st.dictionaries(st.text(max_size=5), _texts, max_size=3)), max_size=12)


@settings(max_examples=150, deadline=None)
@given(_rows)
def test_the_fold_takes_any_rows(rows):
    ledger = model.fold(rows)
    for record in ledger.records.values():
        assert record.state in model.STATES and not model.is_empty(record.text)
        assert (record.state == "superseded") == bool(record.by)
        successor = ledger.successor(record)
        assert successor is None or successor.current


def test_profile_and_start_note_leave_out_closed_records(tmp_path):
    from carto_core.lenses.profile import build_profile
    from carto_core.lenses.start_note import start_note

    home = build_sample_home(tmp_path / "h")
    cwd = tmp_path / "webshop"
    cwd.mkdir()
    env = {"CARTO_START_NOTE": "1"}
    assert "bundles and coupons stacking" in start_note(home, SESSIONS["c"], str(cwd), env=env)
    assert "apply discounts before tax" in build_profile(home, window="365d")["markdown"]
    change(home, model.record_id("thread", "webshop", "bundles and coupons stacking"), "rejected")
    change(home, model.record_id("decision", "webshop", "apply discounts before tax"), "superseded",
           text="apply discounts after tax")
    (home.state / "start-note.json").unlink()  # shown again, whatever changed
    note = start_note(home, SESSIONS["c"], str(cwd), env=env)
    assert note is not None and "Discount codes landed" in note and "bundles and coupons stacking" not in note
    assert "apply discounts before tax" not in build_profile(home, window="365d")["markdown"]
