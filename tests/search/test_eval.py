"""`carto eval`: sampled cases are what they claim to be, and the table reports their ranks."""

from __future__ import annotations

import json

from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.evaluation import agecurve
from carto_core.evaluation.generate import generate_home
from carto_core.logio.home import Home
from carto_core.search.engine import SearchEngine
from carto_core.search.tokens import row_text, tokenize


def test_cases_are_specific_lookups_of_their_bucket(tmp_path):
    generate_home(tmp_path / "g", 3000, seed=3)
    engine = SearchEngine(Home(tmp_path / "g"))
    now = agecurve.now_utc()
    cases, stats = agecurve.build_cases(engine, now=now, per_bucket=5, recency=3, max_matches=10)
    known = [c for c in cases if c.kind == "known-item"]
    assert len(known) == stats["known_item"] >= 10  # a 3k-event year leaves some buckets thin
    counts = {b[0]: sum(1 for c in known if c.bucket == b[0]) for b in agecurve.BUCKETS}
    assert max(counts.values()) == 5 and sum(1 for n in counts.values() if n) >= 2
    index = engine.index
    for case in known:
        doc = index.index_of(case.expect[0])
        terms = case.query.split()
        assert 3 <= len(terms) <= 4
        assert set(terms) <= set(tokenize(row_text(index.row(doc))))  # the target holds them all
        holders = [i for i in range(len(index))
                   if set(terms) <= set(tokenize(row_text(index.row(i))))]
        assert doc in holders and len(holders) <= 10  # an independent scan agrees: a lookup
        age = (now.timestamp() - float(index.cols["ts"][doc])) / 86400
        low, high = {b[0]: (b[1], b[2]) for b in agecurve.BUCKETS}[case.bucket]
        assert low <= age < high
    for case in (c for c in cases if c.kind == "recency"):
        terms = case.query.split()
        holders = [i for i in range(len(index))
                   if set(terms) <= set(tokenize(row_text(index.row(i))))]
        newest = max(holders, key=lambda i: float(index.cols["ts"][i]))
        assert case.expect == [index.event_id(newest)] and len(holders) > 30


def test_eval_command_table_and_cases_roundtrip(tmp_path):
    runner = CliRunner()
    cases_file = tmp_path / "cases.jsonl"
    out = runner.invoke(cli, ["eval", "--generate", str(tmp_path / "g"), "--events", "2000",
                              "--per-bucket", "4", "--recency", "2", "--write-cases",
                              str(cases_file), "--json"])
    assert out.exit_code == 0, out.output
    doc = json.loads(out.output)
    decays = ["none", "exp", "gated-exp", "gated-prior"]
    assert [c["decay"] for c in doc["configs"]] == decays * 2
    # with no --rankers: the search's own set (bm25 and semantic), then the keyword ladder alone
    assert [c["rankers"] for c in doc["configs"]] == [["bm25", "semantic"]] * 4 + [["bm25"]] * 4
    # a generated home has no vectors: the semantic sets ranked as bm25's, and it says so
    assert doc["semantic"].startswith("unavailable: no vectors of model ")
    text = runner.invoke(cli, ["eval", "--per-bucket", "2", "--recency", "0", "--decay", "none"],
                         env={"CARTO_HOME": str(tmp_path / "g")}).output
    assert "semantic ladder unavailable: no vectors of model " in text
    assert "its rows rank as bm25's" in text
    written = agecurve.read_cases(cases_file)
    assert sum(b["n"] for b in doc["configs"][0]["buckets"].values()) == sum(
        1 for c in written if c.kind == "known-item")
    # Re-running the saved cases on the same home reproduces the numbers.
    again = runner.invoke(cli, ["eval", "--cases", str(cases_file), "--decay", "gated-exp", "--json"],
                          env={"CARTO_HOME": str(tmp_path / "g")})
    assert again.exit_code == 0, again.output
    gated = json.loads(again.output)["configs"][0]
    assert gated["buckets"] == doc["configs"][2]["buckets"]


def test_eval_rejects_unknown_names(tmp_path):
    generate_home(tmp_path / "g", 300)
    out = CliRunner().invoke(cli, ["eval", "--decay", "sometimes"], env={"CARTO_HOME": str(tmp_path / "g")})
    assert out.exit_code == 2 and "gated-exp" in out.output


def test_eval_generates_any_dialogue_variant_and_refuses_an_unknown_one_first(tmp_path):
    """--dialogues took a, b or c only, of the thirty-odd variants written since; an unknown
    one is a usage error before anything is generated."""
    bad = CliRunner().invoke(cli, ["eval", "--generate", str(tmp_path / "bad"), "--events", "300",
                                   "--dialogues", "zz"])
    assert bad.exit_code == 2 and "accepted: a, b, c" in bad.output and ", ae," in bad.output
    assert not (tmp_path / "bad").exists()
    done = CliRunner().invoke(cli, ["eval", "--generate", str(tmp_path / "g"), "--events", "300",
                                    "--dialogues", "ae", "--rankers", "bm25", "--decay",
                                    "gated-prior", "--per-bucket", "2", "--recency", "1", "--json"])
    assert done.exit_code == 0, done.output
    config = json.loads(done.output)["configs"][0]
    assert sum(v["n"] for v in config["conversational"].values()) >= 22


