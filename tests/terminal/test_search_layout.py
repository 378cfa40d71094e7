"""`carto search` as a person sees it: under a pseudo-terminal, with NO_COLOR, and piped."""

from __future__ import annotations

import json
import re

import pytest

from .pty_run import env_for, in_pty, piped, plain

QUERY = "discount codes"


def _ids(env) -> list[str]:
    done = piped(["search", QUERY, "--all", "-n", "3", "--json", "--no-semantic"], env)
    return [hit["event_id"] for hit in json.loads(done.stdout)["results"]]


def test_a_block_per_hit_with_the_full_id_coloured_on_a_terminal(sample_home):
    env = env_for()
    ids = _ids(env)
    code, out = in_pty(["search", QUERY, "--all", "-n", "3", "--no-semantic"], env, columns=70)
    assert code == 0 and "\x1b[" in out  # colour on a terminal
    text = plain(out)
    lines = text.splitlines()
    total = json.loads(piped(["search", QUERY, "--all", "--json", "--no-semantic"], env).stdout)["total"]
    assert lines[0] == f'3 of {total} results for "{QUERY}"' and total > 3
    blocks = [block.strip("\n").splitlines() for block in text.split("\n\n")[1:]]
    assert [block[0].split("  ")[0] for block in blocks] == ids  # whole, pasteable ids, in rank order
    for block in blocks:
        details = block[0].split("  ", 1)[1] if "  " in block[0] else block[1].strip()
        age, project = details.split(" · ")[:2]
        assert re.fullmatch(r"(just now|\d+(m|h|d|w|mo|y) ago)", age) and project == "webshop"
        assert 1 <= len(block) - 1 <= 3  # the details (under a long id) and a 2-line snippet
    assert len(blocks) == 3 and all(len(line) <= 70 for line in lines)
    # the query's words are highlighted in the snippet, and only there
    assert re.search(r"\x1b\[1;33m[Dd]iscount\x1b\[0m", out)
    for gone in ("call_id", "tokens", "transcript:", "session:", "facets", "===", "Facets"):
        assert gone not in text


def test_no_color_and_a_pipe_get_the_same_plain_text(sample_home):
    args = ["search", QUERY, "--all", "-n", "3", "--no-semantic"]
    code, no_colour = in_pty(args, env_for(colour=False), columns=100)
    done = piped(args, env_for())
    assert code == done.returncode == 0
    assert "\x1b" not in no_colour and "\x1b" not in done.stdout
    assert no_colour.strip("\n") == done.stdout.strip("\n")


def test_facets_only_when_asked(sample_home):
    env = env_for()
    plain_out = piped(["search", QUERY, "--all", "-n", "2", "--no-semantic"], env).stdout
    asked = piped(["search", QUERY, "--all", "-n", "2", "--no-semantic", "--facets"], env).stdout
    assert "facets of all" not in plain_out
    lines = asked.splitlines()
    assert lines[1].startswith("facets of all ") and lines[2].startswith("  projects  webshop ")


def test_oneline_is_one_line_a_result(sample_home):
    env = env_for()
    ids = _ids(env)
    code, out = in_pty(["search", QUERY, "--all", "-n", "3", "--no-semantic", "--format", "oneline"],
                       env, columns=80)
    lines = plain(out).splitlines()
    assert code == 0 and len(lines) == 3
    assert [line.split()[0] for line in lines] == ids and all(len(line) <= 80 for line in lines)
    assert all(" webshop " in line for line in lines)


def test_format_json_is_the_json_document(sample_home):
    env = env_for()
    args = ["search", QUERY, "--all", "-n", "3", "--no-semantic"]
    by_flag = json.loads(piped([*args, "--json"], env).stdout)
    by_format = json.loads(piped([*args, "--format", "json"], env).stdout)
    assert by_flag.keys() == by_format.keys()
    assert by_flag["results"] == by_format["results"] and by_flag["total"] == by_format["total"]
    clash = piped([*args, "--json", "--format", "oneline"], env)
    assert clash.returncode == 2 and "--json and --format oneline" in clash.stderr


