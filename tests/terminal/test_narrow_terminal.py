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
        assert rest == "" or re.fullmatch(AGE + r"(  webshop(  \S.*)?)?", rest), line
    # the sample's turn id (44 long) stands alone at both widths; its event ids (16) keep their
    # age and project at 40 and stand alone at 20
    alone = [i for i, line in zip(ids, lines) if line == i]
    assert alone == [i for i in ids if len(i) + 2 + 8 > columns]
    assert any(len(i) > columns for i in alone) and (columns < 26 or len(alone) < len(ids))


def _page(*hits):
    return SimpleNamespace(query="deploy", results=[
        SimpleNamespace(event_id=i, timestamp="2026-11-30T12:00:00Z", project=p, summary=s)
        for i, p, s in hits])


def test_oneline_cuts_the_snippet_then_the_project_never_the_id():
    from carto_core.cli.search_text import render_oneline
    from carto_core.util.terminal import Style, cells

    now = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
    page = _page(("evt-0123456789ab", "webshop", "deploy the cart to staging before the review"),
                 ("evt-abcdef012345", "a-project-with-a-long-name", "deploy"),
                 ("evt-fedcba987654", "webshop", "本番環境にデプロイを実行しました確認済みです問題ありません"),
                 ("turn-5a1e0000-aaaa-4000-8000-00000000000a-1", "webshop", "deploy"))
    lines = render_oneline(page, style=Style(False), width=46, now=now).splitlines()
    assert lines == ["evt-0123456789ab    1d ago  webshop  deploy…",
                     "evt-abcdef012345    1d ago  a-project-with-a-…",
                     "evt-fedcba987654    1d ago  webshop  本番環境…",
                     "turn-5a1e0000-aaaa-4000-8000-00000000000a-1"]
    # a wide character takes two columns: the snippet is cut by what the terminal shows
    wide = render_oneline(page, style=Style(False), width=60, now=now).splitlines()
    assert wide[2] == "evt-fedcba987654    1d ago  webshop  本番環境にデプロイを実…" and cells(wide[2]) == 60
    assert wide[3] == "turn-5a1e0000-aaaa-4000-8000-00000000000a-1    1d ago  webs…"
