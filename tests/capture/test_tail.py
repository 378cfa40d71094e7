"""The tail readers live capture and the SessionStart note share (`carto_core.capture.tail`)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from carto_core.capture.context import read_last_line
from carto_core.capture.tail import read_tail

LINE = st.binary(max_size=40).map(lambda b: b.replace(b"\n", b"."))


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(LINE, max_size=30), limit=st.integers(min_value=1, max_value=1200),
       trailing=st.booleans())
def test_read_tail_is_the_lines_that_start_inside_the_window(tmp_path_factory, lines, limit, trailing):
    content = b"\n".join(lines) + (b"\n" if trailing and lines else b"")
    path = tmp_path_factory.mktemp("tail") / "log"
    path.write_bytes(content)
    start = max(0, len(content) - limit)
    # Independent scan: a line is kept when it starts after the window's first byte (a line the
    # window starts in, or starts exactly at, may be cut and is dropped), or all when start == 0.
    offsets, at = [], 0
    for line in lines:
        offsets.append(at)
        at += len(line) + 1
    kept = [line for line, offset in zip(lines, offsets) if start == 0 or offset > start]
    expected = b"\n".join(kept) + (b"\n" if trailing and kept else b"")
    assert read_tail(path, limit) == expected


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(LINE, min_size=1, max_size=30), trailing=st.booleans())
def test_read_last_line_is_the_last_line(tmp_path_factory, lines, trailing):
    path = tmp_path_factory.mktemp("last") / "log"
    content = b"\n".join(lines) + (b"\n" if trailing else b"")
    path.write_bytes(content)
    body = content[:-1] if content.endswith(b"\n") else content  # one line break ends the last line
    assert read_last_line(path) == body.split(b"\n")[-1]


def test_read_last_line_grows_its_window_past_8_kib(tmp_path):
    path = tmp_path / "log"
    long_line = b"x" * 50_000
    path.write_bytes(b"first\n" + long_line + b"\n")
    assert read_last_line(path) == long_line
    assert read_last_line(path, max_bytes=8192) == b""  # past the cap: nothing rather than a fragment


def test_missing_files_read_as_empty(tmp_path):
    assert read_tail(tmp_path / "none", 100) == b"" and read_last_line(tmp_path / "none") == b""