def test_generate_refuses_a_folder_holding_a_home_it_did_not_write(tmp_path):
    """--generate into a real home (a typo, `--generate ~/.local/share/carto`) replaced its logs
    with a synthetic year; a folder --generate did not write, holding anything, is now refused
    before a byte is written, and one it wrote earlier is written again."""
    home = tmp_path / "real"
    home.mkdir()
    log = home / "changelog.jsonl"
    log.write_text('{"event_id": "evt-000000000001", "summary": "my own work"}\n')
    out = CliRunner().invoke(cli, ["eval", "--generate", str(home), "--events", "300"])
    assert out.exit_code == 2, out.output
    assert "not written by --generate" in out.output and str(home) in out.output
    assert log.read_text() == '{"event_id": "evt-000000000001", "summary": "my own work"}\n'
    assert sorted(p.name for p in home.iterdir()) == ["changelog.jsonl"]
    again = ["eval", "--generate", str(tmp_path / "g"), "--events", "300", "--rankers", "bm25",
             "--decay", "none", "--per-bucket", "2", "--recency", "1", "--json"]
    assert CliRunner().invoke(cli, again).exit_code == 0
    assert CliRunner().invoke(cli, again).exit_code == 0  # its own earlier output: written again


def test_generate_checks_decay_and_rankers_before_writing(tmp_path):
    out = CliRunner().invoke(cli, ["eval", "--generate", str(tmp_path / "g"), "--events", "300",
                                   "--decay", "sometimes"])
    assert out.exit_code == 2 and "gated-exp" in out.output
    assert not (tmp_path / "g").exists()
    out = CliRunner().invoke(cli, ["eval", "--generate", str(tmp_path / "g"), "--events", "300",
                                   "--rankers", "bm25,bm26"])
    assert out.exit_code == 2 and "bm26" in out.output
    assert not (tmp_path / "g").exists()


def test_the_table_shows_cases_of_any_bucket_a_cases_file_gives(tmp_path):
    """A --cases file whose cases have no `bucket` (or one of their own) was evaluated and its
    table had one empty column and no figure: only the four age buckets were shown."""
    generate_home(tmp_path / "g", 300, seed=5)
    engine = SearchEngine(Home(tmp_path / "g"))
    engine.refresh()
    ids = [engine.index.event_id(i) for i in range(3)]
    cases = tmp_path / "cases.jsonl"
    cases.write_text(json.dumps({"query": "anything at all", "expect": [ids[0]]}) + "\n"
                     + json.dumps({"query": "more words", "expect": [ids[1]], "bucket": "mine"}) + "\n")
    out = CliRunner().invoke(cli, ["eval", "--cases", str(cases), "--rankers", "bm25", "--decay", "none"],
                             env={"CARTO_HOME": str(tmp_path / "g")})
    assert out.exit_code == 0, out.output
    table = [line for line in out.output.splitlines() if line.startswith("|")]
    assert table[0] == ("| rankers | fusion | decay | mine s@1 / s@10 / MRR | unbucketed s@1 / s@10 / MRR "
                        "| recency kept@10 |")
    assert table[2].startswith("| bm25 | rrf-prior | none | ") and table[2].count("(n=1)") == 2


def test_each_row_names_its_fusion_and_a_name_no_plugin_registers_is_one_line(tmp_path):
    """Several --fusion values gave rows that read alike ('| bm25 | gated-prior | ...'), and the
    JSON configs named no fusion: an evaluator could only match them by the flags' order. An
    unknown --analyzer ended in a traceback (search and index say one line, exit 2)."""
    generate_home(tmp_path / "g", 300, seed=5)
    env = {"CARTO_HOME": str(tmp_path / "g")}
    args = ["eval", "--rankers", "bm25", "--decay", "none", "--fusion", "rrf", "--fusion", "rrf-prior"]
    out = CliRunner().invoke(cli, args, env=env)
    assert out.exit_code == 0, out.output
    rows = [line for line in out.output.splitlines() if line.startswith("| bm25 ")]
    assert [row.split(" | ")[1] for row in rows] == ["rrf", "rrf-prior"]
    document = json.loads(CliRunner().invoke(cli, args + ["--json"], env=env).stdout)
    assert [c["fusion"] for c in document["configs"]] == ["rrf", "rrf-prior"]
    for flag in ("--analyzer", "--fusion"):
        bad = CliRunner().invoke(cli, ["eval", flag, "nosuch", "--json"], env=env)
        assert bad.exit_code == 2 and json.loads(bad.stdout)["exit_code"] == 2
        assert "unknown" in json.loads(bad.stdout)["error"] and "nosuch" in json.loads(bad.stdout)["error"]


def test_the_summary_line_counts_in_its_nouns_number(tmp_path, monkeypatch):
    """'... 0 recency cases (dropped 1 non-specific queries)'."""
    def build_cases(engine, **kwargs):
        ids = [engine.index.event_id(0)]
        case = agecurve.Case(id="c1", kind="known-item", query="anything", expect=ids, bucket="<7d")
        return [case], {"known_item": 1, "recency": 0, "dropped_too_many_matches": 1}

    generate_home(tmp_path / "g", 300, seed=5)
    monkeypatch.setattr(agecurve, "build_cases", build_cases)
    out = CliRunner().invoke(cli, ["eval", "--rankers", "bm25", "--decay", "none"],
                             env={"CARTO_HOME": str(tmp_path / "g")})
    assert out.exit_code == 0, out.output
    line = next(l for l in out.output.splitlines() if l.startswith("home "))
    assert line.endswith(": 300 events; 1 known-item case, 0 recency cases (dropped 1 non-specific query)"), line


def test_a_wrong_name_is_said_before_a_home_is_generated(tmp_path):
    """`eval --generate DIR --analyzer nosuch` wrote 20,000 events and only then exited 2."""
    for flag in ("--analyzer", "--fusion"):
        out = CliRunner().invoke(cli, ["eval", "--generate", str(tmp_path / "g"), "--events", "300",
                                       flag, "nosuch"])
        assert out.exit_code == 2 and "nosuch" in out.output
        assert not (tmp_path / "g").exists()
