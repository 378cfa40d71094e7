"""What the `wrapup` tool says of itself is what it does: the decisions, open threads and insight
an agent gives replace the derived ones (as `carto wrapup --decision` does; the catalogue said
they were added), and it is not the only tool that writes (`decide` writes a decision_update
milestone; the catalogue said it was)."""

from __future__ import annotations

from carto_core.evaluation.sample import build_sample_home
from carto_core.mcp.server import CartoMcp
from carto_core.mcp.tools import TOOLS

SESSION = "5b2e0000-bbbb-4000-8000-00000000000b"  # a commit and an edit left uncommitted


def test_given_decisions_threads_and_insight_replace_the_derived_ones(tmp_path):
    state = CartoMcp(build_sample_home(tmp_path / "h"))
    derived = state.call("wrapup", {"session_id": SESSION, "dry_run": True})["row"]
    assert (derived["decisions"], derived["unresolved"], derived["key_insight"]) == (
        ["fix(cart): round line totals with Decimal quantize (c0ffee1)"],
        ["uncommitted edits: test_cart.py"], "work concentrated in cart.py (1 edit)")
    given = state.call("wrapup", {"session_id": SESSION, "dry_run": True, "decisions": ["use Decimal"],
                                  "unresolved": ["coupon stacking", "none"], "key_insight": "money is Decimal"})["row"]
    assert (given["decisions"], given["unresolved"], given["key_insight"]) == (
        ["use Decimal"], ["coupon stacking"], "money is Decimal")


def test_the_catalogue_says_what_wrapup_does_and_which_tools_write():
    spec = {tool.name: tool for tool in TOOLS}
    wrapup = spec["wrapup"].description
    assert "each of description, decisions, unresolved and key_insight you give is used instead of the derived one" in wrapup
    assert "only tool" not in wrapup and "are added" not in wrapup
    assert sorted(name for name, tool in spec.items() if not tool.read_only) == ["decide", "search", "wrapup"]
    assert [spec["wrapup"].properties[key]["description"] for key in ("decisions", "unresolved", "key_insight")] == [
        "What the session decided; instead of its commits.", "Open threads; instead of its uncommitted edits.",
        "Instead of where its edits concentrated."]
