"""`carto eval --cases FILE`: a line the file format (docs/ranking.md, "Labelled cases file")
does not allow is refused in one line naming the file, the line and what is wrong (exit 2, or
the JSON error document), never a traceback from inside the run."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.evaluation import agecurve
from carto_core.evaluation.sample import build_sample_home

GOOD = {"query": "rounding cart", "expect": ["evt-x"]}


@pytest.mark.parametrize("line,why", [
    ("not json", "not JSON (Expecting value at column 1)"),
    ('{"query": "a", ', "not JSON (Expecting property name enclosed in double quotes at column 16)"),
    ("[1, 2]", "a case is a JSON object, not an array"),
    ('"rounding"', "a case is a JSON object, not a string"),
    (json.dumps({"query": "a"}), "a case needs a string `query` and a list `expect`"),
    (json.dumps({"query": "a", "expect": "evt-x"}), "a case needs a string `query` and a list `expect`"),
    (json.dumps({**GOOD, "expect": [1]}), "expect: event ids are strings, not 1"),
    (json.dumps({**GOOD, "kind": "recent"}), "kind: 'recent' is not one of known-item, recency, conversational"),
    (json.dumps({**GOOD, "k": "ten"}), "k: 'ten' is not a whole number of 1 or more"),
    (json.dumps({**GOOD, "k": 0}), "k: 0 is not a whole number of 1 or more"),
    (json.dumps({**GOOD, "k": True}), "k: True is not a whole number of 1 or more"),
    (json.dumps({**GOOD, "project": 5}), "project: 5 is not a string or null"),
    (json.dumps({**GOOD, "bucket": ["90d+"]}), "bucket: ['90d+'] is not a string"),
    (json.dumps({**GOOD, "id": 3}), "id: 3 is not a string"),
    (json.dumps({**GOOD, "since": "bogus"}), "since: cannot read 'bogus' as a time"),
    (json.dumps({**GOOD, "before": 20260101}), "before: 20260101 is not a string or null"),
])
def test_a_line_the_format_does_not_allow_is_named_with_its_line(tmp_path, line, why):
    home = build_sample_home(tmp_path / "h")
    cases = tmp_path / "cases.jsonl"
    cases.write_text(json.dumps(GOOD) + "\n\n" + line + "\n", "utf-8")
    env = {"CARTO_HOME": str(home.root)}
    out = CliRunner().invoke(cli, ["eval", "--cases", str(cases), "--decay", "none", "--rankers", "bm25"], env=env)
    assert out.exit_code == 2, out.output
    message = out.stderr.strip()
    assert message.startswith(f"carto: --cases: {cases}:3: {why}"), message
    assert message.count("\n") == 0 and "Traceback" not in out.output
    doc = CliRunner().invoke(cli, ["eval", "--cases", str(cases), "--json"], env=env)
    assert doc.exit_code == 2 and json.loads(doc.stdout) == {"error": message.removeprefix("carto: "), "exit_code": 2}


def test_every_field_the_format_names_is_read_back_as_written(tmp_path):
    case = agecurve.Case("ki-90d+-017", "known-item", "quokka ledger schema", ["evt-3k2j4h5g6f7d"], 7,
                         "90d+", "webshop", "30d", "2026-09-01")
    path = tmp_path / "cases.jsonl"
    agecurve.write_cases(path, [case, agecurve.Case("c2", "conversational", "q", ["a", "b"], 10, "open")])
    assert agecurve.read_cases(path) == [case, agecurve.Case("c2", "conversational", "q", ["a", "b"], 10, "open")]
    path.write_text(json.dumps(GOOD) + "\n", "utf-8")
    assert agecurve.read_cases(path) == [agecurve.Case("case-1", "known-item", "rounding cart", ["evt-x"])]


def test_a_file_that_is_not_utf8_is_named_with_its_line(tmp_path):
    """A Latin-1 byte said only "'utf-8' codec can't decode byte 0xe9 in position 77: invalid
    continuation byte": no file, no line."""
    home = build_sample_home(tmp_path / "h")
    cases = tmp_path / "cases.jsonl"
    cases.write_bytes(json.dumps(GOOD).encode() + b"\r\n\n" + b'{"query": "caf\xe9 au lait", "expect": []}\n')
    env = {"CARTO_HOME": str(home.root)}
    why = f"--cases: {cases}:3: not UTF-8 (byte 0xe9 at column 15); save the file as UTF-8"
    out = CliRunner().invoke(cli, ["eval", "--cases", str(cases), "--decay", "none", "--rankers", "bm25"], env=env)
    assert (out.exit_code, out.stdout, out.stderr) == (2, "", f"carto: {why}\n")
    doc = CliRunner().invoke(cli, ["eval", "--cases", str(cases), "--json"], env=env)
    assert doc.exit_code == 2 and json.loads(doc.stdout) == {"error": why, "exit_code": 2}
    cases.write_bytes(b"\xff" + json.dumps(GOOD).encode())  # the first byte: line 1, column 1
    with pytest.raises(ValueError) as refused:
        agecurve.read_cases(cases)
    assert str(refused.value) == f"{cases}:1: not UTF-8 (byte 0xff at column 1); save the file as UTF-8"


@pytest.mark.parametrize("before, line, column", [
    (b"", 1, 1),
    (b'{"query": "na\xc3\xafve ', 1, 18),  # a character of two bytes is one column
    (b"{}\n", 2, 1),
    (b"{}\r\n{}\n\n  ", 4, 3),
    (b"{}\r", 2, 1),  # a lone carriage return ends a line, as the cases are split
])
def test_a_byte_that_is_not_utf8_is_placed_by_line_and_column(tmp_path, before, line, column):
    cases = tmp_path / "cases.jsonl"
    cases.write_bytes(before + b"\xe9x\n")
    with pytest.raises(ValueError) as refused:
        agecurve.read_cases(cases)
    assert str(refused.value) == f"{cases}:{line}: not UTF-8 (byte 0xe9 at column {column}); save the file as UTF-8"
