"""The block reader: a log read in blocks of any size gives exactly what one read gives."""

from hypothesis import given, settings
from hypothesis import strategies as st

from carto_core.logio.reader import ReadReport, iter_lines

_LINES = st.one_of(
    st.builds(lambda n, text: b'{"event_id":"e%d","summary":"%s"}' % (n, text.encode()),
              st.integers(0, 50), st.text("ab \u00e9", max_size=30)),
    st.just(b""), st.just(b"   "), st.just(b"not json"), st.just(b"[1,2]"),
    st.just(b'{"summary":"no id"}'), st.just(b'{"event_id":"bad\xff"}'),
)


@settings(max_examples=150, deadline=None)
@given(lines=st.lists(_LINES, max_size=25), torn=st.sampled_from([b"", b'{"event_id":"to', b"  "]),
       block=st.integers(1, 64), start_line=st.integers(0, 3))
def test_blocks_of_any_size_read_what_one_read_reads(tmp_path_factory, lines, torn, block, start_line):
    path = tmp_path_factory.mktemp("log") / "log.jsonl"
    data = b"".join(line + b"\n" for line in lines) + torn
    path.write_bytes(data)
    start = sum(len(line) + 1 for line in lines[:start_line]) if start_line <= len(lines) else 0
    whole, blocked = ReadReport(str(path)), ReadReport(str(path))
    expected = list(iter_lines(path, whole, start=start, data=data[start:]))
    got = list(iter_lines(path, blocked, start=start, block=block))
    assert got == expected
    assert (blocked.rows, blocked.lines, blocked.end_offset, blocked.problems, blocked.examples) == (
        whole.rows, whole.lines, whole.end_offset, whole.problems, whole.examples)
    # Consumed bytes end after the last newline: a torn tail is never consumed.
    assert blocked.end_offset == start + len(data[start:]) - len(torn)