def test_nothing_found_says_so_and_exits_3(sample_home):
    done = piped(["search", "zzqx vvkq", "--all", "--no-semantic"], env_for())
    assert done.returncode == 3
    assert done.stdout.splitlines()[0] == 'no results for "zzqx vvkq"'


def test_help_names_the_default_decay_and_fusion():
    from click.testing import CliRunner

    from carto_core.cli import cli
    from carto_core.model.config import DEFAULTS

    output = CliRunner().invoke(cli, ["search", "--help"]).output
    text = " ".join(re.sub(r"-\n\s+", "-", output).split())  # click wraps after a hyphen
    assert f"(default {DEFAULTS['search.decay']}," in text and "default gated-prior" in text
    assert f"(default {DEFAULTS['search.fusion']}," in text
    assert "--format [text|oneline|json]" in text and "--facets" in text


def test_nothing_found_over_weak_matches_says_they_were_left_out():
    # exit 3 on a home that has rows: the person learns matches existed and how to see them
    from types import SimpleNamespace

    from carto_core.cli.search_text import notes
    from carto_core.search.floor import FloorReport

    def result(floor):
        return SimpleNamespace(results=[], suppressed=0, unknown_entities=[], floor=floor,
                               semantic=SimpleNamespace(state="ok", reason=""))

    weak = notes(result(FloorReport(True, False, semantic_min=0.22, best_semantic=0.19, below=6)))
    assert weak == ["(6 weak matches left out by the relevance floor: --json's floor says why, "
                    "CARTO_SEARCH_FLOOR=0 shows them)",
                    "Try fewer or other words."]
    assert notes(result(FloorReport(True, True))) == weak[1:]  # nothing matched at all
    assert notes(result(None)) == weak[1:]


def _page(ids_and_texts):
    from types import SimpleNamespace

    hits = [SimpleNamespace(event_id=i, timestamp="2026-11-30T12:00:00Z", project="webshop",
                            summary=text) for i, text in ids_and_texts]
    return SimpleNamespace(results=hits, query="codebase")


def test_oneline_lines_up_its_columns_whatever_the_ids(monkeypatch):
    """Ids of a page differ in length (a subagent's turn id is longer): the ages and projects
    still start in one column (they were pushed along by each longer id)."""
    from datetime import datetime, timezone

    from carto_core.cli.search_text import render_oneline
    from carto_core.util.terminal import Style

    page = _page([("turn-5c03-1", "the codebase"), ("turn-5c03-agent-test-hash-123-1", "codebase"),
                  ("git-a1b2c3d", "codebase tour")])
    out = render_oneline(page, style=Style(False), width=100,
                         now=datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc))
    lines = out.splitlines()
    assert len({line.index(" 1d ago") for line in lines}) == 1
    assert len({line.index("webshop") for line in lines}) == 1
    assert [line.split()[0] for line in lines] == [hit.event_id for hit in page.results]


def test_a_cut_after_the_texts_own_ellipsis_shows_one():
    from carto_core.cli.search_text import query_terms, snippet

    text = "init is analyzing your codebase… /init Please analyze this codebase and write " * 3
    cut = snippet(text, query_terms("deploy"), 34)
    assert cut == "init is analyzing your codebase…"


def test_an_unavailable_semantic_ladder_is_said_in_one_line_without_nested_parentheses(sample_home):
    """The sample home has no minilm vectors: the text says so under the results in one level
    of parentheses (it printed "(semantic: unavailable: no vectors ... yet (fix: carto index))")."""
    done = piped(["search", "why is the cart total off by a cent?", "--all"],
                 env_for({"CARTO_EMBEDDER": "minilm"}))
    line = next(line for line in done.stdout.splitlines() + done.stderr.splitlines()
                if "semantic ladder" in line)
    assert line.startswith("semantic ladder unavailable: no vectors of model minilm-")
    assert line.endswith(" (fix: carto index)") and line.count("(") == 1


