"""`carto search --format oneline` in a narrow terminal (a split pane, a phone): each line within
the terminal's width, each id whole so that it can be pasted into `--get`."""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone
from types import SimpleNamespace

import pytest

from .pty_run import env_for, in_pty, piped, plain

QUERY = "cart"
AGE = r" *(just now|\d+(m|h|d|w|mo|y) ago)"


@pytest.mark.parametrize("columns", [40, 20])
def test_oneline_lines_fit_a_narrow_terminal_and_keep_their_ids_whole(sample_home, columns):
    args = ["search", QUERY, "--all", "--no-semantic", "--format", "oneline"]
    env = env_for()
    ids = [hit["event_id"] for hit in json.loads(piped([*args[:-2], "--json"], env).stdout)["results"]]
    code, out = in_pty(args, env, columns=columns)
    lines = plain(out).splitlines()
    assert code == 0 and len(lines) == len(ids) >= 5
    for event_id, line in zip(ids, lines):
        # an id longer than the terminal is the line alone, whole; any other line fits
        assert line == event_id or (line.startswith(event_id + " ") and len(line) <= columns), line
        rest = line[len(event_id):]
        assert rest == "" or re.fullmatch(f"({AGE})?(  webshop)?(  \\S.*)?", rest), line
    # the sample's turn id (43 long) stands alone at both widths; its event ids (16) keep a
    # snippet at 40 (the age and project give way to it) and stand alone at 20
    alone = [i for i, line in zip(ids, lines) if line == i]
    assert alone == [i for i in ids if len(i) + 2 + 6 > columns]
    assert any(len(i) > columns for i in alone) and (columns < 26 or len(alone) < len(ids))


def _page(*hits):
    return SimpleNamespace(query="deploy", results=[
        SimpleNamespace(event_id=i, timestamp="2026-11-30T12:00:00Z", project=p, summary=s)
        for i, p, s in hits])


def test_oneline_cuts_by_the_columns_a_character_takes_and_never_the_id():
    from carto_core.cli.search_text import render_oneline
    from carto_core.util.terminal import Style, cells

    now = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
    page = _page(("evt-0123456789ab", "webshop", "deploy the cart to staging before the review"),
                 ("evt-abcdef012345", "a-project-with-a-long-name", "deploy"),
                 ("evt-fedcba987654", "webshop", "本番環境にデプロイを実行しました確認済みです問題ありません"),
                 ("turn-5a1e0000-aaaa-4000-8000-00000000000a-1", "webshop", "deploy"))
    lines = render_oneline(page, style=Style(False), width=46, now=now).splitlines()
    assert lines == ["evt-0123456789ab  deploy the cart to staging…",
                     "evt-abcdef012345  deploy",
                     "evt-fedcba987654  本番環境にデプロイを実行し…",
                     "turn-5a1e0000-aaaa-4000-8000-00000000000a-1"]
    # a wide character takes two columns: the snippet is cut by what the terminal shows; a
    # long project is cut where the line's snippet would have less than its share
    wide = render_oneline(page, style=Style(False), width=60, now=now).splitlines()
    assert wide[1] == "evt-abcdef012345    1d ago  a-project…  deploy"
    assert wide[2] == "evt-fedcba987654    1d ago  webshop  本番環境にデプロイを実…" and cells(wide[2]) == 60
    assert wide[3] == "turn-5a1e0000-aaaa-4000-8000-00000000000a-1    1d ago  webs…"
    assert all(cells(line) <= 60 for line in wide)


@pytest.mark.parametrize("columns", [40, 80])
def test_oneline_gives_the_snippet_the_room_the_line_has_left(sample_home, columns):
    """At 40 columns a line read `evt-9a001a08efb8   45m ago  webshop` (no snippet at all), at
    80 its snippet had 16 columns, the ids padded to a turn id's 43: what the line has left
    goes to the snippet, the ids stay whole, and no line is wider than the terminal."""
    args = ["search", "discount", "--all", "--no-semantic", "--format", "oneline"]
    env = env_for()
    hits = json.loads(piped([*args[:-2], "--json"], env).stdout)["results"]
    code, out = in_pty(args, env, columns=columns)
    lines = plain(out).splitlines()
    assert code == 0 and len(lines) == len(hits) >= 5
    short = 0
    for hit, line in zip(hits, lines):
        event_id = hit["event_id"]
        assert line == event_id or (line.startswith(event_id + "  ") and len(line) <= columns), line
        if len(event_id) == 16:  # the sample's event ids; its turn id is 43 long
            short += 1
            text = line.rsplit("  ", 1)[1]
            assert len(text) >= 20 or text == " ".join(hit["summary"].split()), line
            if columns == 80:
                assert re.fullmatch(re.escape(event_id) + AGE + "  webshop  " + re.escape(text), line), line
    assert short >= 4


def test_oneline_columns_give_way_to_the_snippet_padding_then_project_then_age():
    from carto_core.cli.search_text import render_oneline
    from carto_core.util.terminal import Style

    now = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
    page = _page(("evt-0123456789ab", "webshop", "deploy the cart to staging before the review, then tag it"),
                 ("turn-5a1e0000-aaaa-4000-8000-00000000000a-1", "webshop", "deploy"),
                 ("evt-abcdef012345", "webshop", "deploy"))

    def lines(width):
        return render_oneline(page, style=Style(False), width=width, now=now).splitlines()

    # 80: the event ids are not padded to the turn id's length, which would leave 16 columns
    assert lines(80) == ["evt-0123456789ab    1d ago  webshop  deploy the cart to staging before the…",
                         "turn-5a1e0000-aaaa-4000-8000-00000000000a-1    1d ago  webshop  deploy",
                         "evt-abcdef012345    1d ago  webshop  deploy"]
    # 50: the project gives way; 40: the age too; the turn id longer than the line stands alone
    assert lines(50) == ["evt-0123456789ab    1d ago  deploy the cart to…",
                         "turn-5a1e0000-aaaa-4000-8000-00000000000a-1",
                         "evt-abcdef012345    1d ago  deploy"]
    assert lines(40) == ["evt-0123456789ab  deploy the cart to…",
                         "turn-5a1e0000-aaaa-4000-8000-00000000000a-1",
                         "evt-abcdef012345  deploy"]
