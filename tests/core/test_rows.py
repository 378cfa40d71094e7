"""Rows of every log survive read -> Event -> write byte for byte: unknown keys, key order,
nesting and non-ASCII included."""

import json

from hypothesis import given, settings, strategies as st

from carto_core.model.events import Event
from carto_core.logio.jsonl import dumps_row
from carto_core.logio.logs import SHAPES, order_row
from carto_core.logio.reader import ReadReport, iter_lines

SHAPE_TO_LOG = {"changelog-milestone": "changelog"}

json_scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**9, 10**9),
                         st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=30))
json_values = st.recursive(json_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)), max_leaves=8)


@st.composite
def rows(draw, shape):
    keys = SHAPES[shape]
    present = [k for k in keys if k == "event_id" or draw(st.booleans())]
    row = {}
    for key in present:
        if key == "event_id":
            row[key] = draw(st.from_regex(r"evt-[a-z0-9]{12}", fullmatch=True))
        elif key == "timestamp":
            row[key] = draw(st.one_of(st.just("2026-09-08T14:03:05Z"), st.integers(10**9, 2 * 10**9)))
        else:
            row[key] = draw(json_values)
    extras = draw(st.dictionaries(st.text(min_size=1, max_size=10).filter(lambda k: k not in keys),
                                  json_values, max_size=4))
    row.update(extras)
    # upstream key order for known keys, then extras in the order given
    return order_row(shape, row, keep_none=frozenset(row)), list(extras)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_every_shape_round_trips_byte_for_byte(tmp_path_factory, data):
    shape = data.draw(st.sampled_from(sorted(SHAPES)))
    row, extras = data.draw(rows(shape))
    path = tmp_path_factory.mktemp("rt") / "log.jsonl"
    line = dumps_row(row)
    path.write_bytes(line)
    report = ReadReport(str(path))
    [read] = list(iter_lines(path, report))
    event = Event.from_row(read.row, SHAPE_TO_LOG.get(shape, shape))
    assert dumps_row(event.row) == line
    assert list(event.row) == list(row)
    for key in extras:
        assert key in event.row
    assert report.rows == 1 and not report.problems


def test_order_row_puts_known_keys_in_upstream_order_and_extras_after():
    row = order_row("tool-use", {"extra": 1, "summary": "Ran: make", "event_id": "e", "timestamp": "t",
                                 "parent_event_id": None, "diff_shape": None},
                    keep_none=frozenset({"diff_shape"}))
    assert list(row) == ["event_id", "timestamp", "summary", "diff_shape", "extra"]


def test_compact_json_like_jq():
    assert dumps_row({"a": "é", "b": [1, 2], "c": None}) == '{"a":"é","b":[1,2],"c":null}\n'.encode()


def test_upstream_golden_tool_use_row_is_reproduced():
    # reference/cartographer.md 1.5, first tool-use line
    golden = ('{"event_id":"evt-abcdefabcdef","timestamp":"2026-09-08T14:03:05Z","type":"tool_bash",'
              '"provider":"claude","tool":"Bash","summary":"Ran: npm test -- --grep \\"foo bar\\" ",'
              '"project":"fixrepo","cwd":"/w/fixrepo","session":"sess-claude-1",'
              '"transcript_path":"/t/sess-claude-1.jsonl","diff_shape":null,"salience":0.2}')
    fields = json.loads(golden)
    shuffled = dict(reversed(list(fields.items())))
    assert dumps_row(order_row("tool-use", shuffled, keep_none=frozenset({"diff_shape"}))).decode() == golden + "\n"