def test_a_pasted_stack_trace_or_a_long_query_is_one_header_line_within_the_width(sample_home):
    """The header echoed the query whole: a pasted traceback printed its six lines again above
    the results, a 10,000-character query thousands of characters."""
    trace = ('Traceback (most recent call last):\n  File "/work/webshop/src/cart.py", line 42, in total\n'
             '    return sum(line.total() for line in self.lines)\n'
             'decimal.InvalidOperation: discount codes rounding')
    env = env_for({"COLUMNS": "80"})
    for query in (trace, "discount " * 1200):
        done = piped(["search", query, "--all", "-n", "2", "--no-semantic"], env)
        assert done.returncode == 0, done.stderr
        head = done.stdout.split("\n\n")[0]
        assert "\n" not in head and len(head) <= 80, head
        assert re.fullmatch(r'(2 of \d+ results|\d+ results?) for "(Traceback|discount) .*…"', head), head
    short = piped(["search", "discount codes", "--all", "-n", "1", "--no-semantic"], env).stdout
    assert short.splitlines()[0].endswith('for "discount codes"')  # a query that fits is whole


def test_nothing_found_suggests_only_what_could_change_the_answer(sample_home):
    """'Try ... a wider --since, or --all' was said to a person who gave no window and whose
    page delta serving had hidden nothing: neither could find anything more."""
    env = env_for()
    env.pop("CARTO_SESSION_ID", None)
    bare = piped(["search", "zzqx vvkq", "--no-semantic"], env)
    assert bare.returncode == 3
    assert bare.stdout.splitlines()[-1] == "Try fewer or other words."
    windowed = piped(["search", "discount codes", "--since", "2026-01-01", "--before", "2026-01-02",
                      "--no-semantic"], env)
    assert windowed.returncode == 3
    assert windowed.stdout.splitlines()[-1] == "Try fewer or other words, or a wider --since/--before."


def test_a_session_id_searched_for_is_pointed_at_carto_session(sample_home):
    """A session id copied from `carto standup` (5a1e0000) and searched for found nothing and
    said 'No row holds 5a1e0000', of a session the home holds."""
    done = piped(["search", "5a1e0000", "--no-semantic"], env_for())
    assert done.returncode == 3
    assert ("5a1e0000 names a session: `carto session 5a1e0000` shows it "
            "(search finds the words of rows, not their ids)") in done.stdout
    assert "No row holds 5a1e0000" not in done.stdout


def test_a_project_no_event_has_is_named_with_the_homes_projects(sample_home):
    """--project webshp (a typo) found nothing and advised other words: the words were fine.
    The page, and the orientation, now say no project matches and list the home's projects."""
    env = env_for()
    done = piped(["search", "discount codes", "--project", "webshp", "--no-semantic"], env)
    assert done.returncode == 3
    assert ("No project matches webshp; this home's projects: infra-tools, webshop."
            in done.stdout.splitlines())
    orient = piped(["search", "--project", "webshp"], env)
    assert orient.returncode == 3
    assert "No project matches webshp; this home's projects: infra-tools, webshop." in orient.stdout
    found = piped(["search", "zzqx vvkq", "--project", "webshop", "--no-semantic"], env)
    assert found.returncode == 3 and "No project matches" not in found.stdout


def test_orientation_counts_edits_in_the_nouns_number(sample_home):
    out = piped(["search", "--project", "webshop"], env_for()).stdout
    # the busiest files' lines (each ends with when it was last edited)
    edits = [line for line in out.splitlines() if " edit" in line and "(last " in line]
    assert edits and all(re.match(r"\s+(1 edit |\d+ edits) ", line) for line in edits), edits
    assert not any(re.match(r"\s+1 edits", line) for line in edits)


