"""carto_core.util.terminal: when text is coloured, ages in a person's words, counts, the width."""

from __future__ import annotations

import io
import os

import pytest

from carto_core.util.terminal import Style, ago, counted, duration, plain, use_colour, width


class _Tty(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.parametrize("seconds, words", [
    (0, "just now"), (59, "just now"), (60, "1m ago"), (3599, "59m ago"), (3600, "1h ago"),
    (86400 * 2 + 5, "2d ago"), (86400 * 7, "1w ago"), (86400 * 31, "1mo ago"),
    (86400 * 400, "1y ago"), (-30, "just now"), (-3600, "in the future")])
def test_ago(seconds, words):
    assert ago(seconds) == words


@pytest.mark.parametrize("ms, words", [
    (0, "0m"), (29_999, "0m"), (60_000, "1m"), (59 * 60_000, "59m"), (60 * 60_000, "1h00m"),
    (100 * 60_000, "1h40m"), (47 * 3_600_000 + 59 * 60_000, "47h59m"), (48 * 3_600_000, "2d 0h"),
    (6307 * 60_000, "4d 9h"), (-5_000, "0m")])
def test_duration(ms, words):
    assert duration(ms) == words


@pytest.mark.parametrize("n, noun, plural, words", [
    (1, "event", None, "1 event"), (2, "event", None, "2 events"), (0, "event", None, "0 events"),
    (1, "match", "matches", "1 match"), (3, "match", "matches", "3 matches"),
    (0, "copy", "copies", "0 copies"), (1, "tool call", None, "1 tool call")])
def test_counted(n, noun, plural, words):
    assert counted(n, noun, plural) == words


def test_colour_only_on_a_terminal_without_no_color(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    assert use_colour(_Tty()) is True
    assert use_colour(io.StringIO()) is False  # a pipe or a file
    monkeypatch.setenv("NO_COLOR", "1")
    assert use_colour(_Tty()) is False
    monkeypatch.setenv("NO_COLOR", "")  # no-color.org: set but empty means nothing
    assert use_colour(_Tty()) is True
    monkeypatch.setenv("TERM", "dumb")
    assert use_colour(_Tty()) is False


def test_style_and_plain():
    on, off = Style(True), Style(False)
    assert on("id", "bold", "cyan") == "\x1b[1;36mid\x1b[0m"
    assert off("id", "bold") == "id" and plain(on("a", "hit") + "b") == "ab"


def test_width_from_columns_and_bounded(monkeypatch):
    monkeypatch.setenv("COLUMNS", "132")
    assert width(io.StringIO()) == 132
    monkeypatch.setenv("COLUMNS", "20")  # a split pane: laid out for as it is
    assert width(io.StringIO()) == 20
    monkeypatch.setenv("COLUMNS", "5")
    assert width(io.StringIO()) == 20
    monkeypatch.delenv("COLUMNS")
    assert width(io.StringIO(), default=90) == 90
