import os

from carto_core.logio.appendlog import append_rows
from carto_core.model.corpus import load_corpus
from carto_core.logio.home import Home
from carto_core.logio.reader import ReadReport, boundary_hash, iter_lines
from carto_core.logio.rewrite import generation, rewrite_log


def write(path, data: bytes):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


BAD_LOG = (
    b'{"event_id":"evt-1","timestamp":"2026-09-08T14:03:05Z","summary":"one"}\n'
    b'this is not json\n'
    b'{"event_id":"evt-2","summary":"unknown key","brand_new_field":{"x":1}}\n'
    b'["an","array"]\n'
    b'{"summary":"no id here"}\n'
    b'{"event_id":"evt-3","summary":"caf\xe9 latin-1 byte"}\n'
    b'\n'
    b'{"event_id":"evt-4","summary":"last good"}\n'
    b'{"event_id":"evt-5","summ'
)


def test_bad_lines_are_counted_reported_and_nothing_else_is_lost(tmp_path):
    path = tmp_path / "changelog.jsonl"
    write(path, BAD_LOG)
    report = ReadReport(str(path))
    lines = list(iter_lines(path, report))
    ids = [line.row.get("event_id") for line in lines]
    assert ids == ["evt-1", "evt-2", None, "evt-3", "evt-4"]
    assert report.problems == {"malformed_json": 1, "not_an_object": 1, "missing_event_id": 1,
                               "invalid_utf8": 1, "torn_line": 1}
    assert report.examples["malformed_json"] == [2]
    assert report.examples["torn_line"] == [9]
    assert report.malformed == 3
    # the unknown key survives, the bad byte becomes U+FFFD and the rest of its row is kept
    assert lines[1].row["brand_new_field"] == {"x": 1}
    assert lines[3].row["summary"] == "caf\ufffd latin-1 byte"
    messages = "\n".join(report.messages())
    assert "line" in messages and "not JSON" in messages and "without its newline" in messages
    # the torn line is not consumed: a cursor resumes before it
    assert report.end_offset == BAD_LOG.rindex(b"\n") + 1


def test_offsets_point_at_each_row(tmp_path):
    path = tmp_path / "log.jsonl"
    append_rows(path, [{"event_id": f"e{i}", "n": i} for i in range(5)])
    data = path.read_bytes()
    for line in iter_lines(path):
        assert data[line.offset:line.end].endswith(b"\n")
        assert f'"e{line.row["n"]}"'.encode() in data[line.offset:line.end]
    # resuming from the middle reads only what follows
    third = list(iter_lines(path))[2]
    assert [l.row["n"] for l in iter_lines(path, start=third.end)] == [3, 4]


def test_boundary_hash_changes_when_the_bytes_before_change(tmp_path):
    path = tmp_path / "log.jsonl"
    append_rows(path, [{"event_id": "a"}, {"event_id": "b"}])
    offset = path.stat().st_size
    before = boundary_hash(path, offset)
    assert boundary_hash(path, offset) == before
    path.write_bytes(path.read_bytes().replace(b'"a"', b'"z"'))
    assert boundary_hash(path, offset) != before


def test_append_is_one_line_per_row_and_creates_folders(tmp_path):
    path = tmp_path / "deep" / "x.jsonl"
    assert append_rows(path, [{"event_id": "a", "s": "line\nbreak"}, {"event_id": "b"}]) == 2
    assert path.read_bytes().count(b"\n") == 2


def test_rewrite_keeps_unparsed_lines_and_bumps_generation(tmp_path):
    home = Home(tmp_path)
    path = home.log("changelog")
    write(path, BAD_LOG)
    assert generation(path) == 0
    report = rewrite_log(path, lambda rows: [dict(r, rewritten=True) for r in rows])
    assert generation(path) == 1
    after = path.read_bytes()
    assert b"this is not json" in after and b'["an","array"]' in after
    assert after.count(b'"rewritten":true') == report.rows == 5


def test_corpus_folds_duplicates_domain_row_wins(tmp_path):
    home = Home(tmp_path)
    append_rows(home.log("changelog"), [{"event_id": "e1", "session_id": "s", "summary": "copy"},
                                        {"event_id": "e2", "summary": "only in changelog"}])
    append_rows(home.log("tool-use"), [{"event_id": "e1", "session": "s", "summary": "domain", "tool": "Bash"}])
    corpus = load_corpus(home)
    assert len(corpus) == 2
    assert corpus.get("e1").source == "tool-use"
    assert corpus.get("e1").summary == "domain"
    assert corpus.sources["e1"] == ["tool-use", "changelog"]
    assert corpus.duplicates == 1


def test_home_resolution_order(tmp_path):
    from carto_core.logio.home import resolve_home

    env = {"CARTO_HOME": "/a", "CARTOGRAPHER_DEV_DIR": "/b", "XDG_DATA_HOME": "/c"}
    assert resolve_home(env) == (Home("/a").root, "CARTO_HOME")
    assert resolve_home({k: v for k, v in env.items() if k != "CARTO_HOME"}, "/cfg")[1] == "config file"
    assert resolve_home({"CARTOGRAPHER_DEV_DIR": "/b", "XDG_DATA_HOME": "/c"})[1] == "CARTOGRAPHER_DEV_DIR"
    root, why = resolve_home({"XDG_DATA_HOME": "/c"})
    assert (str(root), why) == ("/c/carto", "XDG default")
    assert os.environ["CARTO_HOME"]  # the test harness isolates every test