def test_thread_of_a_turn_a_search_showed_says_what_it_can_do_instead(sample_home):
    """The page says its ids paste into --thread; a transcript turn's answered '(no changelog
    event turn-...)', as if the id were wrong. It now says the turn is no changelog event, that
    a work arc follows those, and what shows the turn and its session."""
    env = env_for()
    turn = next(hit["event_id"] for hit in json.loads(piped(
        ["search", "discount codes", "--all", "--json", "--no-semantic"], env).stdout)["results"]
        if hit["event_id"].startswith("turn-"))
    done = piped(["search", "--thread", turn], env)
    assert done.returncode == 3
    session = turn[len("turn-"):].rsplit("-", 1)[0]
    assert done.stdout.splitlines() == [
        f"({turn} is a transcript turn, not a changelog event: a work arc follows changelog "
        f"events' parent_event_id; `carto search --get {turn}` shows the turn, "
        f"`carto session {session}` its session)"]
    unknown = piped(["search", "--thread", "evt-000000000bad"], env)
    assert unknown.returncode == 3 and unknown.stdout.strip() == "(no event evt-000000000bad in the changelog)"


def test_a_tag_no_session_holds_is_said_not_other_words(sample_home):
    """--tag tool:bsh (a typo) found nothing and advised 'Try fewer or other words.': the words
    were fine, no session held the tag."""
    done = piped(["search", "discount codes", "--tag", "tool:bsh", "--no-semantic"], env_for())
    assert done.returncode == 3
    assert ("No session holds every tag given (tool:bsh): `carto sessions --json` lists each "
            "session's tags.") in done.stdout.splitlines()
    held = piped(["search", "zzqx vvkq", "--tag", "ext:py", "--no-semantic"], env_for())
    assert held.returncode == 3 and "No session holds" not in held.stdout


def test_facets_say_how_many_results_they_cover():
    """'facets of all 1196 results' headed counts of the first 500 (the facets' window): the
    projects' counts added up to 500, not 1,196."""
    from types import SimpleNamespace

    from carto_core.cli.search_text import facet_lines

    def result(total, window):
        return SimpleNamespace(total=total, facets={"window": window, "projects": {"a": window}})

    assert facet_lines(result(1196, 500))[0] == "facets of the first 500 of 1,196 results:"
    assert facet_lines(result(12, 12))[0] == "facets of all 12 results:"
    assert facet_lines(result(1, 1))[0] == "facets of the 1 result:"


def test_the_header_groups_the_thousands_as_every_other_count_does():
    """'2 of 1196 results' beside 'facets of the first 500 of 1,196 results'."""
    from types import SimpleNamespace

    from carto_core.cli.search_text import header

    page = SimpleNamespace(results=[1, 2], total=1196, query="zotuje")
    assert header(page, None, 100) == '2 of 1,196 results for "zotuje"'


@pytest.mark.parametrize("columns", [20, 24, 30])
def test_the_header_fits_a_narrow_terminal(sample_home, columns):
    """At 20 columns the header read '3 of 11 results for "cart"' (26): the query always kept
    20 columns. It is cut to what fits, and left out where not a letter of it does."""
    for args in (["search", "cart", "--no-semantic"], ["search", "cart", "--no-semantic", "-n", "3"]):
        code, out = in_pty(args, env_for(), columns=columns)
        head = plain(out).splitlines()[0]
        assert code == 0 and len(head) <= columns, head
        assert re.fullmatch(r'(3 of \d+ results|\d+ results)( for "(cart|c…|ca…|car…)")?', head), head


def test_the_header_cuts_the_query_then_leaves_it_out_then_the_project():
    from types import SimpleNamespace

    from carto_core.cli.search_text import header
    from carto_core.util.terminal import cells

    page = SimpleNamespace(results=[1, 2, 3], total=11, query="cart")
    assert header(page, None, 26) == '3 of 11 results for "cart"'
    assert header(page, None, 24) == '3 of 11 results for "c…"'
    assert header(page, None, 20) == "3 of 11 results"
    assert header(page, "webshop", 30) == "3 of 11 results in webshop"
    assert header(page, "webshop", 20) == "3 of 11 results"
    wide = SimpleNamespace(results=[1], total=1, query="割引コードの丸め")  # two columns a character
    assert header(wide, None, 24) == '1 result for "割引コー…"' and cells(header(wide, None, 24)) <= 24
