"""Contract v1 refusals: upstream's wording, 400 -> exit 2, 409 -> exit 4."""

from __future__ import annotations

import base64
import json

import pytest
from click.testing import CliRunner
from hypothesis import given, strategies as st

from carto_core.cli import cli
from carto_core.facts import FactsError, Position, decode_cursor, encode_cursor, run_facts
from carto_core.logio.logs import SEARCHED_LOGS
from carto_core.evaluation.sample import build_sample_home

BASE = {"contract_version": 1, "verb": "census", "call_id": "t"}


@pytest.mark.parametrize(
    "change, status, message",
    [
        ({"contract_version": 2}, 409, "unsupported contract_version 2"),
        ({"contract_version": None}, 409, "unsupported contract_version null"),
        ({"verb": "rank"}, 400, "unsupported verb 'rank'; supported verbs: census, delta, pulse, tempo, tokens"),
        ({"verb": ""}, 400, "no verb given; supported verbs: census, delta, pulse, tempo, tokens"),
        ({"call_id": ""}, 400, "call_id must not be empty"),
        ({"call_id": "x" * 161}, 400, "call_id is too long"),
        ({"project": "p" * 2049}, 400, "project is too long"),
        ({"since": "1" * 129}, 400, "since is too long"),
        ({"corpus_root": "/" * 4097}, 400, "corpus_root is too long"),
        ({"project": 3}, 400, "project must be a string"),
        ({"top": 0}, 400, "top must be an integer from 1 to 200"),
        ({"top": 201}, 400, "top must be an integer from 1 to 200"),
        ({"top": True}, 400, "top must be an integer from 1 to 200"),
        ({"sample": 11}, 400, "sample must be an integer from 0 to 10"),
        ({"sample": 2.5}, 400, "sample must be an integer from 0 to 10"),
        ({"budget": 2001}, 400, "budget must be an integer from 1 to 2000"),
        ({"purpose": "a b"}, 400, "purpose contains unsupported characters"),
        ({"verb": "delta", "since": "24h"}, 400,
         "delta is bounded by cursor, not by since/before; omit the time window"),
        ({"verb": "delta", "before": "yesterday"}, 400,
         "delta is bounded by cursor, not by since/before; omit the time window"),
        ({"cursor": "abc"}, 400, "cursor is only meaningful for delta, not census"),
        ({"verb": "tempo", "cursor": "abc"}, 400, "cursor is only meaningful for delta, not tempo"),
        ({"since": "the dawn of time"}, 400, "cannot parse since value 'the dawn of time'"),
        ({"corpus_root": "/somewhere/else"}, 409, None),
    ],
)
def test_refusals_carry_upstream_wording_and_status(tmp_path, change, status, message):
    home = build_sample_home(tmp_path / "h")
    with pytest.raises(FactsError) as caught:
        run_facts({**BASE, **change}, home)
    assert caught.value.status == status
    if message:
        assert caught.value.message == message
    else:
        assert caught.value.message == f"this service indexes {tmp_path / 'h'}, not /somewhere/else"


def test_bounds_at_their_limits_are_accepted(tmp_path):
    home = build_sample_home(tmp_path / "h")
    for fields in ({"top": 1, "sample": 0}, {"top": 200, "sample": 10}, {"project": "p" * 2048},
                   {"call_id": "x" * 160}):
        assert run_facts({**BASE, **fields}, home)["contract_version"] == 1
    assert run_facts({**BASE, "verb": "delta", "budget": 2000}, home)["facts"]["baseline"] is True


def test_request_body_must_be_an_object(tmp_path):
    with pytest.raises(FactsError, match="request body must be an object"):
        run_facts(["census"], build_sample_home(tmp_path / "h"))


def _cli(args, home):
    runner = CliRunner()
    return runner.invoke(cli, ["facts", *args], env={"CARTO_HOME": str(home.root)})


