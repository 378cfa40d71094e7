"""The Source base class's shared option parsing: every source reads `roots` the same way."""

from __future__ import annotations

from pathlib import Path

import pytest

from carto_core.model.sources import Source


@pytest.mark.parametrize(("options", "expected"), [
    ({"roots": ["~/a", "/b"]}, ["HOME/a", "/b"]),
    ({"roots": "~/single"}, ["HOME/single"]),          # one path, not its characters
    ({"root": "/given/as/root"}, ["/given/as/root"]),  # the singular spelling too
    ({"roots": [Path("/p")]}, ["/p"]),
    ({}, []),
    ({"roots": []}, []),
])
def test_given_roots(options, expected, monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    got = Source(options).given_roots()
    assert got == [Path(e.replace("HOME", str(tmp_path))) for e in expected]


def test_root_paths_fall_back_to_the_default_only_when_none_is_given(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    assert Source({}).root_paths(default=["~/notes"]) == [tmp_path / "notes"]
    assert Source({"roots": ["/x"]}).root_paths(default=["~/notes"]) == [Path("/x")]
