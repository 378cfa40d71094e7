"""Short generic queries through the whole pipeline: the newest row holding every word of
"deploy staging" comes first, above newer rows holding one of the two and above older rows
holding both that the keyword ranking alone puts higher."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

from carto_core.logio.home import Home
from carto_core.search import SearchRequest, run_search
from carto_core.search.engine import SearchEngine

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
NEWEST = "The logs step passed, so I went ahead to deploy staging after lunch today."


def _home(tmp_path, filler: int) -> Home:
    rows = [
        ("deploy staging", timedelta(days=40)),         # short: bm25's first of the full matches
        ("deploy staging again", timedelta(days=20)),
        (NEWEST, timedelta(hours=30)),                  # long: bm25's last of them
    ]
    rows += [(f"check the deploy {w} output", timedelta(hours=1 + i))
             for i, w in enumerate(["api", "worker", "cluster", "docs", "ci", "jobs"][:filler])]
    rows += [(f"the staging {w} looks wrong", timedelta(hours=2 + i))
             for i, w in enumerate(["config", "db", "queue", "cache", "logs", "keys"][:filler])]
    out = [{"event_id": f"evt-{n:012d}", "summary": text, "project": "platform",
            "type": "tool_bash", "salience": 0.2,
            "timestamp": (NOW - age).strftime("%Y-%m-%dT%H:%M:%SZ")}
           for n, (text, age) in enumerate(rows)]
    out += [{"event_id": f"evt-9{n:011d}", "summary": f"unrelated row {n} about lunch plans",
             "project": "platform", "type": "tool_bash", "salience": 0.2,
             "timestamp": (NOW - timedelta(days=3, minutes=n)).strftime("%Y-%m-%dT%H:%M:%SZ")}
            for n in range(30)]
    out.sort(key=lambda r: r["timestamp"])
    (tmp_path / "tool-use-log.jsonl").write_text("".join(json.dumps(r) + "\n" for r in out))
    return Home(tmp_path)


def _summaries(home, query: str) -> list[str]:
    request = SearchRequest(query=query, semantic=False, limit=10, now=NOW, all=True)
    return [hit.summary for hit in run_search(request, engine=SearchEngine(home)).results]


def test_the_newest_row_holding_both_words_comes_first(tmp_path):
    home = _home(tmp_path, filler=6)
    for query in ("deploy staging", "staging deploy", "latest deploy staging",
                  "what's the latest on the deploy staging?"):
        got = _summaries(home, query)
        assert got[0] == NEWEST, (query, got[:3])
        # the other full matches next (weeks older than the newest: their own scores order
        # them), before any row holding one word
        assert sorted(got[1:3]) == ["deploy staging", "deploy staging again"], (query, got[:4])


def test_a_longer_lookup_with_a_rare_word_keeps_the_keyword_order(tmp_path):
    """Three words, one of them ("lunch") held by few rows besides: not short, not generic."""
    home = _home(tmp_path, filler=1)
    got = _summaries(home, "deploy staging lunch")
    assert got[0] == NEWEST  # the only row holding all three