def test_cli_exit_codes_and_messages(tmp_path):
    home = build_sample_home(tmp_path / "h")
    other = build_sample_home(tmp_path / "other")
    baseline = json.loads(_cli(["delta", "--json"], other).stdout)["facts"]["cursor"]

    result = _cli(["delta", "--since", "24h"], home)
    assert result.exit_code == 2
    assert "delta is bounded by cursor, not by since/before; omit the time window" in result.stderr

    result = _cli(["census", "--top", "500"], home)
    assert result.exit_code == 2 and "top must be an integer from 1 to 200" in result.stderr

    result = _cli(["delta", "--cursor", baseline], home)  # a cursor from another home
    assert result.exit_code == 4
    assert f"cursor was issued for {tmp_path / 'other'}, but this service indexes {tmp_path / 'h'}" in result.stderr

    tampered = baseline[:10] + ("A" if baseline[10] != "A" else "B") + baseline[11:]
    result = _cli(["delta", "--cursor", tampered], home)
    assert result.exit_code in (2, 4)
    result = _cli(["delta", "--cursor", baseline + "!!"], home)
    assert result.exit_code == 2 and "cursor is not a valid facts cursor" in result.stderr

    forged = base64.urlsafe_b64encode(json.dumps(
        {"v": 1, "corpus": str(tmp_path / "h"), "pos": {"changelog": {"offset": -5, "boundary": ""}}}
    ).encode()).decode().rstrip("=")
    result = _cli(["delta", "--cursor", forged], home)
    assert result.exit_code == 2 and "cursor position for changelog is malformed" in result.stderr

    v2 = base64.urlsafe_b64encode(json.dumps({"v": 2, "corpus": str(tmp_path / "h"), "pos": {}}).encode()).decode()
    result = _cli(["delta", "--cursor", v2], home)
    assert result.exit_code == 4 and "cursor contract_version 2 is not supported" in result.stderr

    result = _cli(["census", "--json", "--top", "5", "--sample", "2"], home)
    assert result.exit_code == 0
    envelope = json.loads(result.stdout)
    assert list(envelope) == ["contract_version", "backend", "verb", "call_id", "corpus_root",
                              "index_generation", "corpus_events", "indexed_docs", "window",
                              "project", "facts", "stages_ms"]
    assert list(envelope["facts"]) == ["events", "windowed_out", "undated_dropped", "unattributed",
                                       "sessions", "span", "by_project", "by_type", "by_source",
                                       "by_provider", "commits"]


def test_cursor_file_is_a_baseline_when_missing_and_advances_after_render(tmp_path):
    home = build_sample_home(tmp_path / "h")
    cursor_file = tmp_path / "pulse.cursor"
    first = _cli(["delta", "--cursor-file", str(cursor_file), "--json"], home)
    assert first.exit_code == 0 and json.loads(first.stdout)["facts"]["baseline"] is True
    stored = json.loads(cursor_file.read_text())
    assert stored["verb"] == "delta" and stored["corpus_root"] == str(tmp_path / "h")
    from carto_core.logio.appendlog import append_rows

    append_rows(home.log("changelog"), [{"event_id": "evt-late", "timestamp": "2020-01-01T00:00:00Z",
                                         "type": "git_commit", "project": "webshop"}])
    second = json.loads(_cli(["delta", "--cursor-file", str(cursor_file), "--json"], home).stdout)
    # A backfilled (old-dated) row is still new: delta is arrival order, not time.
    assert [e["event_id"] for e in second["facts"]["events"]] == ["evt-late"]
    third = json.loads(_cli(["delta", "--cursor-file", str(cursor_file), "--json"], home).stdout)
    assert third["facts"]["events"] == [] and third["facts"]["baseline"] is False


hexes = st.text(alphabet="0123456789abcdef", min_size=40, max_size=40)
positions = st.dictionaries(
    st.sampled_from(list(SEARCHED_LOGS)),
    st.builds(Position, st.integers(min_value=0, max_value=2**53), st.one_of(st.just(""), hexes)),
)


@given(root=st.text(min_size=1, max_size=200), pos=positions)
def test_cursor_round_trips(root, pos):
    token = encode_cursor(root, pos)
    assert set(token) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    assert decode_cursor(token, root, SEARCHED_LOGS) == pos
    document = json.loads(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
    assert list(document) == ["v", "corpus", "pos"] and document["v"] == 1


@given(root=st.text(min_size=1, max_size=50), pos=positions, data=st.data())
def test_an_edited_cursor_is_refused_or_decodes_to_what_it_says(root, pos, data):
    token = encode_cursor(root, pos)
    index = data.draw(st.integers(min_value=0, max_value=len(token) - 1))
    char = data.draw(st.sampled_from("ABCxyz019-_!"))
    edited = token[:index] + char + token[index + 1:]
    try:
        decoded = decode_cursor(edited, root, SEARCHED_LOGS)
    except FactsError as exc:
        assert exc.status in (400, 409)
        return
    # An edit that still decodes is a well-formed claim about positions; the delta reader then
    # checks each boundary against the file (see test_delta.py), it never trusts it blindly.
    for source, position in decoded.items():
        assert source in SEARCHED_LOGS and position.offset >= 0
